import type { AdminApiContext } from "@shopify/shopify-app-remix/server";
import { GraphqlQueryError, HttpMaxRetriesError, HttpRequestError, HttpResponseError } from "@shopify/shopify-api";
import { z } from "zod";
import type { AdminDocument, SchemaFor, VariablesFor } from "./admin-document";
import { CostPacer, type PacerLane, type PacerSleep, type ThrottleStatus } from "./pacer";

/**
 * The one gateway to the Admin API: every read and write of the app goes through
 * `adminQuery`, which paces requests by the cost bucket, waits out THROTTLED instead of failing, and
 * validates the data it depends on with zod.
 */
export type AdminClient = Pick<AdminApiContext, "graphql">;

export class AdminApiError extends Error {
  override name = "AdminApiError";
  constructor(
    message: string,
    readonly operation: string,
    readonly graphQLErrors: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }> = [],
  ) {
    super(message);
  }
}

/**
 * Shopify's answer did not arrive whole: a body cut off on the way (shopify-api reports it as an error
 * response with a success status), or 5xx answers past the library's own retries. Whether a mutation took
 * effect is unknown; a read may simply be asked again.
 */
export class AdminTransportError extends Error {
  override name = "AdminTransportError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const ThrottleStatusSchema = z.object({
  maximumAvailable: z.number(),
  currentlyAvailable: z.number(),
  restoreRate: z.number().positive(),
});

const CostExtension = z
  .object({
    cost: z
      .object({
        requestedQueryCost: z.number(),
        actualQueryCost: z.number().nullable().optional(),
        throttleStatus: ThrottleStatusSchema,
      })
      .optional(),
  })
  .optional();

