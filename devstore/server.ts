import { Readable } from "node:stream";
import Fastify, { type FastifyInstance } from "fastify";
import { systemClock, type Clock } from "./clock.js";
import { mintCustomerSessionToken, mintSessionToken as signSessionToken, type MintSessionTokenOptions } from "./auth/session-token.js";
import { ONLINE_TOKEN_TTL_SECONDS, registerTokenExchange } from "./auth/token-exchange.js";
import { BulkOperations } from "./bulk/bulk-operations.js";
import { executeAdminGraphql, type GraphqlRequest, type GraphqlResponseBody } from "./graphql/executor.js";
import { API_VERSION, adminSchema } from "./graphql/schema.js";
import { CostBucket, DEFAULT_THROTTLE, type ThrottleOptions } from "./graphql/throttle.js";
import { callFlowAction, changeFlowWorkflow, flowExtensions, type FlowActionCall, type FlowWorkflowChange } from "./flow/flow.js";
import { shellPlugin } from "./shell/plugin.js";
import { Store } from "./store/store.js";
import { WebhookDispatcher, type WebhookRetryOptions } from "./webhooks/dispatcher.js";
import { APP_TOML, loadAppConfig, splitScopes, type AppConfig } from "./webhooks/subscriptions.js";

export interface LocalAdminOptions {
  dbPath: string;
  shopDomain: string;
  apiKey: string;
  apiSecret: string;
  /** Where the app runs; webhook subscription uris are resolved against it. */
  appUrl: string;
  clock?: Clock;
  throttle?: Partial<ThrottleOptions>;
  webhookRetry?: Partial<WebhookRetryOptions>;
  /** shopify.app.toml to read scopes and webhook subscriptions from (defaults to the repository's). */
  appTomlPath?: string;
  /** The app's built admin UI extensions (manifest.json + modules) the order page renders; none when unset. */
  extensionsDir?: string;
  /** fetch used for webhook delivery and Flow's trigger lifecycle callbacks (defaults to the global one). */
  fetch?: typeof fetch;
  logger?: boolean;
  /**
   * Extension hook: register more routes (the admin shell page, app frame, App Bridge stand-in) on the same server.
   * Called before the server is ready, with the handles below.
   */
  registerRoutes?: (app: FastifyInstance, admin: LocalAdmin) => void;
}

export interface LocalAdmin {
  app: FastifyInstance;
  store: Store;
  webhooks: WebhookDispatcher;
  bulkOperations: BulkOperations;
  throttle: CostBucket;
  appConfig: AppConfig;
  shopDomain: string;
  apiKey: string;
  /** An App Bridge-style session token for this shop (HS256 with the app secret). */
  mintSessionToken(options?: Partial<MintSessionTokenOptions>): Promise<string>;
  /** A customer account session token for a customer of this shop (what the order status page's extensions get). */
  mintCustomerSessionToken(customerId: number, options?: { ttlSeconds?: number }): Promise<string>;
  /** Issues an offline Admin API access token directly (what a completed install would hold). */
  issueAccessToken(kind?: "offline" | "online"): string;
  /** The installation's scopes: the app's required ones and the optional ones the merchant allowed. */
  grantedScopes(): string[];
  /**
   * The merchant allows some of the app's optional scopes (what App Bridge's `scopes.request` asks, Allow clicked):
   * fires app/scopes_update when anything changed and returns the scopes granted now. Throws for a scope the app
   * does not declare as optional.
   */
  grantOptionalScopes(scopes: readonly string[]): string[];
  /**
   * Calls the app's Flow action `handle` for an order as Flow does (signed with the app's secret; a fresh action run
   * id unless `actionRunId` repeats one, a `signature` replacing the right one); answers the app's status and body.
   */
  runFlowAction(call: { handle: string; orderId: number; actionRunId?: string; signature?: string }): Promise<FlowActionCall>;
  /**
   * The merchant turns on (or off) a workflow starting with the app's Flow trigger `handle`, as in Flow: the app's
   * trigger lifecycle callback is called signed (with the options' fetch), and the workflow is on only once the app
   * answered 2xx; answers the app's status and body. `timestamp` and `signature` replace the callback's own.
   */
  changeFlowWorkflow(change: { handle: string; enabled: boolean; timestamp?: string; signature?: string }): Promise<FlowWorkflowChange>;
  /** Runs a GraphQL request in-process with the same rules as the HTTP endpoint (cost, throttling, an offline token's scopes). */
  graphql(request: GraphqlRequest, origin?: string): Promise<GraphqlResponseBody>;
  /** Listens and returns the base URL (`http://127.0.0.1:PORT`). */
  listen(options?: { port?: number; host?: string }): Promise<string>;
  close(): Promise<void>;
}

