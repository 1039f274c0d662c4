import { Buffer } from "node:buffer";
import { z } from "zod";
import { nodeHttpTransport, type Transport } from "./transport";
import {
  BatchQuoteShipment,
  buildPath,
  endpoints,
  endpointList,
  ErrorBody,
  ErrorCategory,
  formatIssues,
  MAX_BATCH_SIZE,
  type BatchQuoteResponse,
  type BatchQuoteResult,
  type EndpointDefinition,
  type EndpointName,
  type Endpoints,
} from "./contract";

/** Outcome of a client call: the client never throws for HTTP or network trouble. */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

/** Customer credentials (HTTP Basic) for customer paths; a partner key (Bearer) for Create Customer. */
export type ShippingCredentials = { kind: "customer"; customerId: string; email: string; password: string } | { kind: "partner"; key: string };

/** Retry budget of the retry-safe endpoints (GETs and batchQuote). `attempts` counts the first try. */
export interface RetryOptions {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** A request as the client makes it, before its timeout signal is added. */
type TransportInit = Omit<Parameters<Transport>[1], "signal">;

export interface ShippingClientOptions {
  /** Origin (and optional prefix) the `/restapi/v1/...` paths are appended to. */
  baseUrl: string;
  credentials: ShippingCredentials;
  /** How requests are sent: Node's HTTP client over kept-alive connections by default; `fetch` is another. */
  transport?: Transport;
  /** Per attempt, headers and body included. Default 30 s. */
  timeoutMs?: number;
  /** Default `{ attempts: 3, baseDelayMs: 250, maxDelayMs: 10_000 }`. */
  retry?: Partial<RetryOptions>;
  /** Waits between retries; inject a fast one in tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Source of jitter in [0, 1); default `Math.random`. */
  random?: () => number;
}

type Issues = z.core.$ZodIssue[];

/**
 * Every failure a call can return, discriminated on `kind`.
 *
 * A request that fails the contract *before* being sent (invalid body, query or path params,
 * or credentials of the wrong kind for the endpoint) is `invalid_request` with `status: 0`
 * and the zod `issues`; no network call is made. Any real HTTP status is ≥ 400.
 */
export type ShippingApiError =
  | { kind: "invalid_request"; status: number; message: string; category: string; issues?: Issues }
  | { kind: "unauthorized"; status: 401; message: string }
  | { kind: "insufficient_funds"; status: 402; message: string }
  | { kind: "forbidden"; status: 403; message: string }
  | { kind: "not_found"; status: 404; message: string }
  | { kind: "conflict"; status: 409; message: string; category: string }
  | { kind: "unprocessable"; status: 422; message: string; category: string }
  | { kind: "rate_limited"; status: 429; message: string; retryAfterMs: number | null }
  | { kind: "server_error"; status: number; message: string }
  | { kind: "timeout"; timeoutMs: number }
  | { kind: "network"; message: string }
  /** A body that could not be read as JSON: cut off on the way (or not from the service). Retried like a lost answer. */
  | { kind: "unreadable"; status: number; message: string }
  | { kind: "bad_response"; status: number; message: string; issues: Issues };

/** Status of an `invalid_request` that was refused locally and never sent. */
export const NOT_SENT = 0;

/** Path params other than `customerId` (every path param is required). */
type PathInput<E extends EndpointDefinition> = {
  [K in Exclude<keyof E["params"]["shape"], "customerId">]: z.input<E["params"]["shape"][K]>;
};
type QueryInput<E extends EndpointDefinition> = E["query"] extends z.ZodType ? { query?: z.input<E["query"]> } : unknown;
type BodyInput<E extends EndpointDefinition> = E["body"] extends z.ZodType ? { body: z.input<E["body"]> } : unknown;

/** What a method takes: path params other than `customerId` (taken from the credentials), plus `query` and `body` where the endpoint has them. */
export type EndpointInput<E extends EndpointDefinition> = PathInput<E> & QueryInput<E> & BodyInput<E>;

export type EndpointMethod<E extends EndpointDefinition> = (
  ...args: object extends EndpointInput<E> ? [input?: EndpointInput<E>] : [input: EndpointInput<E>]
) => Promise<Result<z.output<E["response"]>, ShippingApiError>>;

/** Per-shipment outcome of {@link ShippingClient.quoteShipments}: the service's result, or the client error of a chunk (or shipment) that failed as a whole. */
export type ShipmentQuoteOutcome = BatchQuoteResult | { shipmentIndex: number; status: "failed"; error: ShippingApiError };

export interface QuoteShipmentsOptions {
  /** Chunks in flight at once. Default 4. */
  concurrency?: number;
  /** Shipments per request, 1 to 500 (default 500). Smaller chunks report progress and results sooner. */
  chunkSize?: number;
  /** Called after each chunk with the shipments done so far (locally refused ones included) and the total. */
  onProgress?: (doneShipments: number, total: number) => void;
  /**
   * Called with each chunk's outcomes as it lands (and, before a chunk is sent, with the shipments refused locally
   * while it was formed), so a caller can store results while later chunks are still being quoted. The chunk's
   * worker waits for it.
   */
  onChunk?: (outcomes: readonly ShipmentQuoteOutcome[]) => void | Promise<void>;
}

/** One method per endpoint of the contract's endpoint table, plus chunked bulk quoting. */
export type ShippingClient = { [N in EndpointName]: EndpointMethod<Endpoints[N]> } & {
  /**
   * Quotes any number of shipments in chunks of ≤500 (`chunkSize`) with bounded concurrency. Results are
   * indexed to the caller's array (`shipmentIndex` re-based). A shipment that fails the
   * contract, or belongs to a chunk that failed as a whole after retries, comes back as
   * `status: "failed"` with the client error; other chunks are unaffected.
   */
  quoteShipments(shipments: ShipmentSource, options?: QuoteShipmentsOptions): Promise<ShipmentQuoteOutcome[]>;
  /**
   * Quotes as quoteShipments does, but keeps nothing: each chunk's outcomes go to `onChunk` as it lands, and each
   * shipment is read from `shipments` (and checked against the contract) only when its chunk is formed. A caller
   * quoting thousands stores each chunk and lets it go, so no more than the chunks in flight are held at once.
   */
  streamQuotes(shipments: ShipmentSource, options: QuoteShipmentsOptions & Required<Pick<QuoteShipmentsOptions, "onChunk">>): Promise<void>;
};

/**
 * The shipments to quote, read by index as their chunks are formed: an array, or anything that makes each one
 * when asked (a run parses each stored request only then).
 */
export interface ShipmentSource {
  readonly length: number;
  at(index: number): z.input<typeof BatchQuoteShipment> | undefined;
}

const DEFAULT_RETRY: RetryOptions = { attempts: 3, baseDelayMs: 250, maxDelayMs: 10_000 };
const DEFAULT_TIMEOUT_MS = 30_000;

/** Endpoints a retry cannot harm: reads, and quoting (a repeated quote only leaves unused quotes to expire). */
export function isRetrySafe(endpoint: Pick<EndpointDefinition, "method" | "name">): boolean {
  return endpoint.method === "GET" || endpoint.name === "batchQuote";
}

function isRetryable(error: ShippingApiError): boolean {
  return error.kind === "network" || error.kind === "timeout" || error.kind === "rate_limited" || error.kind === "server_error" || error.kind === "unreadable";
}

/** Parses `Retry-After` (delay in seconds or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | null {
  if (header === null) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function localError(message: string, issues?: Issues): ShippingApiError {
  return { kind: "invalid_request", status: NOT_SENT, message, category: ErrorCategory.INVALID_REQUEST, issues };
}

function refuse(part: string, error: z.ZodError): ShippingApiError {
  return localError(`${part} not sent, it breaks the contract: ${formatIssues(error)}`, error.issues);
}

function httpError(status: number, text: string, retryAfterMs: number | null): ShippingApiError {
  let body: ErrorBody | undefined;
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    if (parsed.success) body = parsed.data;
  } catch {
    body = undefined;
  }
  const message = body?.error ?? (text.trim().slice(0, 200) || `HTTP ${status}`);
  switch (status) {
    case 401:
      return { kind: "unauthorized", status, message };
    case 402:
      return { kind: "insufficient_funds", status, message };
    case 403:
      return { kind: "forbidden", status, message };
    case 404:
      return { kind: "not_found", status, message };
    case 409:
      return { kind: "conflict", status, message, category: body?.errorCategory ?? "CONFLICT" };
    case 422:
      return { kind: "unprocessable", status, message, category: body?.errorCategory ?? ErrorCategory.UNPROCESSABLE };
    case 429:
      return { kind: "rate_limited", status, message, retryAfterMs };
  }
  if (status >= 500) return { kind: "server_error", status, message };
  const fallback = status === 413 ? ErrorCategory.PAYLOAD_TOO_LARGE : ErrorCategory.INVALID_REQUEST;
  return { kind: "invalid_request", status, message, category: body?.errorCategory ?? fallback };
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}

/** One-line human description of a client error. */
export function describeError(error: ShippingApiError): string {
  switch (error.kind) {
    case "invalid_request":
      return error.status === NOT_SENT
        ? `Request refused before sending: ${error.message}`
        : `Shipping API rejected the request (HTTP ${error.status}, ${error.category}): ${error.message}`;
    case "unauthorized":
      return `Shipping API credentials were refused (HTTP 401): ${error.message}`;
    case "insufficient_funds":
      return `The prepay balance does not cover this (HTTP 402): ${error.message}`;
    case "forbidden":
      return `Not allowed for this customer (HTTP 403): ${error.message}`;
    case "not_found":
      return `Not found (HTTP 404): ${error.message}`;
    case "conflict":
      return `Conflicts with what exists (HTTP 409, ${error.category}): ${error.message}`;
    case "unprocessable":
      return `Shipping API could not process the request (HTTP 422, ${error.category}): ${error.message}`;
    case "rate_limited":
      return error.retryAfterMs === null
        ? `Rate limited by the Shipping API (HTTP 429): ${error.message}`
        : `Rate limited by the Shipping API (HTTP 429), retry in ${Math.ceil(error.retryAfterMs / 1000)} s: ${error.message}`;
    case "server_error":
      return `Shipping API failed (HTTP ${error.status}): ${error.message}`;
    case "timeout":
      return `Shipping API did not answer within ${error.timeoutMs} ms`;
    case "network":
      return `Could not reach the Shipping API: ${error.message}`;
    case "unreadable":
      return `Shipping API's answer could not be read (HTTP ${error.status}): ${error.message}`;
    case "bad_response":
      return `Shipping API answered outside the contract (HTTP ${error.status}): ${error.message}`;
  }
}

type Attempt = { result: Result<unknown, ShippingApiError>; retryAfterMs: number | null };

/**
 * Creates a typed Shipping API client whose methods are generated from the contract's
 * endpoint table. Outgoing params, query and body are validated before sending, every
 * response is validated, and retry-safe endpoints retry on network errors, timeouts, 429 and
 * 5xx with exponential backoff, jitter and `Retry-After` (a wait longer than `maxDelayMs`
 * is not attempted: the `rate_limited` error is returned for the caller to schedule).
 * Booking, batch changes and customer creation are never retried: read state back first.
 *
 * @example
 * const client = createShippingClient({ baseUrl, credentials: { kind: "customer", customerId, email, password } });
 * const batch = await client.getBatch({ batchId: 17 });
 * if (!batch.ok) log(describeError(batch.error));
 */
export function createShippingClient(options: ShippingClientOptions): ShippingClient {
  const transport = options.transport ?? nodeHttpTransport;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const { credentials } = options;
  const authorization =
    credentials.kind === "customer"
      ? `Basic ${Buffer.from(`${credentials.email}:${credentials.password}`, "utf8").toString("base64")}`
      : `Bearer ${credentials.key}`;

  async function attempt(endpoint: EndpointDefinition, url: string, init: TransportInit): Promise<Attempt> {
    const signal = AbortSignal.timeout(timeoutMs);
    const failed = (error: unknown): Attempt => ({
      result: { ok: false, error: signal.aborted ? { kind: "timeout", timeoutMs } : { kind: "network", message: describeCause(error) } },
      retryAfterMs: null,
    });
    let response: Awaited<ReturnType<Transport>>;
    let text: string;
    try {
      response = await transport(url, { ...init, signal });
      text = await response.text();
    } catch (error) {
      return failed(error);
    }
    const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
    if (!response.ok) return { result: { ok: false, error: httpError(response.status, text, retryAfterMs) }, retryAfterMs };
    const badResponse = (message: string, issues: Issues = []): Attempt => ({
      result: { ok: false, error: { kind: "bad_response", status: response.status, message, issues } },
      retryAfterMs: null,
    });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const message = `${endpoint.name} answered a body that is not JSON (${text.length} characters): ${text.slice(0, 100)}`;
      return { result: { ok: false, error: { kind: "unreadable", status: response.status, message } }, retryAfterMs: null };
    }
    const parsed = endpoint.response.safeParse(json);
    if (!parsed.success) return badResponse(formatIssues(parsed.error), parsed.error.issues);
    return { result: { ok: true, value: parsed.data }, retryAfterMs: null };
  }

