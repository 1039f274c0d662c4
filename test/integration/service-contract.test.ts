import { PDFDocument } from "pdf-lib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import type { BatchQuoteShipment, BookShipmentRequest } from "../../shipping-api/contract";
import { buildCommercialInvoice, buildCreateCustomer, buildDomesticReceiver, buildPiece, buildQuoteShipment, buildUkReceiver } from "../../shipping-api/fixtures";
import { DAY_MS } from "../../service/clock";
import { createSecretBox } from "../../service/secrets";
import { PARTNER_KEY, type RunningService, SECRETS_KEY, START, type TestCustomer, failed, ok, startService } from "./service-harness";

type ShipmentIn = z.input<typeof BatchQuoteShipment>;
type BookIn = z.input<typeof BookShipmentRequest>;

let service: RunningService;
let alice: TestCustomer;
let bob: TestCustomer;

beforeAll(async () => {
  service = await startService();
  // A large recharge amount keeps the main customers' bookings independent of test order.
  const funded = { prepaySettings: { minimumBalance: "500.00", rechargeAmount: "5000.00" } };
  [alice, bob] = await Promise.all([service.createCustomer(funded), service.createCustomer(funded)]);
});
afterAll(async () => {
  await service?.close();
});
// Every test starts at the same service time; tests that move the clock do not leak into others.
afterEach(() => service.clock.set(START));

function shipment(overrides: Partial<ShipmentIn> = {}): ShipmentIn {
  return buildQuoteShipment({ serviceCode: "BLP_GROUND", ...overrides });
}

/** Quotes `count` shipments for one service and returns their quote ids. */
async function quoteIds(customer: TestCustomer, count: number, serviceCode = "BLP_GROUND"): Promise<number[]> {
  const response = ok(await customer.client.batchQuote({ body: { shipments: Array.from({ length: count }, (_, index) => shipment({ serviceCode, shipmentReference: `#Q${index}` })) } }));
  return response.results.map((result) => {
    if (result.status !== "success") throw new Error(result.error);
    return result.quotes[0]!.quoteId;
  });
}

async function openBatch(customer: TestCustomer, count: number, name = "batch"): Promise<{ batchId: number; quoteIds: number[] }> {
  const ids = await quoteIds(customer, count);
  const batch = ok(await customer.client.createBatch({ body: { name, quoteIds: ids } }));
  return { batchId: batch.batchId, quoteIds: ids };
}

function domesticBooking(overrides: Partial<BookIn> = {}): BookIn {
  return {
    carrierCode: "BLP",
    serviceCode: "BLP_GROUND",
    packageTypeCode: "BLP_PACKAGE",
    shipmentDate: "2026-11-23",
    shipmentReference: "INV-1042",
    shipmentReference2: "gid://shopify/Order/1042",
    orderNumber: "1042",
    sender: buildQuoteShipment().sender,
    receiver: buildDomesticReceiver(),
    weightUnit: "lb",
    dimUnit: "in",
    currency: "USD",
    pieces: [{ weight: "2.5", length: "12", width: "9", height: "4", insuranceAmount: null, declaredValue: null }],
    ...overrides,
  };
}

async function pdfPages(base64: string): Promise<number> {
  return (await PDFDocument.load(Buffer.from(base64, "base64"))).getPageCount();
}

describe("service basics", () => {
  it("GIVEN the service is up WHEN GET /healthz THEN 200", async () => {
    expect(await service.fetch("/healthz")).toMatchObject({ status: 200, body: { status: "ok" } });
  });

  it("GIVEN an unknown route THEN 404 with the error body", async () => {
    const response = await service.fetch("/restapi/v1/nothing-here");
    expect(response).toMatchObject({ status: 404, body: { errorCategory: "NOT_FOUND" } });
    expect(typeof (response.body as { error: unknown }).error).toBe("string");
  });

  it("GIVEN a known path with the wrong method THEN 405 naming the allowed methods", async () => {
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/batch-quote`, { method: "GET", authorization: alice.authorization });
    expect(response).toMatchObject({ status: 405, body: { errorCategory: "METHOD_NOT_ALLOWED" } });
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("authentication and isolation", () => {
  it("GIVEN no credentials THEN 401 with a JSON error body", async () => {
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/services`);
    expect(response).toMatchObject({ status: 401, body: { errorCategory: "UNAUTHORIZED" } });
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic/);
  });

  it("GIVEN a wrong password THEN 401", async () => {
    const client = service.clientFor({ customerId: alice.customerId, email: alice.email, password: "wrong" });
    expect(failed(await client.listServices()).kind).toBe("unauthorized");
  });

  it("GIVEN a malformed Authorization header THEN 401, not 500", async () => {
    for (const authorization of ["Basic !!!", "Basic " + Buffer.from("no-colon").toString("base64"), "Bearer x"]) {
      expect((await service.fetch(`/restapi/v1/customers/${alice.customerId}/services`, { authorization })).status).toBe(401);
    }
  });

  it("GIVEN Alice's credentials on Bob's path THEN 403", async () => {
    const client = service.clientFor({ customerId: bob.customerId, email: alice.email, password: alice.password });
    expect(failed(await client.listBatches()).kind).toBe("forbidden");
  });

  it("GIVEN no or a wrong partner key THEN Create Customer is 401", async () => {
    expect((await service.fetch("/restapi/v1/customers", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(buildCreateCustomer()) })).status).toBe(401);
    const response = await service.fetch("/restapi/v1/customers", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(buildCreateCustomer()), authorization: "Bearer not-the-key" });
    expect(response).toMatchObject({ status: 401, body: { errorCategory: "UNAUTHORIZED" } });
  });

  it("GIVEN Alice's batch, quotes and shipments THEN Bob can see or touch none of them", async () => {
    const { batchId, quoteIds: ids } = await openBatch(alice, 2);
    expect(failed(await bob.client.getBatch({ batchId })).kind).toBe("forbidden");
    expect(failed(await bob.client.cancelBatch({ batchId })).kind).toBe("forbidden");
    expect(failed(await bob.client.deleteBatch({ batchId })).kind).toBe("forbidden");
    expect(failed(await bob.client.getBatchLabels({ batchId })).kind).toBe("forbidden");
    expect(failed(await bob.client.batchBook({ body: { batchId } })).kind).toBe("forbidden");
    // Add to / Remove from Batch list only 404 for the batch: another customer's batch is not found.
    expect(failed(await bob.client.addToBatch({ batchId, body: { quoteIds: ids } })).kind).toBe("not_found");
    const bobsBatch = ok(await bob.client.createBatch({ body: { name: "bob" } }));
    const stolen = failed(await bob.client.addToBatch({ batchId: bobsBatch.batchId, body: { quoteIds: [ids[0]!] } }));
    expect(stolen.kind).toBe("forbidden");
    expect(failed(await bob.client.createBatch({ body: { name: "bob2", quoteIds: [ids[1]!] } })).kind).toBe("forbidden");
    expect(failed(await bob.client.removeFromBatch({ batchId: bobsBatch.batchId, quoteId: ids[0]! })).kind).toBe("not_found");

    const booked = ok(await alice.client.bookShipment({ body: domesticBooking() }));
    expect(ok(await bob.client.searchShipments({ body: { keyword: booked.trackingNumber } })).shipments).toEqual([]);
    expect(failed(await bob.client.trackShipment({ bookNumber: booked.bookNumber })).kind).toBe("not_found");
    const aliceAccounts = ok(await alice.client.listProviderAccounts()).providerAccounts.map((account) => account.id);
    const bobAccounts = ok(await bob.client.listProviderAccounts()).providerAccounts.map((account) => account.id);
    expect(aliceAccounts.some((id) => bobAccounts.includes(id))).toBe(false);
    // Bob cannot quote through Alice's provider account.
    const quoted = ok(await bob.client.batchQuote({ body: { shipments: [shipment({ serviceCode: undefined, providerAccountId: aliceAccounts[0]! })] } }));
    expect(quoted.results[0]).toMatchObject({ status: "error", errorCategory: "INVALID_REQUEST" });
  });
});