const INVALID_TOKEN = "[API] Invalid API key or access token (unrecognized login or wrong password)";

/**
 * The local Shopify admin: Admin GraphQL API (real 2026-10 schema) over a persistent SQLite store, Shopify-like
 * throttling, token exchange, webhooks and bulk operations. Returns a Fastify instance plus handles.
 */
export function createLocalAdmin(options: LocalAdminOptions): LocalAdmin {
  const clock = options.clock ?? systemClock;
  const store = new Store(options.dbPath, clock);
  const appConfig = loadAppConfig(options.appTomlPath ?? APP_TOML);
  const throttleOptions: ThrottleOptions = { ...DEFAULT_THROTTLE, ...options.throttle };
  const throttle = new CostBucket(throttleOptions, clock);
  const webhooks = new WebhookDispatcher({
    store,
    app: appConfig,
    appUrl: options.appUrl,
    apiSecret: options.apiSecret,
    shopDomain: options.shopDomain,
    retry: options.webhookRetry,
    fetch: options.fetch,
  });
  adminSchema();

  const requiredScopes = splitScopes(appConfig.scopes);
  // The installation's scopes: the required ones and the optional ones the merchant allowed since.
  const installationScopes = () => [...requiredScopes, ...store.grantedOptionalScopes()];

  let origin = "http://127.0.0.1";
  const bulkOperations: BulkOperations = new BulkOperations(store, (request) =>
    executeAdminGraphql(request, {
      store,
      origin,
      bulk: true,
      startBulkOperation: (q) => bulkOperations.start(q),
      grantedScopes: new Set(installationScopes()),
    }),
  );
  const runGraphql = (request: GraphqlRequest, requestOrigin: string, tokenScope: string) =>
    executeAdminGraphql(request, {
      store,
      origin: requestOrigin,
      // A token's scopes are those it was issued with and those the merchant allowed later (Shopify's optional scopes reach existing tokens).
      grantedScopes: new Set([...splitScopes(tokenScope), ...store.grantedOptionalScopes()]),
      bucket: throttle,
      maxQueryCost: throttleOptions.maxQueryCost,
      startBulkOperation: (q) => {
        origin = requestOrigin;
        return bulkOperations.start(q);
      },
    });

  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 10 * 1024 * 1024 });
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.post<{ Params: { version: string } }>("/admin/api/:version/graphql.json", async (request, reply) => {
    if (request.params.version !== API_VERSION) return reply.code(404).send({ errors: "Not Found" });
    const token = request.headers["x-shopify-access-token"];
    const tokenRow = typeof token === "string" ? store.findValidAccessToken(token) : undefined;
    if (!tokenRow) return reply.code(401).send({ errors: INVALID_TOKEN });
    const body = request.body as Partial<GraphqlRequest> | undefined;
    if (!body || typeof body.query !== "string") {
      return reply.code(400).send({ errors: { query: "Required parameter missing or invalid" } });
    }
    const requestOrigin = `${request.protocol}://${request.headers.host ?? "127.0.0.1"}`;
    return reply.send(
      await runGraphql({ query: body.query, variables: body.variables ?? null, operationName: body.operationName ?? null }, requestOrigin, tokenRow.scope),
    );
  });

  app.get<{ Params: { id: string } }>("/bulk-operations/:id/result.jsonl", async (request, reply) => {
    const op = store.getBulkOperation(Number(request.params.id));
    if (!op || op.status !== "COMPLETED" || op.object_count === 0) return reply.code(404).send({ errors: "Not Found" });
    // Part by part, as written: an export of 50,000 orders is never one string here.
    const parts = async function* () {
      for (let part = 0; ; part++) {
        const jsonl = store.bulkOperationResult(op.id, part);
        if (jsonl === undefined) return;
        yield jsonl;
      }
    };
    return reply.type("application/jsonl").send(Readable.from(parts()));
  });

  const mint = async (mintOptions: Partial<MintSessionTokenOptions> = {}) =>
    signSessionToken(
      { apiKey: options.apiKey, apiSecret: options.apiSecret, clock },
      {
        shop: mintOptions.shop ?? options.shopDomain,
        userId: mintOptions.userId ?? store.accountOwner()?.id ?? 1,
        ttlSeconds: mintOptions.ttlSeconds,
      },
    );

  registerTokenExchange(app, {
    store,
    shopDomain: options.shopDomain,
    apiKey: options.apiKey,
    apiSecret: options.apiSecret,
    clock,
    scope: () => installationScopes().join(","),
  });

  const admin: LocalAdmin = {
    app,
    store,
    webhooks,
    bulkOperations,
    throttle,
    appConfig,
    shopDomain: options.shopDomain,
    apiKey: options.apiKey,
    mintSessionToken: mint,
    mintCustomerSessionToken: (customerId, tokenOptions = {}) =>
      mintCustomerSessionToken(
        { apiKey: options.apiKey, apiSecret: options.apiSecret, clock },
        { shop: options.shopDomain, customerId, ttlSeconds: tokenOptions.ttlSeconds },
      ),
    issueAccessToken: (kind = "offline") =>
      store.issueAccessToken({
        kind,
        scope: installationScopes().join(","),
        userId: kind === "online" ? (store.accountOwner()?.id ?? null) : null,
        expiresInSeconds: kind === "online" ? ONLINE_TOKEN_TTL_SECONDS : undefined,
      }).token,
    graphql: (request, requestOrigin = origin) => runGraphql(request, requestOrigin, installationScopes().join(",")),
    grantedScopes: installationScopes,
    runFlowAction: (call) =>
      callFlowAction(store, { actions: flowExtensions(), appUrl: options.appUrl, apiSecret: options.apiSecret, shopDomain: options.shopDomain }, call),
    changeFlowWorkflow: (change) =>
      changeFlowWorkflow(store, change, {
        extensions: flowExtensions(),
        appUrl: options.appUrl,
        apiSecret: options.apiSecret,
        shopDomain: options.shopDomain,
        fetch: options.fetch,
      }),
    grantOptionalScopes(scopes) {
      const undeclared = scopes.filter((scope) => !appConfig.optionalScopes.includes(scope));
      if (undeclared.length > 0) throw new Error(`Not optional scopes of the app (shopify.app.toml's optional_scopes): ${undeclared.join(", ")}`);
      return store.grantOptionalScopes(requiredScopes, scopes);
    },
    async listen({ port = 0, host = "127.0.0.1" } = {}) {
      const address = await app.listen({ port, host });
      origin = address.replace("[::1]", "localhost");
      return origin;
    },
    async close() {
      webhooks.close();
      await bulkOperations.idle();
      await app.close();
      store.close();
    },
  };
  void app.register(shellPlugin, { admin, appUrl: options.appUrl, ...(options.extensionsDir ? { extensionsDir: options.extensionsDir } : {}) });
  options.registerRoutes?.(app, admin);
  webhooks.start();
  return admin;
}
