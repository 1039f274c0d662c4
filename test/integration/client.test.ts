import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  createShippingClient,
  describeError,
  NOT_SENT,
  type ShippingApiError,
  type ShippingClient,
  type ShippingClientOptions,
} from "../../shipping-api/client";
import { formatIssuePath, type BatchQuoteShipment } from "../../shipping-api/contract";
import {
  buildBatch,
  buildBatchQuoteEntry,
  buildBookedShipment,
  buildBookShipment,
  buildCreateCustomer,
  buildDomesticReceiver,
  buildQuote,
  buildQuoteShipment,
  buildService,
} from "../factories/shipping-api";

// The client over real HTTP: a node:http server on an ephemeral port answers per scenario.

interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

type Handler = (request: SeenRequest, response: ServerResponse) => void | Promise<void>;

let server: Server;
let baseUrl: string;
let handle: Handler;
let seen: SeenRequest[];
let sleeps: number[];

function reply(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(text);
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const entry: SeenRequest = {
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: text === "" ? undefined : JSON.parse(text),
      };
      seen.push(entry);
      void handle(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  sleeps = [];
  handle = (_request, response) => reply(response, 500, { error: "no handler for this test", errorCategory: "INTERNAL_ERROR" });
});

const customer = { kind: "customer", customerId: "cus_42", email: "owner@northwind-candles.test", password: "s3cret:pw" } as const;

function makeClient(overrides: Partial<ShippingClientOptions> = {}): ShippingClient {
  return createShippingClient({
    baseUrl,
    credentials: customer,
    timeoutMs: 2_000,
    retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 5_000 },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  });
}

/** Answers each request with the next scripted handler; the last one repeats. */
function script(...handlers: Handler[]): void {
  let index = 0;
  handle = (request, response) => handlers[Math.min(index++, handlers.length - 1)]!(request, response);
}

const status =
  (code: number, body: unknown = { error: `status ${code}`, errorCategory: "X" }, headers?: Record<string, string>): Handler =>
  (_request, response) =>
    reply(response, code, body, headers);
const destroySocket: Handler = (_request, response) => {
  response.socket?.destroy();
};
const okBatchDetail: Handler = status(200, { ...buildBatch(), quotes: [buildBatchQuoteEntry()] });
const okServices: Handler = status(200, { services: [buildService()] });

function expectError(result: { ok: boolean; error?: ShippingApiError }): ShippingApiError {
  expect(result.ok).toBe(false);
  return result.error!;
}

describe("GIVEN a customer client WHEN calls succeed", () => {
  it("THEN the request carries Basic auth, the customer id in the path and a JSON accept header", async () => {
    handle = okBatchDetail;
    const result = await makeClient().getBatch({ batchId: 17 });
    expect(result.ok && result.value.quotes[0]?.quoteId).toBe(9001);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: "GET", url: "/restapi/v1/customers/cus_42/batch/17" });
    const encoded = seen[0]!.headers.authorization!.replace(/^Basic /, "");
    expect(Buffer.from(encoded, "base64").toString("utf8")).toBe("owner@northwind-candles.test:s3cret:pw");
    expect(seen[0]!.headers.accept).toBe("application/json");
  });

  it("THEN list batches sends the parsed query with its defaults", async () => {
    handle = status(200, { batches: [buildBatch()], total: 31, page: 2, limit: 25 });
    const result = await makeClient().listBatches({ query: { page: 2 } });
    expect(result.ok && result.value.total).toBe(31);
    expect(seen[0]!.url).toBe("/restapi/v1/customers/cus_42/batch?page=2&limit=25");
  });

  it("THEN a booking is sent with canonical decimal strings and its 201 body is returned", async () => {
    handle = status(201, { bookNumber: "BK-2", trackingNumber: "1Z2", prepayBalance: "170.50", zone: "5" });
    const result = await makeClient().bookShipment({ body: buildBookShipment() });
    expect(result).toEqual({ ok: true, value: { bookNumber: "BK-2", trackingNumber: "1Z2", prepayBalance: "170.50", zone: "5" } });
    expect(seen[0]).toMatchObject({ method: "POST", url: "/restapi/v1/customers/cus_42/shipments" });
    expect(seen[0]!.headers["content-type"]).toBe("application/json");
    expect(seen[0]!.body).toMatchObject({ pieces: [{ declaredValue: "52", insuranceAmount: "150.00" }] });
  });

  it("THEN a partner client creates a customer with a Bearer key", async () => {
    handle = status(201, { customerId: "cus_new" });
    const partner = makeClient({ credentials: { kind: "partner", key: "pk_live_1" } });
    const result = await partner.createCustomer({ body: buildCreateCustomer() });
    expect(result).toEqual({ ok: true, value: { customerId: "cus_new" } });
    expect(seen[0]).toMatchObject({ method: "POST", url: "/restapi/v1/customers" });
    expect(seen[0]!.headers.authorization).toBe("Bearer pk_live_1");
  });

  it("THEN a search result using shipperReference is exposed as shipmentReference", async () => {
    handle = status(200, { shipments: [buildBookedShipment({ shipperReference: "#1042" })] });
    const result = await makeClient().searchShipments({ body: { keyword: "Blake" } });
    expect(result.ok && result.value.shipments[0]).toMatchObject({ shipmentReference: "#1042", bookNumber: "BK-000123" });
    expect(result.ok && result.value.shipments[0]).not.toHaveProperty("shipperReference");
    expect(seen[0]).toMatchObject({ method: "POST", url: "/restapi/v1/customers/cus_42/searchShipments", body: { keyword: "Blake" } });
  });
});