describe("Create Customer", () => {
  it("GIVEN a valid request THEN 201 with a customerId that can log in, a prepay balance of rechargeAmount, and masked provider accounts", async () => {
    const customer = await service.createCustomer({ prepaySettings: { minimumBalance: "25.00", rechargeAmount: "300.00" } });
    const row = service.db.statement(`SELECT balanceCents FROM Customer WHERE id = ?`).get(customer.customerId) as { balanceCents: number };
    expect(row.balanceCents).toBe(30_000);
    const accounts = ok(await customer.client.listProviderAccounts()).providerAccounts;
    expect(accounts.map((account) => account.providerCode).sort()).toEqual(["brownline", "globeparcel", "meridian", "nps"]);
    const box = createSecretBox(SECRETS_KEY);
    const sealedRows = service.db.statement(`SELECT id, sealedFields FROM ProviderAccount WHERE customerId = ?`).all(customer.customerId) as { id: string; sealedFields: string }[];
    for (const account of accounts) {
      const sealed = sealedRows.find((entry) => entry.id === account.id)!;
      const secrets = box.open<Record<string, string>>(sealed.sealedFields);
      expect(Object.keys(account.accountFields).sort()).toEqual(Object.keys(secrets).sort());
      for (const [field, value] of Object.entries(secrets)) {
        // Encrypted at rest, masked on the wire: the plain value appears in neither.
        expect(sealed.sealedFields).not.toContain(value);
        expect(account.accountFields[field]).not.toBe(value);
        expect(account.accountFields[field]).toMatch(/^\*+[0-9a-f]{0,4}$/);
      }
    }
  });

  it("GIVEN an email that is taken (any case) THEN 409 and nothing is created", async () => {
    const before = (service.db.statement(`SELECT COUNT(*) AS n FROM Customer`).get() as { n: number }).n;
    const error = failed(await service.partner.createCustomer({ body: buildCreateCustomer({ email: alice.email.toUpperCase(), password: "x" }) }));
    expect(error).toMatchObject({ kind: "conflict", status: 409, category: "CONFLICT" });
    expect((service.db.statement(`SELECT COUNT(*) AS n FROM Customer`).get() as { n: number }).n).toBe(before);
  });

  it.each([
    ["an unknown industry", { industry: "mining" }, /industry/],
    ["a franchiseId that is not three characters", { franchiseId: "ABCD" }, /franchiseId/],
    ["an incomplete mailing address", { mailingAddress: { name: "X", company: "", address1: "", address2: "", city: "Y", state: "CA", zip: "94105", country: "US", phone: "4155550100" } }, /mailingAddress\.address1/],
    ["a zero recharge amount", { prepaySettings: { minimumBalance: "10", rechargeAmount: "0" } }, /rechargeAmount/],
    ["an absurd minimum balance", { prepaySettings: { minimumBalance: 1e300, rechargeAmount: "10" } }, /minimumBalance/],
    ["an invalid email", { email: "not-an-email" }, /email/],
  ])("GIVEN %s THEN 400 naming the field", async (_case, overrides, field) => {
    const body = { ...buildCreateCustomer({ email: `fresh-${Math.random()}@consign.test` }), ...overrides };
    const response = await service.fetch("/restapi/v1/customers", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), authorization: `Bearer ${PARTNER_KEY}` });
    expect(response).toMatchObject({ status: 400, body: { errorCategory: "INVALID_REQUEST" } });
    expect((response.body as { error: string }).error).toMatch(field);
  });
});