const GraphQLErrorSchema = z.object({
  message: z.string(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

const Envelope = z.object({
  data: z.unknown().optional(),
  errors: z.unknown().optional(),
  extensions: CostExtension,
});

/** Who is asking: the shop's Admin API client, and how to pace and wait (injected in tests). */
export interface ShopAdmin {
  admin: AdminClient;
  shop: string;
  /**
   * Whose turn its requests take in the shop's pacer: `interactive` for a merchant's request (the default),
   * `work` for background work, `sync` for webhook re-reads of the order mirror (app/shopify/pacer.ts).
   */
  lane?: PacerLane;
  pacer?: CostPacer;
  sleep?: PacerSleep;
  /** How many THROTTLED answers to wait out before giving up. */
  maxThrottleRetries?: number;
}

const sharedPacer = new CostPacer();
const defaultSleep: PacerSleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
/** A read that failed for a transient reason (isTransient) is asked again after each of these waits. Writes are not: their callers read first. */
const READ_RETRY_DELAYS_MS = [250, 1_000, 4_000];

/** The most each operation was charged up front, to pace its next call before Shopify has to refuse it. */
const lastRequestedCost = new Map<string, number>();

/** The shop's cost bucket as Shopify last reported it to this process, or undefined before any answer. */
export function reportedThrottle(context: Pick<ShopAdmin, "shop" | "pacer">): ThrottleStatus | undefined {
  return (context.pacer ?? sharedPacer).status(context.shop);
}

/**
 * Holds the shop's webhook re-reads (the pacer's `sync` lane) until the answer is called: for a writer whose
 * every point counts (the write-back), so the mirror's re-reads wait for it whole (docs/decisions/023, 033).
 */
export function holdMirrorSync(context: Pick<ShopAdmin, "shop" | "pacer">): () => void {
  return (context.pacer ?? sharedPacer).holdSync(context.shop);
}

/** The operation's name in a GraphQL document ("CreateShipmentFulfillment"), or "anonymous". */
export function operationName(document: string): string {
  return /(?:query|mutation)\s+(\w+)/.exec(document)?.[1] ?? "anonymous";
}

interface RawResult {
  data?: unknown;
  graphQLErrors: z.infer<typeof GraphQLErrorSchema>[];
  cost?: { requestedQueryCost: number; throttleStatus: ThrottleStatus };
}

async function send(admin: AdminClient, document: string, variables: Record<string, unknown> | undefined): Promise<RawResult> {
  let body: unknown;
  try {
    const response = await admin.graphql(document, variables ? { variables } : undefined);
    body = await response.json();
  } catch (error) {
    if (error instanceof HttpResponseError && error.response.code < 400)
      throw new AdminTransportError(`Shopify's answer could not be read (HTTP ${error.response.code}): ${error.message}`, error.response.code);
    if (error instanceof HttpMaxRetriesError) throw new AdminTransportError(`Shopify kept failing: ${error.message}`, 503);
    if (!(error instanceof GraphqlQueryError)) throw error;
    // shopify-api throws on any GraphQL error in a 200; the body still carries the errors and the cost.
    const errorBody = error.body as { errors?: { graphQLErrors?: unknown }; extensions?: unknown } | undefined;
    body = { errors: errorBody?.errors?.graphQLErrors ?? [{ message: error.message }], extensions: errorBody?.extensions };
  }
  const envelope = Envelope.parse(body);
  const errors = z.array(GraphQLErrorSchema).safeParse(envelope.errors ?? []);
  return {
    data: envelope.data,
    graphQLErrors: errors.success ? errors.data : [{ message: JSON.stringify(envelope.errors) }],
    cost: envelope.extensions?.cost,
  };
}

/**
 * Runs one Admin GraphQL document and returns its `data` parsed by `schema`. Throws AdminApiError for
 * GraphQL errors other than THROTTLED (which it waits out) and for data that does not match the schema. A
 * query (a read) that fails for a transient reason (Shopify down or erroring, a reset, an answer cut off) is
 * asked again after READ_RETRY_DELAYS_MS; a mutation's failure is its caller's to settle, reading first.
 */
export async function adminQuery<TResult, TVariables, TSchema extends z.ZodType>(
  context: ShopAdmin,
  document: AdminDocument<TResult, TVariables>,
  schema: SchemaFor<TResult, TSchema>,
  ...[variables]: VariablesFor<TVariables>
): Promise<z.output<TSchema>> {
  const { admin, shop } = context;
  const pacer = context.pacer ?? sharedPacer;
  const sleep = context.sleep ?? defaultSleep;
  const maxThrottleRetries = context.maxThrottleRetries ?? 8;
  const operation = operationName(document);
  const isRead = /^\s*(#[^\n]*\n\s*)*query\b/.test(document);
  let readRetries = 0;

  for (let attempt = 0; ; attempt++) {
    const estimate = lastRequestedCost.get(operation) ?? 0;
    // In turn with every other caller for the shop, and holding its points until the answer.
    await pacer.acquire(shop, estimate, sleep, context.lane ?? "interactive");
    let result: RawResult;
    try {
      result = await send(admin, document, variables as Record<string, unknown> | undefined);
    } catch (error) {
      pacer.release(shop, estimate);
      if (!isRead || !isTransient(error) || readRetries >= READ_RETRY_DELAYS_MS.length) throw error;
      await sleep(READ_RETRY_DELAYS_MS[readRetries++]!);
      continue;
    }
    pacer.release(shop, estimate);
    if (result.cost) {
      // The most it was charged up front: its cost varies with its variables (how many ids it reads).
      lastRequestedCost.set(operation, Math.max(lastRequestedCost.get(operation) ?? 0, result.cost.requestedQueryCost));
      pacer.observe(shop, result.cost.throttleStatus);
    }
    const throttled = result.graphQLErrors.some((error) => error.extensions?.code === "THROTTLED");
    if (throttled && attempt < maxThrottleRetries) continue;
    const failedInShopify = result.graphQLErrors.some((error) => error.extensions?.code === "INTERNAL_SERVER_ERROR");
    if (failedInShopify && isRead && readRetries < READ_RETRY_DELAYS_MS.length) {
      await sleep(READ_RETRY_DELAYS_MS[readRetries++]!);
      continue;
    }
    if (result.graphQLErrors.length > 0) {
      const messages = result.graphQLErrors.map((error) => error.message).join("; ");
      throw new AdminApiError(`${operation} failed: ${messages}`, operation, result.graphQLErrors);
    }
    const parsed = schema.safeParse(result.data);
    if (!parsed.success) {
      throw new AdminApiError(`${operation} returned data the app cannot use: ${z.prettifyError(parsed.error)}`, operation);
    }
    return parsed.data;
  }
}

/** Shopify did not answer, or answered that it is busy: the request may be repeated after re-reading. */
export function isTransient(error: unknown): boolean {
  if (error instanceof AdminTransportError) return true;
  if (error instanceof AdminApiError)
    return error.graphQLErrors.some((e) => e.extensions?.code === "THROTTLED" || e.extensions?.code === "INTERNAL_SERVER_ERROR");
  if (error instanceof HttpResponseError) return error.response.code === 429 || error.response.code >= 500;
  return error instanceof HttpRequestError;
}
