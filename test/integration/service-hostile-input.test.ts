import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { type BatchQuoteShipment, type BookShipmentRequest, ErrorBody, MAX_TEXT_LENGTH } from "../../shipping-api/contract";
import {
  buildCommercialInvoice,
  buildCreateCustomer,
  buildDomesticBooking,
  buildDomesticReceiver,
  buildPiece,
  buildQuoteShipment,
  buildUkReceiver,
} from "../factories/shipping-api";
import { DEFAULT_BODY_LIMIT_BYTES, MAX_PATH_PARAM_LENGTH } from "../../service/http/app";
import { createKeepAliveClient, rawExchange } from "../support/http-probe";
import { PARTNER_KEY, type RunningService, type TestCustomer, failed, ok, startService } from "../support/service-harness";

/**
 * What the service does with input no honest client sends: every refusal in the service's own
 * `{error, errorCategory}` body with a status a client can act on, a connection closed only after an answer
 * that says so, and no negative money or quantity accepted anywhere (docs/decisions/009).
 */

type ShipmentIn = z.input<typeof BatchQuoteShipment>;
type BookIn = z.input<typeof BookShipmentRequest>;

let service: RunningService;
let alice: TestCustomer;

beforeAll(async () => {
  service = await startService();
  alice = await service.createCustomer({ prepaySettings: { minimumBalance: "500.00", rechargeAmount: "5000.00" } });
});
afterAll(async () => {
  await service?.close();
});

const customerPath = (path: string) => `/restapi/v1/customers/${alice.customerId}${path}`;

function expectServiceError(body: unknown, category = "INVALID_REQUEST"): string {
  const parsed = ErrorBody.strict().parse(body);
  expect(parsed.errorCategory).toBe(category);
  return parsed.error;
}

function balanceCents(): number {
  return (service.db.statement(`SELECT balanceCents FROM Customer WHERE id = ?`).get(alice.customerId) as { balanceCents: number }).balanceCents;
}

const postJson = (path: string, body: unknown) =>
  service.fetch(customerPath(path), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    authorization: alice.authorization,
  });

describe("refusals made before any route runs are in the service's own body", () => {
  it.each(["/restapi/v1/customers/%ZZ/batch", "/restapi/v1/customers/C1/batch/%E2%82", "/restapi/v1/customers/%/services"])(
    "GIVEN the path %s with broken percent-encoding THEN 400 INVALID_REQUEST",
    async (path) => {
      const response = await service.fetch(path, { authorization: alice.authorization });
      expect(response.status).toBe(400);
      expect(expectServiceError(response.body)).toMatch(/percent-encoding/);
    },
  );

  it("GIVEN a path parameter longer than the contract's text limit THEN 400 naming it; longer than the router's THEN 414", async () => {
    const long = await service.fetch(`/restapi/v1/customers/${"C".repeat(MAX_TEXT_LENGTH + 1)}/services`, { authorization: alice.authorization });
    // Authentication runs first: these credentials are not that customer's.
    expect(long.status).toBe(403);
    expectServiceError(long.body, "FORBIDDEN");
    const tooLongBook = await service.fetch(customerPath(`/shipments/${"9".repeat(MAX_TEXT_LENGTH + 1)}/tracking-information`), {
      authorization: alice.authorization,
    });
    expect(tooLongBook.status).toBe(400);
    expect(expectServiceError(tooLongBook.body)).toMatch(/bookNumber/);
    const tooLong = await service.fetch(customerPath(`/batch/${"1".repeat(MAX_PATH_PARAM_LENGTH + 1)}`), { authorization: alice.authorization });
    expect(tooLong.status).toBe(414);
    expectServiceError(tooLong.body);
  });

  it("GIVEN request headers over the limit THEN 431 in the service's body with Connection: close, and the socket closes without a reset", async () => {
    const exchange = await rawExchange(service.baseUrl, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${"a".repeat(64 * 1024)}\r\n\r\n`);
    expect(exchange.response?.status).toBe(431);
    expect(exchange.response?.headers.connection).toBe("close");
    expectServiceError(exchange.response?.json);
    expect(exchange.ending).toBe("closed");
  });

  it("GIVEN a HEAD request whose headers are over the limit THEN 431 with the headers alone, as an answer to HEAD must be (a client reads nothing after it)", async () => {
    const answer = await new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
      const { hostname, port } = new URL(service.baseUrl);
      const sent = request(
        { host: hostname, port, method: "HEAD", path: "/healthz", headers: { "x-padding": "a".repeat(64 * 1024) }, agent: false },
        (response) => {
          response.resume();
          response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
        },
      );
      sent.on("error", reject);
      sent.end();
    });
    expect(answer.status).toBe(431);
    expect(answer.headers.connection).toBe("close");
  });

  it("GIVEN a request line the HTTP parser refuses THEN 400 in the service's body with Connection: close", async () => {
    const exchange = await rawExchange(service.baseUrl, "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
    expect(exchange.response?.status).toBe(400);
    expect(exchange.response?.headers.connection).toBe("close");
    expectServiceError(exchange.response?.json);
    expect(exchange.ending).toBe("closed");
  });

  it("GIVEN a body over the limit THEN 413 PAYLOAD_TOO_LARGE with Connection: close, answered before the socket closes", async () => {
    const body = JSON.stringify({ shipments: [], padding: "x".repeat(DEFAULT_BODY_LIMIT_BYTES) });
    const head = `POST ${customerPath("/batch-quote")} HTTP/1.1\r\nHost: x\r\nAuthorization: ${alice.authorization}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const exchange = await rawExchange(service.baseUrl, head + body);
    expect(exchange.response?.status).toBe(413);
    expect(exchange.response?.headers.connection).toBe("close");
    expectServiceError(exchange.response?.json, "PAYLOAD_TOO_LARGE");
    expect(exchange.ending).toBe("closed");
  });

  it("GIVEN one keep-alive connection WHEN an oversized body, oversized headers and bad JSON go first THEN the next valid request on it still succeeds", async () => {
    const client = createKeepAliveClient(service.baseUrl);
    try {
      const headers = { authorization: alice.authorization, "content-type": "application/json" };
      const tooLarge = await client.request({ method: "POST", path: customerPath("/batch-quote"), headers, body: "x".repeat(DEFAULT_BODY_LIMIT_BYTES + 1) });
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.headers.connection).toBe("close");
      const hugeHeaders = await client.request({ method: "GET", path: customerPath("/services"), headers: { ...headers, "x-padding": "a".repeat(64 * 1024) } });
      expect(hugeHeaders.status).toBe(431);
      const badJson = await client.request({ method: "POST", path: customerPath("/batch-quote"), headers, body: '{"shipments": [' });
      expect(badJson.status).toBe(400);
      // A refusal after the whole request was read keeps the connection open.
      expect(badJson.headers.connection).not.toBe("close");
      const services = await client.request({ method: "GET", path: customerPath("/services"), headers });
      expect(services.status).toBe(200);
    } finally {
      client.close();
    }
  });
});