describe("List Services", () => {
  it("lists four carriers of every kind, inbound and international services, and every package dimType", async () => {
    const { services } = ok(await alice.client.listServices());
    expect(new Set(services.map((entry) => entry.carrierCode))).toEqual(new Set(["NPS", "BLP", "MRX", "GPC"]));
    expect(services.length).toBeGreaterThanOrEqual(12);
    expect(services.some((entry) => entry.inbound)).toBe(true);
    expect(services.some((entry) => entry.unsupportedCountries?.includes("US"))).toBe(true);
    const packageTypes = services.flatMap((entry) => entry.packageTypes);
    expect(new Set(packageTypes.map((type) => type.dimType))).toEqual(new Set(["preset", "envelope", "custom"]));
    for (const type of packageTypes.filter((entry) => entry.dimType === "preset")) {
      expect(type.dimUnit).not.toBeNull();
      expect(Number(type.presetLength)).toBeGreaterThan(0);
    }
    for (const entry of services) expect((entry.supportedCountries === null) !== (entry.unsupportedCountries === null)).toBe(true);
    expect(services.some((entry) => entry.signatureOptions.length > 0)).toBe(true);
    expect(services.some((entry) => entry.supportedDangerousGoodsCodes)).toBe(true);
  });

  it("GIVEN Saturday delivery WHEN a service says it takes it THEN Book Shipment accepts it there and refuses it where the service says not", async () => {
    const { services } = ok(await alice.client.listServices());
    const saturday = services.filter((entry) => entry.saturdayDelivery === true).map((entry) => entry.serviceCode);
    expect(saturday.sort()).toEqual(["BLP_NEXT_DAY_AIR", "MRX_INTERNATIONAL_PRIORITY", "MRX_PRIORITY_OVERNIGHT"]);
    expect(services.every((entry) => typeof entry.saturdayDelivery === "boolean")).toBe(true);
    const booked = ok(await alice.client.bookShipment({ body: domesticBooking({ serviceCode: "BLP_NEXT_DAY_AIR", saturdayDelivery: true }) }));
    const [record] = ok(await alice.client.searchShipments({ body: { keyword: booked.bookNumber } })).shipments;
    expect(record!.serviceCode).toBe("BLP_NEXT_DAY_AIR");
    expect(failed(await alice.client.bookShipment({ body: domesticBooking({ serviceCode: "BLP_GROUND", saturdayDelivery: true }) }))).toMatchObject({ status: 400, message: expect.stringMatching(/Saturday/) });
  });
});

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
        body: { shipments: [shipment(), shipment({ serviceCode: "NOT_A_SERVICE" }), shipment({ serviceCode: "NPS_PRIORITY", pieces: [buildPiece({ weight: "95" })] }), shipment()] },
      }),
    );
    expect(results.map((result) => [result.shipmentIndex, result.status])).toEqual([[0, "success"], [1, "error"], [2, "error"], [3, "success"]]);
    expect(results[1]).toMatchObject({ errorCategory: "INVALID_REQUEST" });
    expect(results[2]).toMatchObject({ errorCategory: "WEIGHT_LIMIT_EXCEEDED" });
  });

  it("GIVEN some services cannot take the piece THEN they are quoteErrors of a successful shipment", async () => {
    const { results } = ok(await alice.client.batchQuote({ body: { shipments: [shipment({ serviceCode: undefined, pieces: [buildPiece({ weight: "80", length: "20", width: "20", height: "20" })] })] } }));
    const [result] = results;
    if (result?.status !== "success") throw new Error("expected success");
    expect(result.quoteErrors.find((failure) => failure.serviceCode === "NPS_PRIORITY")).toMatchObject({ errorCategory: "WEIGHT_LIMIT_EXCEEDED", carrierCode: "NPS" });
    expect(result.quotes.some((quote) => quote.serviceCode === "BLP_GROUND")).toBe(true);
  });

  it("GIVEN invoice item weights above the package weight (rule 3) THEN status error INVALID_REQUEST", async () => {
    const international = shipment({
      serviceCode: undefined,
      receiver: buildUkReceiver(),
      pieces: [buildPiece({ weight: "2.5", declaredValue: "52.00" })],
      commercialInvoice: buildCommercialInvoice({ items: [{ description: "Candle", quantity: 2, unitValue: "24.50", weight: "2", htsNumber: "", countryOfOrigin: "US" }, { description: "Candle", quantity: 1, unitValue: "5", weight: "0.6", htsNumber: "", countryOfOrigin: "US" }] }),
    });
    const { results } = ok(await alice.client.batchQuote({ body: { shipments: [international, { ...international, commercialInvoice: buildCommercialInvoice() }] } }));
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
    const row = service.db.statement(`SELECT r.shipment FROM Quote q JOIN QuoteRequest r ON r.id = q.requestId WHERE q.id = ?`).get(results[0].quotes[0]!.quoteId) as { shipment: string };
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

describe("batches: create, list, get", () => {
  it("GIVEN quotes THEN Create Batch is 201 open with the quote count and zero counters", async () => {
    const ids = await quoteIds(alice, 3);
    const batch = ok(await alice.client.createBatch({ body: { name: "Monday", quoteIds: ids } }));
    expect(batch).toMatchObject({ name: "Monday", status: "open", quoteCount: 3, bookedCount: 0, errorCount: 0, processedAt: null });
    const detail = ok(await alice.client.getBatch({ batchId: batch.batchId }));
    expect(detail.quotes.map((quote) => quote.quoteId)).toEqual(ids);
    for (const quote of detail.quotes) {
      expect(quote).toMatchObject({ status: "active", bookNumber: null, trackingNumber: null, bookingError: null, createdAt: "2026-11-23 15:00:00", expiresAt: "2026-12-23 15:00:00" });
    }
  });

  it("GIVEN a 255-character name THEN accepted; 256 or blank THEN 400", async () => {
    expect(ok(await alice.client.createBatch({ body: { name: "n".repeat(255) } })).name).toHaveLength(255);
    for (const name of ["n".repeat(256), "", "   "]) {
      const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/batch`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }), authorization: alice.authorization });
      expect(response).toMatchObject({ status: 400, body: { errorCategory: "INVALID_REQUEST" } });
      expect((response.body as { error: string }).error).toMatch(/name/);
    }
  });

  it("GIVEN 501 quote ids THEN Create Batch is 400", async () => {
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/batch`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "big", quoteIds: Array.from({ length: 501 }, (_, index) => index + 1) }), authorization: alice.authorization });
    expect(response).toMatchObject({ status: 400 });
    expect((response.body as { error: string }).error).toMatch(/quoteIds/);
  });

  it("pages List Batches: default page 1 / limit 25, total of all the customer's batches, newest first", async () => {
    const customer = await service.createCustomer();
    for (let index = 0; index < 27; index++) ok(await customer.client.createBatch({ body: { name: `b${index}` } }));
    const first = ok(await customer.client.listBatches());
    expect(first).toMatchObject({ total: 27, page: 1, limit: 25 });
    expect(first.batches).toHaveLength(25);
    expect(first.batches[0]!.name).toBe("b26");
    const second = ok(await customer.client.listBatches({ query: { page: 2, limit: 25 } }));
    expect(second.batches.map((batch) => batch.name)).toEqual(["b1", "b0"]);
    expect(ok(await customer.client.listBatches({ query: { page: 1, limit: 100 } })).batches).toHaveLength(27);
  });

  it.each(["limit=0", "limit=101", "page=0", "limit=abc", "page=-1"])("GIVEN ?%s THEN 400", async (query) => {
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/batch?${query}`, { authorization: alice.authorization });
    expect(response).toMatchObject({ status: 400, body: { errorCategory: "INVALID_REQUEST" } });
  });

  it.each(["abc", "0", "-3", "1.5", "99999999999999999999999"])("GIVEN batch id %s in the path THEN 400", async (id) => {
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/batch/${id}`, { authorization: alice.authorization });
    expect(response).toMatchObject({ status: 400, body: { errorCategory: "INVALID_REQUEST" } });
    expect((response.body as { error: string }).error).toMatch(/batchId/);
  });

  it("GIVEN an unknown batch THEN Get Batch is 404", async () => {
    expect(failed(await alice.client.getBatch({ batchId: 999_999 })).kind).toBe("not_found");
  });
});

