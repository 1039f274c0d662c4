import fc from "fast-check";
import type { z } from "zod";
import {
  BatchQuoteEnvelope,
  BatchQuoteShipment,
  BookShipmentRequest,
  CountryCode,
  Decimal,
  Dimension,
  type EndpointDefinition,
  ErrorBody,
  IsoDate,
  Money,
  Weight,
  endpointList,
  endpoints,
} from "../../shipping-api/contract";
import { portalEndpointList, portalEndpoints } from "../../service/http/portal";
import { buildCommercialInvoice, buildDomesticBooking, buildPiece, buildQuoteShipment, buildUkReceiver } from "../factories/shipping-api";
import { DEFAULT_BODY_LIMIT_BYTES } from "../../service/http/app";
import { MAX_JSON_DEPTH, MAX_JSON_STRING_CHARS } from "../../service/http/json-cost";
import { type KeepAliveClient, type ProbeResponse, createKeepAliveClient, rawExchange } from "../support/http-probe";
import { PARTNER_KEY, type ServiceClients, type TestCustomer, ok } from "../support/service-harness";
import { type DeriveOptions, validArbitrary } from "./zod-arbitrary";
import {
  BAD_IDS,
  FuzzFailure,
  type FuzzRunOptions,
  JSON_MUTATION_KINDS,
  type FuzzRunSummary,
  ODD_CONTENT_TYPES,
  badJsonTexts,
  clip,
  jsonMutations,
  rawRequests,
  runSeeded,
} from "./fuzz-kit";

/**
 * The Shipping API service's fuzz suite (docs/decisions/009). Requests for every endpoint (the contract's, and the
 * provider's portal actions the service also routes, service/http/portal.ts) are derived from their zod schemas (valid ones, then mutated the ways a hostile or broken client would), sent over real
 * HTTP to the real service, and each answer is checked against what any client may rely on:
 * - never a 5xx;
 * - every refusal is `{error, errorCategory}` and nothing else;
 * - no connection is reset under a client that honours `Connection` (one pooled keep-alive connection);
 * - a request that breaks the contract, names another customer's resources, or asks a batch for what its
 *   state forbids is never answered 2xx (in Batch Quote, a shipment that breaks the contract is its own
 *   `status: "error"`);
 * - a 2xx body matches the contract.
 * After the run the service must still be healthy and quote.
 */

type Shape = Record<string, unknown>;

/** Every route the suite derives requests for: the Shipping API's endpoints and the provider's portal actions. */
const routes = { ...endpoints, ...portalEndpoints };
type RouteName = keyof typeof routes;
const routeList: readonly EndpointDefinition[] = [...endpointList, ...portalEndpointList];

export interface FuzzRequest {
  endpoint: RouteName | "raw";
  method: string;
  /** Path segments by parameter name, already percent-encoded (mutations may break the encoding). */
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** JSON value of the body (before mutation), or undefined for no body. */
  body: unknown;
  /** The body as sent, when a mutation works on the text (bad JSON, deep nesting) or the body is absent. */
  bodyText?: string;
  /** Bytes for a raw socket (requests an HTTP client would not send). */
  raw?: string;
  mutation: string;
  /** The request is wrong whatever the service's state: it must never be answered 2xx. */
  mustRefuse: boolean;
}

export interface FuzzWorld {
  /** The service under test: in this process or another (npm run fuzz -- --process). */
  service: ServiceClients;
  alice: TestCustomer;
  bob: TestCustomer;
  ids: {
    aliceOpenBatch: number;
    aliceCompletedBatch: number;
    aliceCancelledBatch: number;
    aliceQuotes: number[];
    aliceBookNumber: string;
    bobBatch: number;
    bobQuotes: number[];
    bobBookNumber: string;
  };
}

const US_STATES = ["CA", "NY", "TX", "WA", "FL", "IL", "AK", "HI"];
const ZIPS = ["94105", "10002", "60601", "98101", "99501", "96813", "33101", "M5V 2T6", "WC1R 4ED", "10115", "75008"];