describe("GIVEN a request that breaks the contract WHEN it is called THEN it is refused locally with status 0", () => {
  it.each<[string, (client: ShippingClient) => Promise<{ ok: boolean; error?: ShippingApiError }>, string]>([
    [
      "a body",
      (client) => client.batchQuote({ body: { shipments: [buildQuoteShipment({ receiver: buildDomesticReceiver({ state: "New York" }) })] } }),
      "shipments[0].receiver.state",
    ],
    ["a path parameter", (client) => client.getBatch({ batchId: 0 }), "batchId"],
    ["a query", (client) => client.listBatches({ query: { limit: 500 } }), "limit"],
    ["the credentials kind", (client) => client.createCustomer({ body: buildCreateCustomer() }), "(none)"],
  ])("WHEN %s is invalid THEN no request is made", async (_part, call, path) => {
    const error = expectError(await call(makeClient()));
    expect(error).toMatchObject({ kind: "invalid_request", status: NOT_SENT, category: "INVALID_REQUEST" });
    if (error.kind !== "invalid_request") return;
    expect((error.issues ?? []).map((issue) => formatIssuePath(issue.path))).toEqual(path === "(none)" ? [] : [path]);
    expect(describeError(error)).toMatch(/^Request refused before sending: /);
    expect(seen).toHaveLength(0);
  });
});

describe("GIVEN an error status WHEN a non-retried call gets it THEN it maps to one error kind", () => {
  const body = (error: string, errorCategory: string) => ({ error, errorCategory });
  it.each<[number, unknown, Record<string, unknown>]>([
    [400, body("Batch is not open", "INVALID_REQUEST"), { kind: "invalid_request", status: 400, message: "Batch is not open", category: "INVALID_REQUEST" }],
    [402, body("Prepay balance too low", "INSUFFICIENT_FUNDS"), { kind: "insufficient_funds", status: 402, message: "Prepay balance too low" }],
    [409, body("Email already registered", "CONFLICT"), { kind: "conflict", status: 409, category: "CONFLICT" }],
    [409, "", { kind: "conflict", status: 409, message: "HTTP 409", category: "CONFLICT" }],
    [413, body("Body too large", "PAYLOAD_TOO_LARGE"), { kind: "invalid_request", status: 413, category: "PAYLOAD_TOO_LARGE" }],
    [413, "<html>Payload Too Large</html>", { kind: "invalid_request", status: 413, message: "<html>Payload Too Large</html>", category: "PAYLOAD_TOO_LARGE" }],
    [401, body("Bad credentials", "UNAUTHORIZED"), { kind: "unauthorized", status: 401, message: "Bad credentials" }],
    [403, body("Batch belongs to another customer", "FORBIDDEN"), { kind: "forbidden", status: 403 }],
    [404, body("Batch not found", "NOT_FOUND"), { kind: "not_found", status: 404, message: "Batch not found" }],
    [422, body("Batch status is not open", "UNPROCESSABLE"), { kind: "unprocessable", status: 422, category: "UNPROCESSABLE" }],
    [422, "", { kind: "unprocessable", status: 422, message: "HTTP 422", category: "UNPROCESSABLE" }],
    [429, body("Slow down", "RATE_LIMITED"), { kind: "rate_limited", status: 429, retryAfterMs: null }],
    [500, body("Boom", "INTERNAL_ERROR"), { kind: "server_error", status: 500, message: "Boom" }],
    [503, body("Maintenance", "SERVICE_UNAVAILABLE"), { kind: "server_error", status: 503 }],
  ])("WHEN cancelBatch gets HTTP %i THEN the error is %j", async (code, responseBody, expected) => {
    handle = status(code, responseBody);
    const error = expectError(await makeClient().cancelBatch({ batchId: 17 }));
    expect(error).toMatchObject(expected);
    expect(describeError(error)).toContain(String(code));
    expect(seen).toHaveLength(1);
  });
});