describe("no negative or zero amounts where the world has none", () => {
  it.each([
    ["a negative insured value", { insuranceAmount: "-0.0001" }, "pieces[0].insuranceAmount"],
    ["a negative insured value as a number", { insuranceAmount: -0.0001 }, "pieces[0].insuranceAmount"],
    ["a zero weight", { weight: "0" }, "pieces[0].weight"],
    ["a negative length", { length: "-3" }, "pieces[0].length"],
    ["a zero line item quantity", { lineItems: [{ sku: "A", productName: "A", quantity: 0 }] }, "pieces[0].lineItems[0].quantity"],
  ] as const)("GIVEN %s in a Batch Quote THEN that shipment is status error naming the field, the other is quoted", async (_case, piece, field) => {
    const response = await postJson("/batch-quote", {
      shipments: [buildQuoteShipment({ pieces: [buildPiece(piece as Partial<ShipmentIn["pieces"][number]>)] }), buildQuoteShipment()],
    });
    expect(response.status).toBe(200);
    const { results } = response.body as { results: { status: string; error?: string; errorCategory?: string }[] };
    expect(results[0]).toMatchObject({ status: "error", errorCategory: "INVALID_REQUEST" });
    expect(results[0]!.error).toContain(field);
    expect(results[1]!.status).toBe("success");
  });

  it("GIVEN a negative declared value or unit value on an international shipment THEN status error naming the field", async () => {
    const international = (pieceValue: string, unitValue: string): ShipmentIn =>
      buildQuoteShipment({
        receiver: buildUkReceiver(),
        pieces: [buildPiece({ declaredValue: pieceValue })],
        commercialInvoice: buildCommercialInvoice({ items: [{ description: "Candle", quantity: 1, unitValue, htsNumber: "", countryOfOrigin: "US" }] }),
      });
    const response = await postJson("/batch-quote", { shipments: [international("-0.0001", "5"), international("5", "-1"), international("5", "5")] });
    const { results } = response.body as { results: { status: string; error?: string }[] };
    expect(results.map((result) => result.status)).toEqual(["error", "error", "success"]);
    expect(results[0]!.error).toContain("pieces[0].declaredValue");
    expect(results[1]!.error).toContain("commercialInvoice.items[0].unitValue");
  });

  it.each<[string, Partial<BookIn>, string]>([
    [
      "a negative insured value",
      { pieces: [{ weight: "2.5", length: "12", width: "9", height: "4", insuranceAmount: "-0.0001", declaredValue: null }] },
      "pieces[0].insuranceAmount",
    ],
    [
      "a negative declared value",
      {
        receiver: buildUkReceiver(),
        serviceCode: "BLP_WORLDWIDE_EXPEDITED",
        commercialInvoice: buildCommercialInvoice(),
        pieces: [{ weight: "2.5", length: "12", width: "9", height: "4", insuranceAmount: null, declaredValue: "-0.0001" }],
      },
      "pieces[0].declaredValue",
    ],
  ])("GIVEN %s THEN Book Shipment is 400 naming the field and no label is bought", async (_case, overrides, field) => {
    const before = balanceCents();
    const error = failed(await alice.client.bookShipment({ body: buildDomesticBooking(overrides) }));
    expect(error.kind).toBe("invalid_request");
    // The client refuses before sending; the service refuses the same on its own.
    const response = await postJson("/shipments", buildDomesticBooking(overrides));
    expect(response.status).toBe(400);
    expect(expectServiceError(response.body)).toContain(field);
    expect(balanceCents()).toBe(before);
    expect(service.db.statement(`SELECT COUNT(*) AS count FROM Shipment WHERE customerId = ?`).get(alice.customerId)).toEqual({ count: 0 });
  });

  it.each([
    ["minimumBalance", { minimumBalance: "-0.0001", rechargeAmount: "100.00" }],
    ["minimumBalance", { minimumBalance: -0.0001, rechargeAmount: "100.00" }],
    ["rechargeAmount", { minimumBalance: "10.00", rechargeAmount: "0" }],
    ["rechargeAmount", { minimumBalance: "10.00", rechargeAmount: "-5" }],
  ])("GIVEN prepaySettings.%s out of range THEN Create Customer is 400 naming it and creates nothing", async (field, prepaySettings) => {
    const email = `negative-${field}-${Date.now()}-${Math.random()}@consign.test`;
    const response = await service.fetch("/restapi/v1/customers", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(buildCreateCustomer({ email, prepaySettings })),
      authorization: `Bearer ${PARTNER_KEY}`,
    });
    expect(response.status).toBe(400);
    expect(expectServiceError(response.body)).toContain(`prepaySettings.${field}`);
    expect(service.db.statement(`SELECT COUNT(*) AS count FROM Customer WHERE email = ?`).get(email)).toEqual({ count: 0 });
  });
});