describe("Add to Batch", () => {
  it("GIVEN valid quotes THEN 200 open with the new count", async () => {
    const { batchId } = await openBatch(alice, 1);
    const more = await quoteIds(alice, 2);
    expect(ok(await alice.client.addToBatch({ batchId, body: { quoteIds: more } }))).toMatchObject({ status: "open", quoteCount: 3, processedAt: null });
  });

  it("GIVEN a cancelled batch THEN 400", async () => {
    const { batchId } = await openBatch(alice, 1);
    ok(await alice.client.cancelBatch({ batchId }));
    const error = failed(await alice.client.addToBatch({ batchId, body: { quoteIds: await quoteIds(alice, 1) } }));
    expect(error).toMatchObject({ kind: "invalid_request", status: 400 });
  });

  it("GIVEN quote ids that do not exist THEN 400 and nothing changes", async () => {
    const { batchId } = await openBatch(alice, 1);
    const [fresh] = await quoteIds(alice, 1);
    expect(failed(await alice.client.addToBatch({ batchId, body: { quoteIds: [fresh!, 987_654_321] } }))).toMatchObject({ status: 400 });
    expect(ok(await alice.client.getBatch({ batchId })).quoteCount).toBe(1);
  });

  it("GIVEN a booked quote THEN 400 (not active)", async () => {
    const { batchId, quoteIds: ids } = await openBatch(alice, 1);
    ok(await alice.client.batchBook({ body: { batchId } }));
    const other = ok(await alice.client.createBatch({ body: { name: "other" } }));
    expect(failed(await alice.client.addToBatch({ batchId: other.batchId, body: { quoteIds: ids } }))).toMatchObject({ status: 400, message: expect.stringMatching(/not active/) });
  });

  it("GIVEN an expired quote THEN 400 (not active)", async () => {
    const ids = await quoteIds(alice, 1);
    const batch = ok(await alice.client.createBatch({ body: { name: "late" } }));
    service.clock.advance(31 * DAY_MS);
    expect(failed(await alice.client.addToBatch({ batchId: batch.batchId, body: { quoteIds: ids } }))).toMatchObject({ status: 400, message: expect.stringMatching(/not active/) });
  });

  it("GIVEN a quote in another batch THEN 400", async () => {
    const first = await openBatch(alice, 1);
    const second = ok(await alice.client.createBatch({ body: { name: "second" } }));
    expect(failed(await alice.client.addToBatch({ batchId: second.batchId, body: { quoteIds: first.quoteIds } }))).toMatchObject({ status: 400, message: expect.stringMatching(/different batch/) });
  });

  it("GIVEN a batch of 500 THEN adding one more is 400; an empty list is 400", async () => {
    const { batchId } = await openBatch(alice, 500, "full");
    expect(failed(await alice.client.addToBatch({ batchId, body: { quoteIds: await quoteIds(alice, 1) } }))).toMatchObject({ status: 400, message: expect.stringMatching(/maximum batch size of 500/) });
    const empty = await service.fetch(`/restapi/v1/customers/${alice.customerId}/batch/${batchId}/quotes`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ quoteIds: [] }), authorization: alice.authorization });
    expect(empty).toMatchObject({ status: 400 });
  });

  it("GIVEN an unknown batch THEN 404", async () => {
    expect(failed(await alice.client.addToBatch({ batchId: 999_999, body: { quoteIds: [1] } })).kind).toBe("not_found");
  });
});

describe("Remove from Batch", () => {
  it("GIVEN a quote in an open batch THEN ok; the quote stays active and can join another batch", async () => {
    const { batchId, quoteIds: ids } = await openBatch(alice, 2);
    expect(ok(await alice.client.removeFromBatch({ batchId, quoteId: ids[0]! }))).toEqual({ ok: true });
    expect(ok(await alice.client.getBatch({ batchId })).quoteCount).toBe(1);
    const other = ok(await alice.client.createBatch({ body: { name: "again", quoteIds: [ids[0]!] } }));
    expect(ok(await alice.client.getBatch({ batchId: other.batchId })).quotes[0]).toMatchObject({ quoteId: ids[0], status: "active" });
  });

  it("GIVEN a batch that is not open THEN 422", async () => {
    const { batchId, quoteIds: ids } = await openBatch(alice, 1);
    ok(await alice.client.cancelBatch({ batchId }));
    expect(failed(await alice.client.removeFromBatch({ batchId, quoteId: ids[0]! }))).toMatchObject({ kind: "unprocessable", status: 422 });
  });

  it("GIVEN a quote that is not in this batch THEN 422", async () => {
    const { batchId } = await openBatch(alice, 1);
    const [loose] = await quoteIds(alice, 1);
    expect(failed(await alice.client.removeFromBatch({ batchId, quoteId: loose! }))).toMatchObject({ kind: "unprocessable" });
  });

  it("GIVEN an unknown batch or quote THEN 404", async () => {
    const { batchId } = await openBatch(alice, 1);
    expect(failed(await alice.client.removeFromBatch({ batchId: 999_999, quoteId: 1 })).kind).toBe("not_found");
    expect(failed(await alice.client.removeFromBatch({ batchId, quoteId: 987_654_321 })).kind).toBe("not_found");
  });
});

describe("Cancel and Delete Batch", () => {
  it("GIVEN an open batch THEN Cancel makes it cancelled with its quotes intact and counters at zero", async () => {
    const { batchId, quoteIds: ids } = await openBatch(alice, 2);
    expect(ok(await alice.client.cancelBatch({ batchId }))).toMatchObject({ status: "cancelled", quoteCount: 2, bookedCount: 0, errorCount: 0, processedAt: null });
    expect(ok(await alice.client.getBatch({ batchId })).quotes.map((quote) => [quote.quoteId, quote.status])).toEqual(ids.map((id) => [id, "active"]));
  });

  it("GIVEN a batch that is not open THEN Cancel is 422; unknown THEN 404", async () => {
    const { batchId } = await openBatch(alice, 1);
    ok(await alice.client.cancelBatch({ batchId }));
    expect(failed(await alice.client.cancelBatch({ batchId }))).toMatchObject({ kind: "unprocessable", status: 422 });
    expect(failed(await alice.client.cancelBatch({ batchId: 999_999 })).kind).toBe("not_found");
  });

  it("GIVEN any state THEN Delete removes the batch; quotes are unassigned, booked ones keep their booking", async () => {
    const open = await openBatch(alice, 1);
    expect(ok(await alice.client.deleteBatch({ batchId: open.batchId }))).toEqual({ ok: true });
    expect(failed(await alice.client.getBatch({ batchId: open.batchId })).kind).toBe("not_found");
    ok(await alice.client.createBatch({ body: { name: "reuse", quoteIds: open.quoteIds } }));

    const booked = await openBatch(alice, 1);
    const result = ok(await alice.client.batchBook({ body: { batchId: booked.batchId } }));
    ok(await alice.client.deleteBatch({ batchId: booked.batchId }));
    const row = service.db.statement(`SELECT status, batchId, bookNumber FROM Quote WHERE id = ?`).get(booked.quoteIds[0]) as { status: string; batchId: number | null; bookNumber: string };
    expect(row).toEqual({ status: "booked", batchId: null, bookNumber: result.results[0]!.status === "success" ? result.results[0]!.bookNumber : "" });
    expect(failed(await alice.client.deleteBatch({ batchId: booked.batchId })).kind).toBe("not_found");
  });
});