describe("GIVEN a retry-safe call WHEN the service asks to wait", () => {
  it("THEN a Retry-After in seconds is honoured before the retry", async () => {
    script(status(429, { error: "Slow down", errorCategory: "RATE_LIMITED" }, { "retry-after": "2" }), okServices);
    const result = await makeClient().listServices();
    expect(result.ok).toBe(true);
    expect(sleeps).toEqual([2_000]);
    expect(seen).toHaveLength(2);
  });

  it("THEN a Retry-After HTTP date is turned into a delay", async () => {
    const retryAt = new Date(Date.now() + 4_000).toUTCString();
    script(status(503, { error: "Maintenance", errorCategory: "SERVICE_UNAVAILABLE" }, { "retry-after": retryAt }), okServices);
    const result = await makeClient().listServices();
    expect(result.ok).toBe(true);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(2_000);
    expect(sleeps[0]).toBeLessThanOrEqual(4_000);
  });

  it("THEN a Retry-After beyond maxDelayMs is returned to the caller instead of waited for", async () => {
    handle = status(429, { error: "Slow down", errorCategory: "RATE_LIMITED" }, { "retry-after": "60" });
    const error = expectError(await makeClient().listServices());
    expect(error).toEqual({ kind: "rate_limited", status: 429, message: "Slow down", retryAfterMs: 60_000 });
    expect(describeError(error)).toContain("retry in 60 s");
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe("GIVEN a retry-safe call WHEN the service fails transiently", () => {
  it.each<[string, (client: ShippingClient) => Promise<{ ok: boolean }>, Handler]>([
    ["getBatch", (client) => client.getBatch({ batchId: "17" }), okBatchDetail],
    [
      "batchQuote",
      (client) => client.batchQuote({ body: { shipments: [buildQuoteShipment()] } }),
      status(200, { results: [{ shipmentIndex: 0, status: "success", quotes: [buildQuote()], quoteErrors: [] }] }),
    ],
  ])("THEN %s is retried after a 503 and a dropped socket, with exponential backoff", async (_name, call, success) => {
    script(status(503), destroySocket, success);
    const result = await call(makeClient({ random: () => 1 }));
    expect(result.ok).toBe(true);
    expect(seen).toHaveLength(3);
    expect(sleeps).toEqual([100, 200]);
  });

  it("THEN the attempts are bounded and the last error is returned", async () => {
    handle = status(502, { error: "Bad gateway", errorCategory: "INTERNAL_ERROR" });
    const error = expectError(await makeClient({ random: () => 0 }).listProviderAccounts());
    expect(error).toMatchObject({ kind: "server_error", status: 502, message: "Bad gateway" });
    expect(seen).toHaveLength(3);
    expect(sleeps).toEqual([50, 100]);
  });

  it("THEN jitter keeps each delay between half and all of the exponential step, capped by maxDelayMs", async () => {
    handle = status(503);
    await makeClient({ retry: { attempts: 6, baseDelayMs: 100, maxDelayMs: 1_000 } }).listServices();
    const ceilings = [100, 200, 400, 800, 1_000];
    expect(sleeps).toHaveLength(5);
    sleeps.forEach((delay, index) => {
      expect(delay).toBeGreaterThanOrEqual(ceilings[index]! / 2);
      expect(delay).toBeLessThanOrEqual(ceilings[index]!);
    });
  });

  it("THEN a network failure that persists comes back as a network error", async () => {
    handle = destroySocket;
    const error = expectError(await makeClient().trackShipment({ bookNumber: "BK-1" }));
    expect(error.kind).toBe("network");
    expect(describeError(error)).toMatch(/^Could not reach the Shipping API: /);
    expect(seen).toHaveLength(3);
  });
});

describe("GIVEN a call that books, charges or changes state WHEN the service fails THEN it is never retried", () => {
  const faults = {
    "HTTP 500": status(500),
    "HTTP 503": status(503),
    "HTTP 504": status(504),
    "HTTP 429 with Retry-After": status(429, { error: "Slow", errorCategory: "RATE_LIMITED" }, { "retry-after": "1" }),
    "a dropped socket": destroySocket,
  } satisfies Record<string, Handler>;
  type Clients = { customer: ShippingClient; partner: ShippingClient };
  it.each<[string, keyof typeof faults, string, (clients: Clients) => Promise<{ ok: boolean; error?: ShippingApiError }>]>([
    ["batchBook", "HTTP 503", "server_error", ({ customer }) => customer.batchBook({ body: { batchId: 17 } })],
    ["batchBook", "a dropped socket", "network", ({ customer }) => customer.batchBook({ body: { batchId: 17 } })],
    ["bookShipment", "HTTP 503", "server_error", ({ customer }) => customer.bookShipment({ body: buildBookShipment() })],
    ["bookShipment", "a dropped socket", "network", ({ customer }) => customer.bookShipment({ body: buildBookShipment() })],
    ["bookShipment", "HTTP 429 with Retry-After", "rate_limited", ({ customer }) => customer.bookShipment({ body: buildBookShipment() })],
    ["createBatch", "HTTP 500", "server_error", ({ customer }) => customer.createBatch({ body: { name: "Monday" } })],
    ["addToBatch", "HTTP 503", "server_error", ({ customer }) => customer.addToBatch({ batchId: 17, body: { quoteIds: [1] } })],
    ["removeFromBatch", "a dropped socket", "network", ({ customer }) => customer.removeFromBatch({ batchId: 17, quoteId: 1 })],
    ["cancelBatch", "a dropped socket", "network", ({ customer }) => customer.cancelBatch({ batchId: 17 })],
    ["deleteBatch", "HTTP 504", "server_error", ({ customer }) => customer.deleteBatch({ batchId: 17 })],
    ["createCustomer", "HTTP 503", "server_error", ({ partner }) => partner.createCustomer({ body: buildCreateCustomer() })],
  ])("WHEN %s meets %s THEN the server saw exactly one request", async (_name, fault, kind, call) => {
    handle = faults[fault];
    const error = expectError(await call({ customer: makeClient(), partner: makeClient({ credentials: { kind: "partner", key: "pk" } }) }));
    expect(error.kind).toBe(kind);
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe("GIVEN a slow service WHEN the per-attempt timeout passes", () => {
  const slowly: Handler = async (_request, response) => {
    await wait(400);
    if (!response.destroyed) reply(response, 200, { services: [] });
  };
  const stalledBody: Handler = (_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.write('{"services": [');
  };

  it("THEN a GET times out on each attempt and reports a timeout", async () => {
    handle = slowly;
    const error = expectError(await makeClient({ timeoutMs: 80 }).listServices());
    expect(error).toEqual({ kind: "timeout", timeoutMs: 80 });
    expect(describeError(error)).toBe("Shipping API did not answer within 80 ms");
    expect(seen).toHaveLength(3);
  });

  it("THEN a body that stops half-way also times out, and a later fast answer succeeds", async () => {
    script(stalledBody, okServices);
    const result = await makeClient({ timeoutMs: 80 }).listServices();
    expect(result.ok).toBe(true);
    expect(seen).toHaveLength(2);
  });

  it("THEN a booking that times out is not retried", async () => {
    handle = slowly;
    const error = expectError(await makeClient({ timeoutMs: 80 }).bookShipment({ body: buildBookShipment() }));
    expect(error.kind).toBe("timeout");
    expect(seen).toHaveLength(1);
  });
});

describe("GIVEN a 2xx answer outside the contract WHEN it is parsed THEN it is a bad_response", () => {
  it.each<[string, unknown, string[]]>([
    ["an unknown batch status", { ...buildBatch({ status: "done" as "open" }), quotes: [] }, ["status"]],
    ["a quote with a numeric-less amount", { ...buildBatch(), quotes: [buildBatchQuoteEntry({ totalAmount: "free" })] }, ["quotes[0].totalAmount"]],
  ])("WHEN getBatch answers %s THEN the issues name the fields and nothing is retried", async (_name, body, paths) => {
    handle = status(200, body);
    const error = expectError(await makeClient().getBatch({ batchId: 17 }));
    expect(error.kind).toBe("bad_response");
    if (error.kind !== "bad_response") return;
    expect(error.issues.map((issue) => formatIssuePath(issue.path))).toEqual(paths);
    expect(describeError(error)).toMatch(/answered outside the contract \(HTTP 200\)/);
    expect(seen).toHaveLength(1);
  });
});

describe("GIVEN a 2xx answer whose body cannot be read as JSON (cut off on the way) WHEN it is parsed", () => {
  it("THEN it is unreadable and a read is retried, answering once the body arrives whole", async () => {
    const whole = { ...buildBatch(), quotes: [] };
    script(status(200, JSON.stringify(whole).slice(0, 40)), status(200, whole));
    const result = await makeClient().getBatch({ batchId: 17 });
    expect(result.ok).toBe(true);
    expect(seen).toHaveLength(2);
  });

  it("THEN a read that keeps getting cut off reports unreadable after its attempts, in words", async () => {
    handle = status(200, "<html>ok</html>");
    const error = expectError(await makeClient().getBatch({ batchId: 17 }));
    expect(error).toMatchObject({ kind: "unreadable", status: 200 });
    expect(describeError(error)).toMatch(/answer could not be read \(HTTP 200\): getBatch answered a body that is not JSON/);
    expect(seen).toHaveLength(3);
  });

  it("THEN a booking whose answer is cut off is not retried: its outcome is unknown", async () => {
    handle = status(200, '{"bookNumber": "B');
    const error = expectError(await makeClient().bookShipment({ body: buildBookShipment() }));
    expect(error.kind).toBe("unreadable");
    expect(seen).toHaveLength(1);
  });
});

describe("GIVEN 1,234 shipments WHEN they are quoted in chunks", () => {
  const TOTAL = 1_234;
  const shipments = (): z.input<typeof BatchQuoteShipment>[] =>
    Array.from({ length: TOTAL }, (_, index) => buildQuoteShipment({ shipmentReference: `S${index}` }));
  let inFlight = 0;
  let maxInFlight = 0;

  /** Answers one quote per shipment, quoteId = caller index + 1 (read from the reference), after a short delay. */
  const quoteService =
    (failChunkStartingAt?: string): Handler =>
    async (request, response) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await wait(30);
      inFlight--;
      const sent = (request.body as { shipments: { shipmentReference: string }[] }).shipments;
      if (sent[0]?.shipmentReference === failChunkStartingAt) {
        reply(response, 503, { error: "Carrier rating unavailable", errorCategory: "SERVICE_UNAVAILABLE" });
        return;
      }
      const results = sent.map((shipment, shipmentIndex) => ({
        shipmentIndex,
        status: "success",
        quotes: [buildQuote({ quoteId: Number(shipment.shipmentReference.slice(1)) + 1 })],
        quoteErrors: [],
      }));
      reply(response, 200, { results });
    };
  const chunkSizes = () => seen.map((request) => (request.body as { shipments: unknown[] }).shipments.length).sort((a, b) => b - a);
  const firstReferences = () => seen.map((request) => (request.body as { shipments: { shipmentReference: string }[] }).shipments[0]!.shipmentReference);

  beforeEach(() => {
    inFlight = 0;
    maxInFlight = 0;
  });

  it("THEN three requests of at most 500 are sent, two at a time, and results are re-based to the caller's indexes", async () => {
    handle = quoteService();
    const progress: [number, number][] = [];
    const outcomes = await makeClient().quoteShipments(shipments(), {
      concurrency: 2,
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(seen).toHaveLength(3);
    expect(chunkSizes()).toEqual([500, 500, 234]);
    expect(firstReferences().sort()).toEqual(["S0", "S1000", "S500"]);
    expect(maxInFlight).toBe(2);
    expect(outcomes).toHaveLength(TOTAL);
    outcomes.forEach((outcome, index) => {
      expect(outcome.shipmentIndex).toBe(index);
      expect(outcome.status === "success" && outcome.quotes[0]?.quoteId).toBe(index + 1);
    });
    expect(progress).toEqual([
      [500, TOTAL],
      [1_000, TOTAL],
      [TOTAL, TOTAL],
    ]);
  });

  it("THEN a middle chunk that keeps failing is reported per shipment and the other chunks survive", async () => {
    handle = quoteService("S500");
    const outcomes = await makeClient().quoteShipments(shipments(), { concurrency: 1 });
    expect(firstReferences()).toEqual(["S0", "S500", "S500", "S500", "S1000"]);
    expect(maxInFlight).toBe(1);
    expect(outcomes).toHaveLength(TOTAL);
    outcomes.forEach((outcome, index) => {
      expect(outcome.shipmentIndex).toBe(index);
      if (index >= 500 && index < 1_000) {
        expect(outcome).toMatchObject({ status: "failed", error: { kind: "server_error", status: 503, message: "Carrier rating unavailable" } });
      } else {
        expect(outcome.status === "success" && outcome.quotes[0]?.quoteId).toBe(index + 1);
      }
    });
  });

  it("THEN a shipment that breaks the contract fails alone and the rest are chunked around it", async () => {
    handle = quoteService();
    const input = shipments();
    input[7] = buildQuoteShipment({ shipmentReference: "S7", receiver: buildDomesticReceiver({ state: "New York" }) });
    const outcomes = await makeClient().quoteShipments(input);
    expect(chunkSizes()).toEqual([500, 500, 233]);
    expect(outcomes[7]).toMatchObject({ shipmentIndex: 7, status: "failed", error: { kind: "invalid_request", status: NOT_SENT } });
    const error = outcomes[7]?.status === "failed" ? outcomes[7].error : undefined;
    expect(error?.kind === "invalid_request" && error.message).toContain("shipments[7].receiver.state: must be a two-letter code for US and CA");
    expect(outcomes.filter((outcome) => outcome.status === "success")).toHaveLength(TOTAL - 1);
    expect(outcomes[8]).toMatchObject({ shipmentIndex: 8, status: "success", quotes: [{ quoteId: 9 }] });
  });

  it("THEN with a chunk size of 200 each chunk's outcomes are handed over as it lands, locally refused ones first", async () => {
    handle = quoteService();
    const input = shipments();
    input[3] = buildQuoteShipment({ shipmentReference: "S3", receiver: buildDomesticReceiver({ state: "New York" }) });
    const handed: number[][] = [];
    const outcomes = await makeClient().quoteShipments(input, {
      chunkSize: 200,
      onChunk: (landed) => void handed.push(landed.map((outcome) => outcome.shipmentIndex)),
    });
    expect(chunkSizes()).toEqual([200, 200, 200, 200, 200, 200, 33]);
    expect(handed[0]).toEqual([3]);
    expect(
      handed
        .slice(1)
        .map((indexes) => indexes.length)
        .sort((a, b) => b - a),
    ).toEqual([200, 200, 200, 200, 200, 200, 33]);
    expect(handed.flat().sort((a, b) => a - b)).toEqual(outcomes.map((_outcome, index) => index));
  });

  it("THEN streamQuotes reads each shipment once, only when its chunk is formed, and hands every outcome over without keeping them", async () => {
    handle = quoteService();
    const input = shipments();
    const reads: number[] = [];
    const readsWhenHanded: number[] = [];
    const handed: number[] = [];
    const source = {
      length: input.length,
      at: (index: number) => {
        reads.push(index);
        return input[index];
      },
    };
    const result = await makeClient().streamQuotes(source, {
      concurrency: 1,
      chunkSize: 200,
      onChunk: (landed) => {
        readsWhenHanded.push(reads.length);
        handed.push(...landed.map((outcome) => outcome.shipmentIndex));
      },
    });
    expect(result).toBeUndefined();
    expect(reads).toEqual(input.map((_shipment, index) => index));
    // One chunk in flight at a time: when a chunk lands, only it and those before it have been read.
    expect(readsWhenHanded).toEqual([200, 400, 600, 800, 1_000, 1_200, TOTAL]);
    expect(handed).toEqual(input.map((_shipment, index) => index));
  });

  it("THEN a chunk answered with the wrong number of results is a bad_response for its shipments", async () => {
    handle = (_request, response) => reply(response, 200, { results: [{ shipmentIndex: 0, status: "error", error: "x", errorCategory: "X" }] });
    const outcomes = await makeClient().quoteShipments(shipments().slice(0, 3));
    expect(outcomes.map((outcome) => outcome.status === "failed" && outcome.error.kind)).toEqual(["bad_response", "bad_response", "bad_response"]);
  });

  it("THEN no shipments means no request", async () => {
    expect(await makeClient().quoteShipments([])).toEqual([]);
    expect(seen).toHaveLength(0);
  });
});