  /** Delay before the next try, or null when the server asks for a longer wait than allowed. */
  function delayBefore(tryNumber: number, retryAfterMs: number | null): number | null {
    if (retryAfterMs !== null) return retryAfterMs <= retry.maxDelayMs ? retryAfterMs : null;
    const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (tryNumber - 1));
    return ceiling / 2 + random() * (ceiling / 2);
  }

  async function send(endpoint: EndpointDefinition, url: string, init: TransportInit): Promise<Result<unknown, ShippingApiError>> {
    const attempts = isRetrySafe(endpoint) ? Math.max(1, retry.attempts) : 1;
    for (let tryNumber = 1; ; tryNumber++) {
      const { result, retryAfterMs } = await attempt(endpoint, url, init);
      if (result.ok || tryNumber >= attempts || !isRetryable(result.error)) return result;
      const delay = delayBefore(tryNumber, retryAfterMs);
      if (delay === null) return result;
      await sleep(delay);
    }
  }

  /** `bodyParsed`: the caller already parsed the body with the endpoint's schema (quoteShipments, per shipment); it is sent as is. */
  async function call(endpoint: EndpointDefinition, input: Record<string, unknown>, bodyParsed = false): Promise<Result<unknown, ShippingApiError>> {
    if (endpoint.auth !== credentials.kind) {
      return { ok: false, error: localError(`${endpoint.name} needs ${endpoint.auth} credentials, the client has ${credentials.kind} ones`) };
    }
    const { body, query, ...pathInput } = input;
    const customerId = credentials.kind === "customer" ? { customerId: credentials.customerId } : {};
    const params = endpoint.params.safeParse({ ...pathInput, ...customerId });
    if (!params.success) return { ok: false, error: refuse("path parameters", params.error) };
    const search = new URLSearchParams();
    if (endpoint.query) {
      const parsedQuery = endpoint.query.safeParse(query ?? {});
      if (!parsedQuery.success) return { ok: false, error: refuse("query", parsedQuery.error) };
      for (const [key, value] of Object.entries(parsedQuery.data)) if (value !== undefined) search.set(key, String(value));
    }
    const headers: Record<string, string> = { accept: "application/json", authorization };
    const init: TransportInit = { method: endpoint.method, headers };
    if (endpoint.body) {
      const parsedBody = bodyParsed ? { success: true as const, data: body } : endpoint.body.safeParse(body);
      if (!parsedBody.success) return { ok: false, error: refuse("body", parsedBody.error) };
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(parsedBody.data);
    }
    const queryString = search.size > 0 ? `?${search.toString()}` : "";
    return send(endpoint, `${baseUrl}${buildPath(endpoint.path, params.data as Record<string, string | number>)}${queryString}`, init);
  }

  // The table is the single source: each method's static type is derived from its entry, and
  // `call` validates inputs and responses against the same entry at run time.
  const methods = Object.fromEntries(
    endpointList.map((endpoint) => [endpoint.name, (input?: Record<string, unknown>) => call(endpoint, input ?? {})]),
  ) as unknown as { [N in EndpointName]: EndpointMethod<Endpoints[N]> };

  async function quoteChunk(chunk: ReadonlyArray<{ index: number; shipment: BatchQuoteShipment }>): Promise<ShipmentQuoteOutcome[]> {
    const failAll = (error: ShippingApiError) => chunk.map(({ index }) => ({ shipmentIndex: index, status: "failed" as const, error }));
    const body = { shipments: chunk.map(({ shipment }) => shipment) };
    const response = (await call(endpoints.batchQuote, { body }, true)) as Result<BatchQuoteResponse, ShippingApiError>;
    if (!response.ok) return failAll(response.error);
    const { results } = response.value;
    const covered = new Set(results.map((result) => result.shipmentIndex));
    if (results.length !== chunk.length || covered.size !== chunk.length || results.some((r) => r.shipmentIndex >= chunk.length)) {
      const message = `batchQuote answered ${results.length} results for ${chunk.length} shipments, not one per shipment`;
      return failAll({ kind: "bad_response", status: 200, message, issues: [] });
    }
    return results.map((result) => ({ ...result, shipmentIndex: chunk[result.shipmentIndex]!.index }));
  }

  async function streamQuotes(
    shipments: ShipmentSource,
    { concurrency = 4, chunkSize = MAX_BATCH_SIZE, onProgress, onChunk }: QuoteShipmentsOptions & Required<Pick<QuoteShipmentsOptions, "onChunk">>,
  ): Promise<void> {
    const size = Math.min(MAX_BATCH_SIZE, Math.max(1, Math.floor(chunkSize)));
    const total = shipments.length;
    let position = 0;
    let done = 0;
    /**
     * The next chunk of up to `size` shipments that meet the contract, each parsed once here, and the ones met on
     * the way that do not: a refused shipment fails alone and the chunk is filled past it.
     */
    const takeChunk = () => {
      const chunk: Array<{ index: number; shipment: BatchQuoteShipment }> = [];
      const refused: ShipmentQuoteOutcome[] = [];
      while (chunk.length < size && position < total) {
        const index = position++;
        const parsed = BatchQuoteShipment.safeParse(shipments.at(index));
        if (parsed.success) chunk.push({ index, shipment: parsed.data });
        else {
          const issues = parsed.error.issues.map((issue) => ({ ...issue, path: ["shipments", index, ...issue.path] }));
          refused.push({ shipmentIndex: index, status: "failed", error: refuse("shipment", new z.ZodError(issues)) });
        }
      }
      return { chunk, refused };
    };
    // The outcomes are not held here while onChunk stores them: a consumer that is done with them (it packed what
    // it writes) lets them go at once, however long its write waits.
    const stored = (outcomes: readonly ShipmentQuoteOutcome[]) => new Promise<void>((resolve) => resolve(onChunk(outcomes)));
    const handOver = (outcomes: readonly ShipmentQuoteOutcome[]): Promise<void> => {
      const count = outcomes.length;
      return stored(outcomes).then(() => {
        done += count;
        onProgress?.(done, total);
      });
    };
    /**
     * Quotes the next chunk and hands its outcomes over. Settles once they are stored, its own frame (the chunk's
     * requests) gone as soon as the outcomes are handed over.
     */
    const quoteNext = async (): Promise<void> => {
      const { chunk, refused } = takeChunk();
      if (refused.length > 0) await handOver(refused);
      if (chunk.length > 0) return handOver(await quoteChunk(chunk));
    };
    const worker = async () => {
      while (position < total) await quoteNext();
    };
    const workers = Math.min(Math.ceil(total / size), Math.max(1, Math.floor(concurrency)));
    await Promise.all(Array.from({ length: workers }, worker));
  }

  async function quoteShipments(shipments: ShipmentSource, options: QuoteShipmentsOptions = {}): Promise<ShipmentQuoteOutcome[]> {
    const outcomes: ShipmentQuoteOutcome[] = new Array(shipments.length);
    await streamQuotes(shipments, {
      ...options,
      onChunk: async (landed) => {
        for (const outcome of landed) outcomes[outcome.shipmentIndex] = outcome;
        await options.onChunk?.(landed);
      },
    });
    return outcomes;
  }

  return { ...methods, quoteShipments, streamQuotes };
}