/** Overrides and hints that make derived requests realistic enough to reach rating, booking and storage. */
export const deriveOptions: DeriveOptions = {
  overrides: new Map<z.ZodType, fc.Arbitrary<unknown>>([
    [IsoDate, fc.date({ min: new Date("2026-01-01"), max: new Date("2027-12-31"), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10))],
    [CountryCode, fc.constantFrom("US", "US", "US", "CA", "GB", "DE", "FR", "MX", "JP", "AU", "CU")],
    [Weight, fc.integer({ min: 1, max: 1_500 }).map((tenths) => String(tenths / 10))],
    [Dimension, fc.integer({ min: 1, max: 120 }).map(String)],
    [
      Money,
      fc.oneof(
        fc.integer({ min: 0, max: 200_000 }).map((cents) => (cents / 100).toFixed(2)),
        fc.integer({ min: 0, max: 2_000 }),
      ),
    ],
    [Decimal, fc.integer({ min: 0, max: 200_000 }).map((cents) => (cents / 100).toFixed(2))],
  ]),
  hints: {
    state: fc.constantFrom(...US_STATES, "ON", ""),
    zip: fc.constantFrom(...ZIPS),
    weightUnit: fc.constantFrom("lb", "oz", "kg", "g"),
    currency: fc.constantFrom("USD", "USD", "USD", "GBP", "EUR", "CAD"),
    carrierCode: fc.constantFrom("NPS", "BLP", "MRX", "GPC", "", "XXX"),
    serviceCode: fc.constantFrom("BLP_GROUND", "MRX_2DAY", "NPS_PRIORITY", "GPC_INTERNATIONAL_ECONOMY", "BLP_WORLDWIDE_EXPEDITED", "NOPE"),
    packageTypeCode: fc.constantFrom("BLP_PACKAGE", "MRX_PACKAGE", "NPS_PACKAGE", "GPC_PARCEL", "BLP_LETTER"),
    // Mostly what the refinements accept, so that most derived requests are valid and reach the domain.
    declaredValue: fc.constantFrom(null, null, "25.00"),
    aesNumber: fc.constantFrom(null, null, null, "X20261123123456"),
    itnNumber: fc.constantFrom(null, null, "X20261123654321"),
    dutyPaymentAccountNumber: fc.constantFrom("ACC-991", "884422"),
  },
  maxArray: 3,
};

const realisticShipment = fc.constantFrom(
  buildQuoteShipment(),
  buildQuoteShipment({ serviceCode: "BLP_GROUND" }),
  buildQuoteShipment({ receiver: buildUkReceiver(), pieces: [buildPiece({ declaredValue: "52.00" })], commercialInvoice: buildCommercialInvoice() }),
);
const shipmentArbitrary = fc.oneof(realisticShipment, validArbitrary(BatchQuoteShipment, deriveOptions));

