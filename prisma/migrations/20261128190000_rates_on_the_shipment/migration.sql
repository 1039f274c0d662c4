-- A shipment's rates become one column of the shipment (docs/decisions/048): a row per rate cost a 5,000-order
-- quote run 33,660 inserts, their two indexes and as many deletes when it was quoted again. Each shipment's stored
-- quotes move into "rates" as the Shipping API's Quote objects (surcharges parsed back from their JSON text); a
-- shipment waiting to be quoted again (PENDING) drops its earlier request's quotes, as its run would have.
ALTER TABLE "Shipment" ADD COLUMN "rates" TEXT;

UPDATE "Shipment" SET "rates" = (
    SELECT json_group_array(json_object(
        'quoteId', "q"."quoteId",
        'carrierCode', "q"."carrierCode",
        'serviceCode', "q"."serviceCode",
        'serviceDescription', "q"."serviceDescription",
        'packageTypeCode', "q"."packageTypeCode",
        'currency', "q"."currency",
        'totalAmount', "q"."totalAmount",
        'baseAmount', "q"."baseAmount",
        'zone', "q"."zone",
        'quotedWeight', "q"."quotedWeight",
        'quotedWeightType', "q"."quotedWeightType",
        'surcharges', json("q"."surcharges")
    ))
    FROM (SELECT * FROM "Quote" WHERE "Quote"."shipmentId" = "Shipment"."id" ORDER BY "Quote"."quoteId") AS "q"
)
WHERE "quoteStatus" <> 'PENDING' AND EXISTS (SELECT 1 FROM "Quote" WHERE "Quote"."shipmentId" = "Shipment"."id");

DROP TABLE "Quote";