describe("Batch Book", () => {
  it("GIVEN an open batch THEN every quote is booked, one PDF page per label, completed with counts and processedAt", async () => {
    const { batchId, quoteIds: ids } = await openBatch(alice, 3);
    const response = ok(await alice.client.batchBook({ body: { batchId } }));
    expect(response.results.map((result) => [result.quoteId, result.status])).toEqual(ids.map((id) => [id, "success"]));
    for (const result of response.results) {
      if (result.status !== "success") continue;
      expect(result.trackingNumber).toMatch(/^1Z[0-9A-Z]{16}$/);
      expect(result.zone).toBe("8");
    }
    expect(await pdfPages(response.labelsPdf)).toBe(3);
    expect(Number(response.prepayBalance)).toBeGreaterThan(0);
    const detail = ok(await alice.client.getBatch({ batchId }));
    expect(detail).toMatchObject({ status: "completed", bookedCount: 3, errorCount: 0, processedAt: "2026-11-23 15:00:00" });
    expect(detail.quotes.every((quote) => quote.status === "booked" && quote.bookNumber && quote.trackingNumber)).toBe(true);
  });

  it("GIVEN an expired quote beside a fresh one THEN the expired one fails clearly and stays unbooked; the batch completes", async () => {
    const [old] = await quoteIds(alice, 1);
    service.clock.advance(31 * DAY_MS);
    const [fresh] = await quoteIds(alice, 1);
    service.clock.set(START);
    const batch = ok(await alice.client.createBatch({ body: { name: "mixed", quoteIds: [old!, fresh!] } }));
    service.clock.advance(31 * DAY_MS);
    const response = ok(await alice.client.batchBook({ body: { batchId: batch.batchId } }));
    expect(response.results[0]).toMatchObject({ quoteId: old, status: "error", errorCategory: "QUOTE_EXPIRED", error: expect.stringMatching(/expired/) });
    expect(response.results[1]).toMatchObject({ quoteId: fresh, status: "success" });
    const detail = ok(await alice.client.getBatch({ batchId: batch.batchId }));
    expect(detail).toMatchObject({ status: "completed", bookedCount: 1, errorCount: 1 });
    expect(detail.quotes[0]).toMatchObject({ status: "expired", bookNumber: null, bookingError: expect.stringMatching(/expired/) });
  });

  it("GIVEN every quote fails THEN failed, processedAt set, no prepayBalance, empty labelsPdf", async () => {
    const { batchId } = await openBatch(alice, 2);
    service.clock.advance(30 * DAY_MS);
    const response = ok(await alice.client.batchBook({ body: { batchId } }));
    expect(response.results.every((result) => result.status === "error")).toBe(true);
    expect(response.labelsPdf).toBe("");
    expect(response.prepayBalance).toBeUndefined();
    expect(ok(await alice.client.getBatch({ batchId }))).toMatchObject({ status: "failed", bookedCount: 0, errorCount: 2, processedAt: "2026-12-23 15:00:00" });
  });

  it("GIVEN a cost above the balance THEN that quote fails with INSUFFICIENT_FUNDS and stays active with its bookingError", async () => {
    const poor = await service.createCustomer({ prepaySettings: { minimumBalance: "0", rechargeAmount: "1.00" } });
    const { batchId } = await openBatch(poor, 1);
    const response = ok(await poor.client.batchBook({ body: { batchId } }));
    expect(response.results[0]).toMatchObject({ status: "error", errorCategory: "INSUFFICIENT_FUNDS" });
    expect(ok(await poor.client.getBatch({ batchId })).quotes[0]).toMatchObject({ status: "active", bookingError: expect.stringMatching(/prepay balance/) });
    expect(service.db.statement(`SELECT COUNT(*) AS n FROM Shipment WHERE customerId = ?`).get(poor.customerId)).toEqual({ n: 0 });
  });

  it("GIVEN a batch that is not open, an empty batch or an unknown one THEN 422, 422, 404", async () => {
    const { batchId } = await openBatch(alice, 1);
    ok(await alice.client.batchBook({ body: { batchId } }));
    expect(failed(await alice.client.batchBook({ body: { batchId } }))).toMatchObject({ kind: "unprocessable", status: 422 });
    const cancelled = await openBatch(alice, 1);
    ok(await alice.client.cancelBatch({ batchId: cancelled.batchId }));
    expect(failed(await alice.client.batchBook({ body: { batchId: cancelled.batchId } })).kind).toBe("unprocessable");
    const empty = ok(await alice.client.createBatch({ body: { name: "empty" } }));
    expect(failed(await alice.client.batchBook({ body: { batchId: empty.batchId } }))).toMatchObject({ kind: "unprocessable", message: expect.stringMatching(/no quotes/) });
    expect(failed(await alice.client.batchBook({ body: { batchId: 999_999 } })).kind).toBe("not_found");
  });

  it("GIVEN two concurrent Batch Book calls THEN the batch is booked once", async () => {
    const { batchId } = await openBatch(alice, 5);
    const before = (service.db.statement(`SELECT COUNT(*) AS n FROM Shipment`).get() as { n: number }).n;
    const [first, second] = await Promise.all([alice.client.batchBook({ body: { batchId } }), alice.client.batchBook({ body: { batchId } })]);
    expect([first.ok, second.ok].filter(Boolean)).toHaveLength(1);
    const loser = first.ok ? second : first;
    expect(failed(loser).kind).toBe("unprocessable");
    expect((service.db.statement(`SELECT COUNT(*) AS n FROM Shipment`).get() as { n: number }).n).toBe(before + 5);
  });

  it("GIVEN 500 quotes THEN all are booked and the combined PDF has 500 pages under 20 KiB per label", async () => {
    const { batchId } = await openBatch(alice, 500, "five hundred");
    const response = ok(await alice.client.batchBook({ body: { batchId } }));
    expect(response.results.filter((result) => result.status === "success")).toHaveLength(500);
    const pdf = Buffer.from(response.labelsPdf, "base64");
    expect(pdf.length / 500).toBeLessThan(20 * 1024);
    expect(await pdfPages(response.labelsPdf)).toBe(500);
    const numbers = response.results.map((result) => (result.status === "success" ? result.trackingNumber : ""));
    expect(new Set(numbers).size).toBe(500);
  });

  it("charges the ledger per shipment and keeps the balance equal to its entries", async () => {
    const customer = await service.createCustomer({ prepaySettings: { minimumBalance: "100.00", rechargeAmount: "120.00" } });
    const { batchId } = await openBatch(customer, 4);
    const response = ok(await customer.client.batchBook({ body: { batchId } }));
    const entries = service.db.statement(`SELECT kind, amountCents, balanceAfterCents FROM LedgerEntry WHERE customerId = ? ORDER BY id`).all(customer.customerId) as { kind: string; amountCents: number; balanceAfterCents: number }[];
    expect(entries.filter((entry) => entry.kind === "charge")).toHaveLength(4);
    // Recharged whenever the balance fell below the 100.00 minimum.
    expect(entries.filter((entry) => entry.kind === "recharge").length).toBeGreaterThan(1);
    const total = entries.reduce((sum, entry) => sum + entry.amountCents, 0);
    expect(entries.at(-1)!.balanceAfterCents).toBe(total);
    expect(Math.round(Number(response.prepayBalance) * 100)).toBe(total);
  });
});