/** A set-up service: two customers with quotes, batches in each state, and a booked shipment each. */
export async function prepareWorld(service: ServiceClients): Promise<FuzzWorld> {
  const funded = { prepaySettings: { minimumBalance: "1000.00", rechargeAmount: "100000.00" } };
  const alice = await service.createCustomer(funded);
  const bob = await service.createCustomer(funded);
  const quote = async (customer: TestCustomer, count: number) => {
    const { results } = ok(
      await customer.client.batchQuote({ body: { shipments: Array.from({ length: count }, () => buildQuoteShipment({ serviceCode: "BLP_GROUND" })) } }),
    );
    return results.map((result) => (result.status === "success" ? result.quotes[0]!.quoteId : Number.NaN));
  };
  const [open, completed, cancelled, loose, bobQuotes] = [
    await quote(alice, 3),
    await quote(alice, 2),
    await quote(alice, 1),
    await quote(alice, 6),
    await quote(bob, 3),
  ];
  const aliceOpenBatch = ok(await alice.client.createBatch({ body: { name: "fuzz open", quoteIds: open } })).batchId;
  const aliceCompletedBatch = ok(await alice.client.createBatch({ body: { name: "fuzz completed", quoteIds: completed } })).batchId;
  ok(await alice.client.batchBook({ body: { batchId: aliceCompletedBatch } }));
  const aliceCancelledBatch = ok(await alice.client.createBatch({ body: { name: "fuzz cancelled", quoteIds: cancelled } })).batchId;
  ok(await alice.client.cancelBatch({ batchId: aliceCancelledBatch }));
  const bobBatch = ok(await bob.client.createBatch({ body: { name: "bob's", quoteIds: bobQuotes } })).batchId;
  const aliceBookNumber = ok(await alice.client.bookShipment({ body: buildDomesticBooking({ shipmentReference: "FUZZ" }) })).bookNumber;
  const bobBookNumber = ok(await bob.client.bookShipment({ body: buildDomesticBooking({ shipmentReference: "FUZZ" }) })).bookNumber;
  return {
    service,
    alice,
    bob,
    ids: { aliceOpenBatch, aliceCompletedBatch, aliceCancelledBatch, aliceQuotes: [...open, ...loose], aliceBookNumber, bobBatch, bobQuotes, bobBookNumber },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Valid requests, derived from the contract

const endpointNames = Object.keys(routes) as RouteName[];

function bodyArbitrary(world: FuzzWorld, name: RouteName): fc.Arbitrary<unknown> {
  const { ids } = world;
  const ownQuotes = fc.subarray(ids.aliceQuotes, { minLength: 1 });
  switch (name) {
    case "batchQuote":
      return fc.record({ shipments: fc.array(shipmentArbitrary, { minLength: 1, maxLength: 3 }) });
    case "createBatch":
      return fc.oneof(validArbitrary(endpoints.createBatch.body, deriveOptions), fc.record({ name: fc.constant("fuzz"), quoteIds: ownQuotes }));
    case "addToBatch":
      return fc.oneof(validArbitrary(endpoints.addToBatch.body, deriveOptions), fc.record({ quoteIds: ownQuotes }));
    case "batchBook":
      return fc.record({ batchId: fc.constantFrom(ids.aliceOpenBatch, ids.aliceCompletedBatch, ids.aliceCancelledBatch) });
    case "bookShipment":
      return fc.oneof(fc.constant(buildDomesticBooking({ shipmentReference: "FUZZ" })), validArbitrary(BookShipmentRequest, deriveOptions));
    default: {
      const schema = routes[name].body;
      return schema ? validArbitrary(schema, deriveOptions) : fc.constant(undefined);
    }
  }
}

function paramsArbitrary(world: FuzzWorld, name: RouteName): fc.Arbitrary<Record<string, string>> {
  const { ids } = world;
  const path = routes[name].path;
  const model: Record<string, fc.Arbitrary<string>> = {};
  if (path.includes(":customerId")) model.customerId = fc.constant(world.alice.customerId);
  if (path.includes(":batchId")) model.batchId = fc.constantFrom(ids.aliceOpenBatch, ids.aliceCompletedBatch, ids.aliceCancelledBatch).map(String);
  if (path.includes(":quoteId")) model.quoteId = fc.constantFrom(...ids.aliceQuotes).map(String);
  if (path.includes(":bookNumber")) model.bookNumber = fc.constant(ids.aliceBookNumber);
  return fc.record(model);
}

function queryArbitrary(name: RouteName): fc.Arbitrary<Record<string, string>> {
  const schema = routes[name].query;
  if (!schema) return fc.constant({});
  return validArbitrary(schema, deriveOptions).map((query) =>
    Object.fromEntries(
      Object.entries(query as Shape)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => [key, String(value)]),
    ),
  );
}

function authorization(world: FuzzWorld, name: RouteName): string {
  return routes[name].auth === "partner" ? `Bearer ${PARTNER_KEY}` : world.alice.authorization;
}

const validRequests = new WeakMap<FuzzWorld, Map<RouteName, fc.Arbitrary<FuzzRequest>>>();

/** A valid request for the endpoint (derived once per world and endpoint: deriving walks the whole schema). */
function validRequest(world: FuzzWorld, name: RouteName): fc.Arbitrary<FuzzRequest> {
  let byName = validRequests.get(world);
  if (!byName) validRequests.set(world, (byName = new Map()));
  let arbitrary = byName.get(name);
  if (!arbitrary) byName.set(name, (arbitrary = deriveValidRequest(world, name)));
  return arbitrary;
}

function deriveValidRequest(world: FuzzWorld, name: RouteName): fc.Arbitrary<FuzzRequest> {
  const endpoint = routes[name];
  return fc.record({ params: paramsArbitrary(world, name), query: queryArbitrary(name), body: bodyArbitrary(world, name) }).map(({ params, query, body }) => ({
    endpoint: name,
    method: endpoint.method,
    params: Object.fromEntries(Object.entries(params).map(([key, value]) => [key, encodeURIComponent(value)])),
    query,
    headers: { authorization: authorization(world, name), ...(endpoint.body ? { "content-type": "application/json" } : {}) },
    body,
    mutation: "none",
    mustRefuse: false,
  }));
}

// ---------------------------------------------------------------------------------------------------------
// Mutations

function bodyMutations(request: FuzzRequest): fc.Arbitrary<FuzzRequest>[] {
  if (request.body === undefined) return [];
  return jsonMutations(request.body).map((arbitrary) =>
    arbitrary.map(({ body, bodyText, mutation, longestString = 0, depth = 0 }) => ({
      ...request,
      body,
      bodyText,
      mutation,
      // No field takes a string this long, nor nesting this deep: the service refuses such a body whole, before parsing it.
      mustRefuse: request.mustRefuse || longestString > MAX_JSON_STRING_CHARS || depth > MAX_JSON_DEPTH,
    })),
  );
}

function textMutations(request: FuzzRequest): fc.Arbitrary<FuzzRequest>[] {
  if (!routes[request.endpoint as RouteName]?.body) return [];
  const text = JSON.stringify(request.body ?? {});
  return [
    fc.constantFrom(...badJsonTexts(text)).map((bodyText) => ({ ...request, bodyText, mutation: "bad JSON", mustRefuse: true })),
    fc.constantFrom(...ODD_CONTENT_TYPES).map((contentType) => ({
      ...request,
      headers: { ...request.headers, "content-type": contentType },
      mutation: `content type ${JSON.stringify(contentType)}`,
      mustRefuse: true,
    })),
    fc.constant({ ...request, headers: { ...request.headers, "content-type": "application/json" }, bodyText: "", mutation: "empty body", mustRefuse: true }),
    fc.constantFrom(DEFAULT_BODY_LIMIT_BYTES + 1, DEFAULT_BODY_LIMIT_BYTES * 2).map((size) => ({
      ...request,
      bodyText: JSON.stringify({ ...(request.body as Shape), padding: "x".repeat(size) }),
      mutation: `body of ${size} bytes`,
      mustRefuse: true,
    })),
  ];
}

function pathMutations(world: FuzzWorld, request: FuzzRequest): fc.Arbitrary<FuzzRequest>[] {
  const names = Object.keys(request.params).filter((name) => name !== "customerId");
  const mutations: fc.Arbitrary<FuzzRequest>[] = [];
  if (names.length > 0) {
    mutations.push(
      fc
        .tuple(fc.constantFrom(...names), fc.constantFrom(...BAD_IDS))
        .map(([name, id]) => ({ ...request, params: { ...request.params, [name]: id }, mutation: `path ${name} ${id.slice(0, 40)}` })),
    );
  }
  if ("customerId" in request.params) {
    mutations.push(
      fc.constantFrom("%ZZ", "C000000000000", world.bob.customerId, "x".repeat(2_000), "%2F..%2F").map((customerId) => ({
        ...request,
        params: { ...request.params, customerId },
        mutation: `customerId ${customerId.slice(0, 40)}`,
        mustRefuse: true,
      })),
    );
  }
  return mutations;
}

/** Requests that are well formed but name another customer's resources, or ask a batch what its state forbids. */
function stateMutations(world: FuzzWorld, request: FuzzRequest): fc.Arbitrary<FuzzRequest>[] {
  const { ids } = world;
  const mutations: fc.Arbitrary<FuzzRequest>[] = [];
  const refuse = (mutation: string, change: Partial<FuzzRequest>): FuzzRequest => ({ ...request, ...change, mutation, mustRefuse: true });
  if ("batchId" in request.params)
    mutations.push(fc.constant(refuse("another customer's batch", { params: { ...request.params, batchId: String(ids.bobBatch) } })));
  if ("bookNumber" in request.params)
    mutations.push(fc.constant(refuse("another customer's book number", { params: { ...request.params, bookNumber: ids.bobBookNumber } })));
  if (request.endpoint === "createBatch" || request.endpoint === "addToBatch") {
    mutations.push(
      fc.subarray(ids.bobQuotes, { minLength: 1 }).map((quoteIds) => refuse("another customer's quotes", { body: { ...(request.body as Shape), quoteIds } })),
    );
  }
  if (request.endpoint === "batchBook") {
    mutations.push(
      fc
        .constantFrom(ids.bobBatch, ids.aliceCompletedBatch, ids.aliceCancelledBatch)
        .map((batchId) => refuse(`book batch ${batchId} (another customer's, or not open)`, { body: { batchId } })),
    );
  }
  if (request.endpoint === "cancelBatch" || request.endpoint === "addToBatch") {
    mutations.push(
      fc
        .constantFrom(ids.aliceCompletedBatch, ids.aliceCancelledBatch)
        .map((batchId) => refuse("batch that is not open", { params: { ...request.params, batchId: String(batchId) } })),
    );
  }
  return mutations;
}

function headerMutations(world: FuzzWorld, request: FuzzRequest): fc.Arbitrary<FuzzRequest>[] {
  const endpoint = routes[request.endpoint as RouteName];
  return [
    fc
      .constantFrom(
        undefined,
        "",
        "Basic",
        "Basic !!!",
        `Basic ${Buffer.from("no-colon").toString("base64")}`,
        `Basic ${Buffer.from(`${world.alice.email}:wrong`).toString("base64")}`,
        "Bearer wrong-key",
        `Basic ${"A".repeat(8_000)}`,
      )
      .map((value) => {
        const { authorization: _dropped, ...headers } = request.headers;
        return {
          ...request,
          headers: value === undefined ? headers : { ...headers, authorization: value },
          mutation: `authorization ${JSON.stringify(value?.slice(0, 30))}`,
          mustRefuse: true,
        };
      }),
    fc
      .constantFrom(20 * 1024, 80 * 1024)
      .map((size) => ({ ...request, headers: { ...request.headers, "x-padding": "a".repeat(size) }, mutation: `${size}-byte header`, mustRefuse: true })),
    fc.constantFrom(...(endpoint.method === "GET" ? ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"] : ["GET", "PUT", "PATCH", "OPTIONS"])).map((method) => ({
      ...request,
      method,
      mutation: `method ${method}`,
      // The same path with another method may be another endpoint (DELETE on a batch is Delete Batch).
      mustRefuse: !routeList.some((other) => other.path === endpoint.path && other.method === method),
    })),
  ];
}