describe("what one request can cost is bounded", () => {
  it("GIVEN 500 real international shipments with invoices and line items THEN the body is under the limit and all are quoted", async () => {
    const lineItems = Array.from({ length: 10 }, (_, index) => ({
      sku: `CNDL-${index}-LAV-8OZ`,
      productName: `Soy wax candle no. ${index}, lavender, 8 oz`,
      quantity: 1 + (index % 3),
    }));
    const items = Array.from({ length: 10 }, (_, index) => ({
      description: `Soy wax candle no. ${index}, lavender`,
      quantity: 1,
      unitValue: "4.50",
      weight: "0.2",
      htsNumber: "3406.00.0000",
      countryOfOrigin: "US",
    }));
    const heavy = buildQuoteShipment({
      receiver: buildUkReceiver(),
      pieces: [buildPiece({ declaredValue: "45.00", lineItems })],
      commercialInvoice: buildCommercialInvoice({ items }),
    });
    const body = { shipments: Array.from({ length: 500 }, (_, index) => ({ ...heavy, shipmentReference: `#${10_000 + index}` })) };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(DEFAULT_BODY_LIMIT_BYTES / 2);
    const response = await postJson("/batch-quote", body);
    expect(response.status).toBe(200);
    expect((response.body as { results: { status: string }[] }).results.every((result) => result.status === "success")).toBe(true);
  });

  it("GIVEN text over the contract's lengths THEN that shipment is status error naming the field (Book Shipment: 400)", async () => {
    const long = "é".repeat(MAX_TEXT_LENGTH + 1);
    const response = await postJson("/batch-quote", {
      shipments: [buildQuoteShipment({ receiver: buildDomesticReceiver({ name: long }) }), buildQuoteShipment({ shipmentReference: long })],
    });
    const { results } = response.body as { results: { status: string; error?: string }[] };
    expect(results.map((result) => result.status)).toEqual(["error", "error"]);
    expect(results[0]!.error).toContain("receiver.name");
    expect(results[1]!.error).toContain("shipmentReference");
    const booking = await postJson("/shipments", buildDomesticBooking({ orderNumber: long }));
    expect(booking.status).toBe(400);
    expect(expectServiceError(booking.body)).toContain("orderNumber");
  });
});

