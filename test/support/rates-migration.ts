/**
 * The rows the migration that moved a shipment's rates into its `rates` column (docs/decisions/048) starts from, in
 * SQL both databases run, and what each shipment holds after it: the SQLite and the PostgreSQL migration are held to
 * the same outcome (test/integration/rates-migration.test.ts, test/postgres/migrations.test.ts).
 */
export const RATES_MIGRATION = { sqlite: "20261128190000_rates_on_the_shipment", postgresql: "20261128221059_rates_on_the_shipment" };

const shipment = (id: string, quoteStatus: string, selectedQuoteId: number | null) =>
  `INSERT INTO "Shipment" ("id", "shop", "orderId", "orderName", "fulfillmentOrderId", "lines", "request", "quoteStatus", "quotedAt", "selectedQuoteId", "updatedAt")
   VALUES ('${id}', 'shop.myshopify.com', 'gid://shopify/Order/${id}', '#${id}', 'gid://shopify/FulfillmentOrder/${id}', '[]', '{}', '${quoteStatus}',
           '2026-11-20 10:00:00', ${selectedQuoteId ?? "NULL"}, '2026-11-20 10:00:00')`;

const quote = (shipmentId: string, quoteId: number, serviceDescription: string, totalAmount: string, surcharges: string) =>
  `INSERT INTO "Quote" ("id", "shop", "quoteId", "shipmentId", "carrierCode", "serviceCode", "serviceDescription", "packageTypeCode", "currency",
                        "totalAmount", "baseAmount", "surcharges", "zone", "quotedWeight", "quotedWeightType", "createdAt", "expiresAt")
   VALUES ('q${quoteId}', 'shop.myshopify.com', ${quoteId}, '${shipmentId}', 'MRX', 'MRX_GROUND', '${serviceDescription}', 'BOX', 'USD',
           '${totalAmount}', '7.00', '${surcharges}', '5', '2.5', 'Actual', '2026-11-20 10:00:00', '2026-12-20 10:00:00')`;

/** Before the migration: a quoted shipment with two rates (stored out of order), one being quoted again, one that failed. */
export const RATES_BEFORE = [
  shipment("quoted", "QUOTED", 11),
  shipment("requoting", "PENDING", null),
  shipment("failed", "FAILED", null),
  quote("quoted", 12, `Ground “Plus” \\ ''saver''`, "9.10", `[{"description":"Fuel","amount":"0.60"},{"description":"Résidentiel","amount":"1.50"}]`),
  quote("quoted", 11, "Ground", "7.00", "[]"),
  quote("requoting", 13, "Ground", "8.00", "[]"),
];

const rate = (quoteId: number, serviceDescription: string, totalAmount: string, surcharges: Array<{ description: string; amount: string }>) => ({
  quoteId,
  carrierCode: "MRX",
  serviceCode: "MRX_GROUND",
  serviceDescription,
  packageTypeCode: "BOX",
  currency: "USD",
  totalAmount,
  baseAmount: "7.00",
  zone: "5",
  quotedWeight: "2.5",
  quotedWeightType: "Actual",
  surcharges,
});

/** After it, by shipment id: its rates as the Shipping API's Quote objects in quote id order, or null. */
export const RATES_AFTER: Record<string, unknown> = {
  quoted: [
    rate(11, "Ground", "7.00", []),
    rate(12, `Ground “Plus” \\ 'saver'`, "9.10", [
      { description: "Fuel", amount: "0.60" },
      { description: "Résidentiel", amount: "1.50" },
    ]),
  ],
  requoting: null,
  failed: null,
};