const rawRequest: fc.Arbitrary<FuzzRequest> = fc.constantFrom(...rawRequests("/healthz", "/restapi/v1/customers")).map((raw) => ({
  endpoint: "raw",
  method: "RAW",
  params: {},
  query: {},
  headers: {},
  body: undefined,
  raw,
  mutation: `raw bytes ${JSON.stringify(raw.slice(0, 60))}`,
  mustRefuse: true,
}));

/** One fuzz request: a valid request for some endpoint, usually mutated; sometimes raw bytes. */
export function requestArbitrary(world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const mutated = fc
    .constantFrom(...endpointNames)
    .chain((name) =>
      validRequest(world, name).chain((request) =>
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(request) },
          ...[
            ...bodyMutations(request),
            ...textMutations(request),
            ...pathMutations(world, request),
            ...stateMutations(world, request),
            ...headerMutations(world, request),
          ].map((arbitrary) => ({ weight: 2, arbitrary })),
        ),
      ),
    );
  return fc.oneof({ weight: 30, arbitrary: mutated }, { weight: 1, arbitrary: rawRequest });
}

// ---------------------------------------------------------------------------------------------------------
// Sending and judging

function pathOf(request: FuzzRequest): string {
  const endpoint = routes[request.endpoint as RouteName];
  // Not the client's buildPath, which encodes each value: these are already encoded, and may be broken on purpose.
  const path = endpoint.path.replace(/:([A-Za-z]+)/g, (_segment, name: string) => request.params[name] ?? "");
  const query = new URLSearchParams(request.query).toString();
  return query ? `${path}?${query}` : path;
}