describe("View Batch Labels", () => {
  it("GIVEN a booked batch THEN its labels, one page per booked shipment, later too", async () => {
    const { batchId } = await openBatch(alice, 2);
    const booked = ok(await alice.client.batchBook({ body: { batchId } }));
    service.clock.advance(10 * DAY_MS);
    const { labelsPdf } = ok(await alice.client.getBatchLabels({ batchId }));
    expect(await pdfPages(labelsPdf)).toBe(2);
    // Redrawn from the kept label data: the same bytes as at booking.
    expect(labelsPdf).toBe(booked.labelsPdf);
  });

  it("GIVEN a batch without booked shipments THEN 422; an unknown one 404", async () => {
    const { batchId } = await openBatch(alice, 1);
    expect(failed(await alice.client.getBatchLabels({ batchId }))).toMatchObject({ kind: "unprocessable", status: 422 });
    expect(failed(await alice.client.getBatchLabels({ batchId: 999_999 })).kind).toBe("not_found");
  });

  it("GIVEN a label that cannot be drawn THEN it is skipped and the others still come back", async () => {
    const { batchId } = await openBatch(alice, 2);
    const booked = ok(await alice.client.batchBook({ body: { batchId } }));
    const first = booked.results[0]!;
    if (first.status !== "success") throw new Error("expected a booking");
    // Damage one shipment's kept label data: a tracking number Code 128 cannot carry.
    const { label } = service.db.statement(`SELECT label FROM Shipment WHERE bookNumber = ?`).get(first.bookNumber) as { label: string };
    service.db.statement(`UPDATE Shipment SET label = ? WHERE bookNumber = ?`).run(JSON.stringify({ ...JSON.parse(label), trackingNumber: "é" }), first.bookNumber);
    expect(await pdfPages(ok(await alice.client.getBatchLabels({ batchId })).labelsPdf)).toBe(1);
  });

  it("GIVEN labels older than the retention THEN none can be generated: 422", async () => {
    const { batchId } = await openBatch(alice, 1);
    ok(await alice.client.batchBook({ body: { batchId } }));
    service.clock.advance(91 * DAY_MS);
    expect(failed(await alice.client.getBatchLabels({ batchId }))).toMatchObject({ kind: "unprocessable", message: expect.stringMatching(/purged/) });
  });
});