describe("bodies no field could take are refused before they are parsed", () => {
  it.each([
    [
      "a string of 1.5 million characters",
      () => JSON.stringify({ shipments: [buildQuoteShipment({ shipmentReference: "é".repeat(1_500_000) })] }),
      /longer than .* \(in "shipmentReference"\)/,
    ],
    ["arrays nested 200,000 deep", () => `{"shipments":[${"[".repeat(200_000)}${"]".repeat(200_000)}]}`, /deeper than 32 levels \(in "shipments"\)/],
  ])("GIVEN %s THEN 400 INVALID_REQUEST naming the field near it, and the connection stays open", async (_case, body, message) => {
    const client = createKeepAliveClient(service.baseUrl);
    try {
      const headers = { authorization: alice.authorization, "content-type": "application/json" };
      const refused = await client.request({ method: "POST", path: customerPath("/batch-quote"), headers, body: body() });
      expect(refused.status).toBe(400);
      expect(expectServiceError(refused.json)).toMatch(message);
      expect(refused.headers.connection).not.toBe("close");
      expect((await client.request({ method: "GET", path: customerPath("/services"), headers })).status).toBe(200);
    } finally {
      client.close();
    }
  });
});

describe("Batch Quote rule 1 covers validation: each bad shipment is its own error entry", () => {
  const valid = buildQuoteShipment();
  it.each([
    ["a missing receiver", { ...valid, receiver: undefined }, "receiver"],
    ["a declared value on a domestic shipment", { ...valid, pieces: [buildPiece({ declaredValue: "10.00" })] }, "pieces[0].declaredValue"],
    ["an unknown weight unit", { ...valid, weightUnit: "stone" }, "weightUnit"],
    ["a weight that is a number", { ...valid, pieces: [{ weight: 2 }] }, "pieces[0].weight"],
    ["no pieces", { ...valid, pieces: [] }, "pieces"],
    ["a receiver state that is not a code", { ...valid, receiver: buildDomesticReceiver({ state: "New York" }) }, "receiver.state"],
    ["a date that does not exist", { ...valid, shipmentDate: "2026-02-30" }, "shipmentDate"],
    ["a shipment that is not an object", "not a shipment", "(root)"],
    ["a null shipment", null, "(root)"],
    [
      "an export filing number that must be null",
      { ...valid, receiver: buildUkReceiver(), commercialInvoice: { ...buildCommercialInvoice(), aesNumber: "X20261123123456" } },
      "commercialInvoice.aesNumber",
    ],
  ])("GIVEN %s THEN HTTP 200, that shipment is INVALID_REQUEST naming the field, the others quoted", async (_case, bad, field) => {
    const response = await postJson("/batch-quote", { shipments: [valid, bad, valid] });
    expect(response.status).toBe(200);
    const { results } = response.body as { results: { shipmentIndex: number; status: string; error?: string; errorCategory?: string }[] };
    expect(results.map((result) => [result.shipmentIndex, result.status])).toEqual([
      [0, "success"],
      [1, "error"],
      [2, "success"],
    ]);
    expect(results[1]).toMatchObject({ errorCategory: "INVALID_REQUEST" });
    expect(results[1]!.error).toContain(field);
  });

  it("GIVEN `__proto__` and `constructor` keys in a shipment THEN they are ignored, nothing is polluted, the shipment is quoted", async () => {
    const text = JSON.stringify({ shipments: [valid] }).replace(
      '{"shipmentDate"',
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"shipmentDate"',
    );
    const response = await service.fetch(customerPath("/batch-quote"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: text,
      authorization: alice.authorization,
    });
    expect(response.status).toBe(200);
    expect((response.body as { results: { status: string }[] }).results[0]!.status).toBe("success");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ["a body that is an array", []],
    ["shipments that is not an array", { shipments: "many" }],
    ["no shipments", { shipments: [] }],
    ["501 shipments", { shipments: Array.from({ length: 501 }, () => valid) }],
    ["no shipments key", { shipment: [valid] }],
  ])("GIVEN %s THEN the whole request is 400 naming shipments", async (_case, body) => {
    const response = await postJson("/batch-quote", body);
    expect(response.status).toBe(400);
    expect(expectServiceError(response.body)).toMatch(/shipments|\(root\)/);
  });

  it("GIVEN a shipment that failed validation THEN nothing of it is saved", async () => {
    const count = () =>
      (service.db.statement(`SELECT COUNT(*) AS count FROM QuoteRequest WHERE customerId = ?`).get(alice.customerId) as { count: number }).count;
    const before = count();
    const { results } = ok(await alice.client.batchQuote({ body: { shipments: [valid] } }));
    expect(results[0]!.status).toBe("success");
    await postJson("/batch-quote", { shipments: [{ ...valid, receiver: undefined }] });
    expect(count()).toBe(before + 1);
  });
});