function bodyTextOf(request: FuzzRequest): string | undefined {
  return request.bodyText ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
}

/** What the contract says of the request as sent: refused outright, or (Batch Quote) which shipments must fail. */
function contractVerdict(request: FuzzRequest): { refuse: boolean; invalidShipments: number[] } {
  const none = { refuse: false, invalidShipments: [] };
  if (request.endpoint === "raw" || request.mustRefuse) return { refuse: true, invalidShipments: [] };
  const endpoint: EndpointDefinition = routes[request.endpoint];
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.params)) {
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      return { refuse: true, invalidShipments: [] };
    }
    if (decoded[name]!.includes("/") || decoded[name] === "" || value.length > 1_000) return { refuse: true, invalidShipments: [] };
  }
  if (!endpoint.params.safeParse(decoded).success) return { refuse: true, invalidShipments: [] };
  if (endpoint.query && !endpoint.query.safeParse(request.query).success) return { refuse: true, invalidShipments: [] };
  if (!endpoint.body) return none;
  const text = bodyTextOf(request);
  let body: unknown;
  try {
    body = text === undefined || text === "" ? undefined : JSON.parse(text);
  } catch {
    return { refuse: true, invalidShipments: [] };
  }
  if (request.endpoint === "batchQuote") {
    const envelope = BatchQuoteEnvelope.safeParse(body);
    if (!envelope.success) return { refuse: true, invalidShipments: [] };
    const invalidShipments = envelope.data.shipments.flatMap((shipment, index) => (BatchQuoteShipment.safeParse(shipment).success ? [] : [index]));
    return { refuse: false, invalidShipments };
  }
  return { refuse: !endpoint.body.safeParse(body).success, invalidShipments: [] };
}

