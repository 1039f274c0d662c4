-- A shipment's rates become one column of the shipment (docs/decisions/048); see the SQLite migration of the
-- same name. Each shipment's stored quotes move into "rates" as the Shipping API's Quote objects; a shipment
-- waiting to be quoted again (PENDING) drops its earlier request's quotes, as its run would have.

-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "rates" TEXT;

UPDATE "Shipment" AS "s" SET "rates" = "q"."rates"
FROM (
    SELECT "shipmentId", json_agg(json_build_object(
        'quoteId', "quoteId",
        'carrierCode', "carrierCode",
        'serviceCode', "serviceCode",
        'serviceDescription', "serviceDescription",
        'packageTypeCode', "packageTypeCode",
        'currency', "currency",
        'totalAmount', "totalAmount",
        'baseAmount', "baseAmount",
        'zone', "zone",
        'quotedWeight', "quotedWeight",
        'quotedWeightType', "quotedWeightType",
        'surcharges', "surcharges"::json
    ) ORDER BY "quoteId")::text AS "rates"
    FROM "Quote" GROUP BY "shipmentId"
) AS "q"
WHERE "q"."shipmentId" = "s"."id" AND "s"."quoteStatus" <> 'PENDING';

-- DropForeignKey
ALTER TABLE "Quote" DROP CONSTRAINT "Quote_shipmentId_fkey";

-- DropTable
DROP TABLE "Quote";