describe("Book Shipment", () => {
  it("GIVEN a domestic parcel THEN 201 with a 1Z number, the zone and the new balance, and a PDF label", async () => {
    const balance = (service.db.statement(`SELECT balanceCents FROM Customer WHERE id = ?`).get(alice.customerId) as { balanceCents: number }).balanceCents;
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/shipments`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(domesticBooking()), authorization: alice.authorization });
    expect(response.status).toBe(201);
    const body = response.body as { bookNumber: string; trackingNumber: string; prepayBalance: string; zone: string; labelImageFormat: string; labelImage: string };
    expect(body.trackingNumber).toMatch(/^1Z/);
    expect(body.zone).toBe("8");
    expect(Math.round(Number(body.prepayBalance) * 100)).toBeLessThan(balance);
    expect(body.labelImageFormat).toBe("PDF");
    expect(await pdfPages(body.labelImage)).toBe(1);
    expect(ok(await alice.client.bookShipment({ body: domesticBooking() })).bookNumber).not.toBe(body.bookNumber);
  });

  it.each([
    ["MRX", "MRX_2DAY", "MRX_PACKAGE", "ZPL", (text: string) => text.startsWith("^XA") && text.includes("^BC")],
    ["BLP", "BLP_GROUND", "BLP_PACKAGE", "EPL2", (text: string) => /\nB\d+,\d+,0,1,/.test(text)],
    ["NPS", "NPS_PRIORITY", "NPS_PACKAGE", "ZPL", (text: string) => text.includes("^FD>:94001")],
  ] as const)("GIVEN %s with %s THEN a %s label with the barcode command (%s)", async (carrierCode, serviceCode, packageTypeCode, labelImageFormat, check) => {
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/shipments`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(domesticBooking({ carrierCode, serviceCode, packageTypeCode, labelImageFormat })), authorization: alice.authorization });
    expect(response.status).toBe(201);
    const body = response.body as { labelImageFormat: string; labelImage: string; bookNumber: string };
    expect(body.labelImageFormat).toBe(labelImageFormat);
    expect(check(Buffer.from(body.labelImage, "base64").toString("latin1"))).toBe(true);
    // The label stays retrievable in the same format.
    const again = await service.fetch(`/restapi/v1/customers/${alice.customerId}/shipments/${body.bookNumber}/label`, { authorization: alice.authorization });
    expect(again).toMatchObject({ status: 200, body: { labelImageFormat, labelImage: body.labelImage } });
  });

  it("GIVEN the typed client WHEN it books THEN the response carries the label, and Get Shipment Label returns it again for this customer only", async () => {
    const booked = ok(await alice.client.bookShipment({ body: domesticBooking({ labelImageFormat: "PDF" }) }));
    expect(booked.labelImageFormat).toBe("PDF");
    expect(await pdfPages(booked.labelImage!)).toBe(1);
    const label = ok(await alice.client.getShipmentLabel({ bookNumber: booked.bookNumber }));
    expect(label).toEqual({ labelImageFormat: "PDF", labelImage: booked.labelImage });
    expect(failed(await bob.client.getShipmentLabel({ bookNumber: booked.bookNumber }))).toMatchObject({ kind: "not_found", status: 404 });
    expect(failed(await alice.client.getShipmentLabel({ bookNumber: "CN0000000000" }))).toMatchObject({ kind: "not_found", status: 404 });
  });

  it("GIVEN a label kept past the retention WHEN Get Shipment Label is asked THEN 422 says it was purged", async () => {
    const booked = ok(await alice.client.bookShipment({ body: domesticBooking() }));
    service.clock.advance(91 * DAY_MS);
    expect(failed(await alice.client.getShipmentLabel({ bookNumber: booked.bookNumber }))).toMatchObject({ kind: "unprocessable", status: 422, message: expect.stringMatching(/purged/) });
  });

  it("GIVEN PNG THEN the e-commerce carrier returns a PNG and others refuse with 400", async () => {
    const png = await service.fetch(`/restapi/v1/customers/${alice.customerId}/shipments`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(domesticBooking({ carrierCode: "GPC", serviceCode: "GPC_ECOM_GROUND", packageTypeCode: "GPC_PARCEL", labelImageFormat: "PNG", dangerousGoodsCode: "ORMD", postalEndorsement: "RETURN SERVICE REQUESTED" })), authorization: alice.authorization });
    expect(png.status).toBe(201);
    expect(Buffer.from((png.body as { labelImage: string }).labelImage, "base64").subarray(1, 4).toString("ascii")).toBe("PNG");
    expect(failed(await alice.client.bookShipment({ body: domesticBooking({ labelImageFormat: "PNG" }) }))).toMatchObject({ status: 400, message: expect.stringMatching(/PNG is not available/) });
  });

  it("GIVEN a cost above the balance THEN 402 INSUFFICIENT_FUNDS and nothing is booked, unless approvePrepayRecharge", async () => {
    const poor = await service.createCustomer({ prepaySettings: { minimumBalance: "0", rechargeAmount: "5.00" } });
    const refused = failed(await poor.client.bookShipment({ body: domesticBooking() }));
    expect(refused).toMatchObject({ kind: "insufficient_funds", status: 402 });
    expect(service.db.statement(`SELECT COUNT(*) AS n FROM Shipment WHERE customerId = ?`).get(poor.customerId)).toEqual({ n: 0 });
    const booked = ok(await poor.client.bookShipment({ body: domesticBooking({ approvePrepayRecharge: true }) }));
    expect(Number(booked.prepayBalance)).toBeGreaterThanOrEqual(0);
    const { total } = service.db.statement(`SELECT SUM(amountCents) AS total FROM LedgerEntry WHERE customerId = ?`).get(poor.customerId) as { total: number };
    expect(Math.round(Number(booked.prepayBalance) * 100)).toBe(total);
  });

  it("GIVEN a multi-piece postal shipment THEN one tracking number and cost per piece", async () => {
    const pieces = [1, 2, 3].map((weight) => ({ weight: String(weight), length: "10", width: "8", height: "4", insuranceAmount: null, declaredValue: null }));
    const booked = ok(await alice.client.bookShipment({ body: domesticBooking({ carrierCode: "NPS", serviceCode: "NPS_GROUND_ADVANTAGE", packageTypeCode: "NPS_PACKAGE", pieces }) }));
    expect(booked.pieces).toHaveLength(3);
    expect(booked.pieces![0]!.trackingNumber).toBe(booked.trackingNumber);
    for (const piece of booked.pieces!) expect(piece.trackingNumber).toMatch(/^94001\d{17}$/);
    const [found] = ok(await alice.client.searchShipments({ body: { keyword: booked.bookNumber } })).shipments;
    expect(found!.trackingNumbers).toEqual(booked.pieces!.map((piece) => piece.trackingNumber));
    const sum = booked.pieces!.reduce((total, piece) => total + Math.round(Number(piece.shippingCost) * 100), 0);
    expect(sum).toBe(Math.round(Number(found!.totalShippingCost) * 100));
  });

  it("GIVEN an international express shipment with a commercial invoice THEN booked with a 12-digit number", async () => {
    const booked = ok(
      await alice.client.bookShipment({
        body: domesticBooking({ carrierCode: "MRX", serviceCode: "MRX_INTERNATIONAL_PRIORITY", packageTypeCode: "MRX_PACKAGE", receiver: buildUkReceiver(), customsCurrency: "GBP", pieces: [{ weight: "2.5", length: "12", width: "9", height: "4", insuranceAmount: "150.00", declaredValue: "52" }], commercialInvoice: buildCommercialInvoice(), saturdayDelivery: true }),
      }),
    );
    expect(booked.trackingNumber).toMatch(/^\d{12}$/);
    expect(booked.zone).toBe("B");
  });

  it.each([
    ["an unknown service", { serviceCode: "NOPE" }, "INVALID_REQUEST"],
    ["a piece over the maximum weight", { carrierCode: "NPS", serviceCode: "NPS_PRIORITY", packageTypeCode: "NPS_PACKAGE", pieces: [{ weight: "90", length: "10", width: "8", height: "4", insuranceAmount: null, declaredValue: null }] }, "WEIGHT_LIMIT_EXCEEDED"],
    ["dangerous goods on a carrier that takes none", { dangerousGoodsCode: "ORMD" }, "INVALID_REQUEST"],
    ["Saturday delivery on a ground service", { saturdayDelivery: true }, "INVALID_REQUEST"],
    ["a scan-based return label outside the postal return service", { scanBasedReturnLabel: true }, "INVALID_REQUEST"],
    ["a sender without a phone", { sender: { ...buildQuoteShipment().sender, phone: "" } }, "INVALID_REQUEST"],
    ["another provider's account", { providerAccountId: "PA-DOES-NOT-EXIST" }, "INVALID_REQUEST"],
  ] as const)("GIVEN %s THEN 400 %s and nothing is charged", async (_case, overrides, category) => {
    const before = (service.db.statement(`SELECT COUNT(*) AS n FROM LedgerEntry`).get() as { n: number }).n;
    expect(failed(await alice.client.bookShipment({ body: domesticBooking(overrides as Partial<BookIn>) }))).toMatchObject({ kind: "invalid_request", status: 400, category });
    expect((service.db.statement(`SELECT COUNT(*) AS n FROM LedgerEntry`).get() as { n: number }).n).toBe(before);
  });
});