/** The request as a person reads it, long values cut: what a failure prints after shrinking. */
export function describeRequest(request: FuzzRequest): string {
  if (request.raw !== undefined) return `raw bytes (${request.mutation}):\n${clip(JSON.stringify(request.raw))}`;
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${clip(value, 120)}`);
  const body = bodyTextOf(request);
  return [`${request.method} ${clip(pathOf(request), 300)}   [mutation: ${request.mutation}]`, ...headers, body === undefined ? "(no body)" : clip(body)].join(
    "\n",
  );
}

function judge(request: FuzzRequest, response: ProbeResponse): void {
  const fail = (why: string) => {
    throw new FuzzFailure(`${why}\nanswer: ${response.status} ${clip(response.text, 600)}`);
  };
  if (response.status >= 500) fail("a 5xx answer");
  if (response.status >= 400) {
    if (!ErrorBody.strict().safeParse(response.json).success) fail("a refusal not in the service's {error, errorCategory} body");
    if (!/^application\/json/.test(response.headers["content-type"] ?? "")) fail("a refusal that is not JSON");
  }
  const verdict = contractVerdict(request);
  if (verdict.refuse && response.status < 300) fail("an invalid request answered 2xx");
  if (response.status < 300 && request.endpoint !== "raw") {
    const endpoint: EndpointDefinition = routes[request.endpoint];
    if (request.method === endpoint.method && !endpoint.response.safeParse(response.json).success) fail("a 2xx body that breaks the contract");
    if (request.endpoint === "batchQuote" && verdict.invalidShipments.length > 0) {
      const results = (response.json as { results: { status: string; errorCategory?: string }[] }).results;
      for (const index of verdict.invalidShipments) {
        if (results[index]?.status !== "error" || results[index]?.errorCategory !== "INVALID_REQUEST")
          fail(`shipment ${index} breaks the contract but is not status error INVALID_REQUEST`);
      }
    }
  }
}

/**
 * Sends one request (pooled keep-alive connection, or raw socket) and judges the answer; throws
 * {@link FuzzFailure}. `previous` is the request sent before on the same connection: when the connection
 * fails, it is the likely culprit (a server that closed after it without saying so), and the failure names it.
 */
export async function sendAndJudge(world: FuzzWorld, client: KeepAliveClient, request: FuzzRequest, previous?: FuzzRequest): Promise<void> {
  if (request.raw !== undefined) {
    const exchange = await rawExchange(world.service.baseUrl, request.raw);
    if (!exchange.response) throw new FuzzFailure(`no answer before the connection ${exchange.ending === "reset" ? "was reset" : "closed"}`);
    if (exchange.ending === "reset") throw new FuzzFailure("the connection was reset after the answer");
    if (exchange.ending === "closed" && exchange.response.headers.connection?.toLowerCase() !== "close")
      throw new FuzzFailure("the connection was closed without Connection: close");
    return judge(request, exchange.response);
  }
  let response: ProbeResponse;
  try {
    response = await client.request({ method: request.method, path: pathOf(request), headers: request.headers, body: bodyTextOf(request) });
  } catch (error) {
    const before = previous ? `\nthe request before it on this connection:\n${describeRequest(previous)}` : "";
    throw new FuzzFailure(`the client's connection failed: ${(error as Error).message}${before}`);
  }
  judge(request, response);
}

