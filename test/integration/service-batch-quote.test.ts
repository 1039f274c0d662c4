import { describe, expect, it } from "vitest";
import { buildCommercialInvoice, buildPiece, buildUkReceiver } from "../factories/shipping-api";
import { ok } from "../support/service-harness";
import { shipment, startServiceWithCustomers } from "./service-endpoints";

// Batch Quote: one quote per service, shipments independent of each other, line items kept.
const { service, alice } = await startServiceWithCustomers();

describe("Batch Quote", () => {
  it("GIVEN a shipment without codes THEN one quote per available service, totals = base + surcharges, integer ids", async () => {
    const { results } = ok(await alice.client.batchQuote({ body: { shipments: [shipment({ serviceCode: undefined })] } }));
    const [result] = results;
    if (result?.status !== "success") throw new Error("expected success");
    expect(result.shipmentIndex).toBe(0);
    expect(new Set(result.quotes.map((quote) => quote.serviceCode)).size).toBe(result.quotes.length);
    expect(result.quotes.length).toBeGreaterThanOrEqual(8);
    for (const quote of result.quotes) {
      expect(Number.isInteger(quote.quoteId)).toBe(true);
      const sum = Math.round(Number(quote.baseAmount) * 100) + quote.surcharges.reduce((total, charge) => total + Math.round(Number(charge.amount) * 100), 0);
      expect(Math.round(Number(quote.totalAmount) * 100)).toBe(sum);
    }
  });

  it("GIVEN a serviceCode THEN exactly one quote", async () => {
    const { results } = ok(await alice.client.batchQuote({ body: { shipments: [shipment({ serviceCode: "MRX_2DAY" })] } }));
    expect(results[0]).toMatchObject({ status: "success", quotes: [{ serviceCode: "MRX_2DAY", carrierCode: "MRX" }] });
  });

  it("GIVEN mixed shipments THEN each is independent, results in input order, HTTP 200", async () => {
    const { results } = ok(
      await alice.client.batchQuote({
        body: {
          shipments: [
            shipment(),
            shipment({ serviceCode: "NOT_A_SERVICE" }),
            shipment({ serviceCode: "NPS_PRIORITY", pieces: [buildPiece({ weight: "95" })] }),
            shipment(),
          ],
        },
      }),
    );
    expect(results.map((result) => [result.shipmentIndex, result.status])).toEqual([
      [0, "success"],
      [1, "error"],
      [2, "error"],
      [3, "success"],
    ]);
    expect(results[1]).toMatchObject({ errorCategory: "INVALID_REQUEST" });
    expect(results[2]).toMatchObject({ errorCategory: "WEIGHT_LIMIT_EXCEEDED" });
  });

  it("GIVEN some services cannot take the piece THEN they are quoteErrors of a successful shipment", async () => {
    const { results } = ok(
      await alice.client.batchQuote({
        body: { shipments: [shipment({ serviceCode: undefined, pieces: [buildPiece({ weight: "80", length: "20", width: "20", height: "20" })] })] },
      }),
    );
    const [result] = results;
    if (result?.status !== "success") throw new Error("expected success");
    expect(result.quoteErrors.find((failure) => failure.serviceCode === "NPS_PRIORITY")).toMatchObject({
      errorCategory: "WEIGHT_LIMIT_EXCEEDED",
      carrierCode: "NPS",
    });
    expect(result.quotes.some((quote) => quote.serviceCode === "BLP_GROUND")).toBe(true);
  });

  it("GIVEN invoice item weights above the package weight (rule 3) THEN status error INVALID_REQUEST", async () => {
    const international = shipment({
      serviceCode: undefined,
      receiver: buildUkReceiver(),
      pieces: [buildPiece({ weight: "2.5", declaredValue: "52.00" })],
      commercialInvoice: buildCommercialInvoice({
        items: [
          { description: "Candle", quantity: 2, unitValue: "24.50", weight: "2", htsNumber: "", countryOfOrigin: "US" },
          { description: "Candle", quantity: 1, unitValue: "5", weight: "0.6", htsNumber: "", countryOfOrigin: "US" },
        ],
      }),
    });
    const { results } = ok(
      await alice.client.batchQuote({ body: { shipments: [international, { ...international, commercialInvoice: buildCommercialInvoice() }] } }),
    );
    expect(results[0]).toMatchObject({ status: "error", errorCategory: "INVALID_REQUEST" });
    expect(results[1]).toMatchObject({ status: "success" });
  });

  it("stores the line items with the quote, order and duplicates preserved", async () => {
    const lineItems = [
      { sku: "B", productName: "Second", quantity: 1 },
      { sku: "A", productName: "First", quantity: 2 },
      { sku: "B", productName: "Second", quantity: 1 },
    ];
    const { results } = ok(await alice.client.batchQuote({ body: { shipments: [shipment({ pieces: [buildPiece({ lineItems })] })] } }));
    if (results[0]?.status !== "success") throw new Error("expected success");
    const row = service.db
      .statement(`SELECT r.shipment FROM Quote q JOIN QuoteRequest r ON r.id = q.requestId WHERE q.id = ?`)
      .get(results[0].quotes[0]!.quoteId) as { shipment: string };
    expect(JSON.parse(row.shipment).pieces[0].lineItems).toEqual(lineItems);
  });

  it("GIVEN 500 shipments THEN 500 results; GIVEN 501 THEN 400 naming shipments", async () => {
    const five = Array.from({ length: 500 }, () => shipment());
    expect(ok(await alice.client.batchQuote({ body: { shipments: five } })).results).toHaveLength(500);
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/batch-quote`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ shipments: [...five, shipment()] }),
      authorization: alice.authorization,
    });
    expect(response).toMatchObject({ status: 400, body: { errorCategory: "INVALID_REQUEST" } });
    expect((response.body as { error: string }).error).toMatch(/shipments/);
  });
});