describe("Search Shipments", () => {
  it("finds by name, company, phone, email, tracking number, book number, order number and reference, case-insensitively", async () => {
    const customer = await service.createCustomer();
    const booked = ok(await customer.client.bookShipment({ body: domesticBooking({ receiver: buildDomesticReceiver({ name: "Quentin Zephyr", company: "Zephyr Looms", email: "quentin@zephyr.test", phone: "6465550123" }), orderNumber: "ORD-7781", shipmentReference: "REF-ALPHA" }) }));
    for (const keyword of ["quentin", "ZEPHYR LOOMS", "6465550123", "quentin@zephyr.test", booked.trackingNumber.toLowerCase(), booked.bookNumber, "ord-7781", "ref-alpha"]) {
      const { shipments } = ok(await customer.client.searchShipments({ body: { keyword } }));
      expect(shipments.map((entry) => entry.bookNumber)).toEqual([booked.bookNumber]);
    }
    const [found] = ok(await customer.client.searchShipments({ body: { keyword: "quentin" } })).shipments;
    expect(found).toMatchObject({ carrierCode: "BLP", serviceCode: "BLP_GROUND", voided: false, shipmentReference: "REF-ALPHA", orderIds: ["ORD-7781"], weightUnit: "lb", residential: false });
    expect(ok(await customer.client.searchShipments({ body: { keyword: "nobody-by-this-name" } })).shipments).toEqual([]);
  });

  it("returns the newest first and at most 100", async () => {
    const customer = await service.createCustomer({ prepaySettings: { minimumBalance: "100", rechargeAmount: "5000" } });
    const { batchId } = await openBatch(customer, 101);
    const booked = ok(await customer.client.batchBook({ body: { batchId } }));
    const { shipments } = ok(await customer.client.searchShipments({ body: { keyword: "jordan blake" } }));
    expect(shipments).toHaveLength(100);
    const last = booked.results.at(-1)!;
    expect(shipments[0]!.bookNumber).toBe(last.status === "success" ? last.bookNumber : "");
  });

  it("GIVEN a blank keyword THEN 400", async () => {
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/searchShipments`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ keyword: "  " }), authorization: alice.authorization });
    expect(response).toMatchObject({ status: 400, body: { errorCategory: "INVALID_REQUEST" } });
  });
});

describe("Track Shipment", () => {
  it("reveals events as the service clock advances, most recent first, ending Delivered", async () => {
    const booked = ok(await alice.client.bookShipment({ body: domesticBooking() }));
    expect(ok(await alice.client.trackShipment({ bookNumber: booked.bookNumber }))).toEqual([]);
    service.clock.advance(30 * 60_000);
    expect(ok(await alice.client.trackShipment({ bookNumber: booked.bookNumber })).map((event) => event.eventStatus)).toEqual(["Info Received"]);
    service.clock.advance(2 * DAY_MS);
    const midway = ok(await alice.client.trackShipment({ bookNumber: booked.bookNumber }));
    expect(midway[0]!.eventStatus).toBe("In Transit");
    service.clock.advance(20 * DAY_MS);
    const done = ok(await alice.client.trackShipment({ bookNumber: booked.bookNumber }));
    expect(done[0]).toMatchObject({ eventStatus: "Delivered", trackingNumber: booked.trackingNumber, carrier: "BLP", serviceAreaCountry: "US" });
    expect(done.at(-1)!.eventStatus).toBe("Info Received");
    expect(done.map((event) => event.eventTime)).toEqual([...done.map((event) => event.eventTime)].sort().reverse());
    expect(done.every((event) => event.ancillaryReasonDescription === null)).toBe(true);
  });

  it("GIVEN an unknown book number THEN 404", async () => {
    expect(failed(await alice.client.trackShipment({ bookNumber: "CN0000000000" })).kind).toBe("not_found");
  });
});

describe("bad input", () => {
  const post = (path: string, body: string, contentType = "application/json") =>
    service.fetch(`/restapi/v1/customers/${alice.customerId}${path}`, { method: "POST", headers: { "content-type": contentType }, body, authorization: alice.authorization });

  it("GIVEN malformed JSON THEN 400", async () => {
    expect(await post("/batch-quote", '{"shipments": [')).toMatchObject({ status: 400, body: { errorCategory: "INVALID_REQUEST", error: expect.stringMatching(/not valid JSON/) } });
  });

  // A shipment that breaks the contract is its own error entry (rule 1): service-hostile-input.test.ts.
  it("GIVEN shipments of the wrong type THEN 400 naming the field", async () => {
    const response = await post("/batch-quote", JSON.stringify({ shipments: "many" }));
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toMatch(/shipments/);
  });

  it("GIVEN absurd numbers (a 10^11 in side, a 10^300 insured value) THEN the shipment is refused, never a 500", async () => {
    const { status, body } = await post(
      "/batch-quote",
      JSON.stringify({ shipments: [buildQuoteShipment({ pieces: [buildPiece({ length: "99999999999" })] }), buildQuoteShipment({ pieces: [buildPiece({ insuranceAmount: 1e300 })] })] }),
    );
    expect(status).toBe(200);
    expect((body as { results: { status: string; errorCategory: string }[] }).results.map((result) => [result.status, result.errorCategory])).toEqual([["error", "INVALID_REQUEST"], ["error", "INVALID_REQUEST"]]);
  });

  it("GIVEN a body over the limit THEN 413", async () => {
    const response = await post("/batch-quote", JSON.stringify({ shipments: [], padding: "x".repeat(11 * 1024 * 1024) }));
    expect(response).toMatchObject({ status: 413, body: { errorCategory: "PAYLOAD_TOO_LARGE" } });
  });

  it("GIVEN a non-JSON content type THEN 415 with the error body", async () => {
    expect(await post("/batch-quote", "shipments=1", "application/x-www-form-urlencoded")).toMatchObject({ status: 415, body: { errorCategory: "INVALID_REQUEST" } });
  });

  it("GIVEN a missing body where one is required THEN 400", async () => {
    expect((await service.fetch(`/restapi/v1/customers/${alice.customerId}/batch-book`, { method: "POST", authorization: alice.authorization })).status).toBe(400);
  });
});