/** The service answers its health check and still quotes a valid shipment. */
export async function assertHealthy(world: FuzzWorld): Promise<void> {
  const health = await fetch(`${world.service.baseUrl}/healthz`);
  if (health.status !== 200) throw new FuzzFailure(`the service is not healthy after the run: /healthz answered ${health.status}`);
  const quoted = ok(await world.alice.client.batchQuote({ body: { shipments: [buildQuoteShipment({ serviceCode: "BLP_GROUND" })] } }));
  if (quoted.results[0]?.status !== "success") throw new FuzzFailure("the service no longer quotes a valid shipment after the run");
}

/** The kinds of mutation, as their descriptions begin. */
export const MUTATION_KINDS = [
  "none",
  ...JSON_MUTATION_KINDS,
  "content type",
  "empty body",
  "body of",
  "path",
  "customerId",
  "another customer's",
  "book batch",
  "batch that is not open",
  "authorization",
  "oversized header",
  "method",
  "raw bytes",
] as const;

/** A mutation's kind: its description without the values. */
export function mutationKind(request: FuzzRequest): string {
  const description = request.mutation.replace(/^\d+-character string/, "long string").replace(/^\d+-byte header/, "oversized header");
  return MUTATION_KINDS.find((kind) => description.startsWith(kind)) ?? description;
}

/**
 * Runs the fuzz suite against a prepared world (fuzz-kit's seeded run: a failure names the seed, the replay
 * command, the property broken and the shrunk request), then checks the service is still healthy.
 */
export async function runServiceFuzz(world: FuzzWorld, options: FuzzRunOptions): Promise<FuzzRunSummary> {
  const client = createKeepAliveClient(world.service.baseUrl);
  let previous: FuzzRequest | undefined;
  try {
    const summary = await runSeeded({
      ...options,
      requests: requestArbitrary(world),
      send: async (request) => {
        try {
          await sendAndJudge(world, client, request, previous);
        } finally {
          if (request.raw === undefined) previous = request;
        }
      },
      kindOf: mutationKind,
      describe: describeRequest,
      replay: (seed, runs) => `npm run fuzz -- --seed ${seed} --runs ${runs}`,
    });
    await assertHealthy(world);
    return summary;
  } finally {
    client.close();
  }
}
