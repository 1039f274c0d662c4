import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from "fastify";
import type { z } from "zod";
import { type EndpointAuth, type EndpointDefinition, type EndpointName, type Endpoints, endpointList, formatIssues } from "../../shipping-api/contract";
import type { Catalog } from "../catalog";
import type { Clock } from "../clock";
import type { ServiceStore } from "../db/store";
import { batchQuote } from "../domain/quotes";
import { addToBatch, cancelBatch, createBatch, deleteBatch, getBatch, listBatches, removeFromBatch } from "../domain/batches";
import { batchLabels, bookBatch, bookShipment, shipmentLabel } from "../domain/booking";
import { createDomainContext } from "../domain/context";
import { createCustomer } from "../domain/customers";
import { listProviderAccounts } from "../domain/provider-accounts";
import { listServices } from "../domain/services";
import { searchShipments, trackShipment } from "../domain/shipments";
import { ErrorCategories, ServiceError, forbidden, invalidRequest } from "../errors";
import { checkPartnerKey, createCustomerAuthenticator } from "./auth";

export interface ShippingServiceOptions {
  /** The opened service database (see openServiceStore); the caller owns and closes it. */
  db: ServiceStore;
  clock: Clock;
  /** Bearer key for Create Customer. */
  partnerKey: string;
  /** Key material for sealing provider-account secrets (AES-256-GCM). */
  secretsKey: string;
  /** Fastify's pino logger options; false for silence (tests). */
  logger?: FastifyServerOptions["logger"];
  catalog?: Catalog;
  /** Labels are kept this many days after booking; default 90. */
  labelRetentionDays?: number;
  /** Check every response against the contract before sending (500 if it breaks it). Default true. */
  validateResponses?: boolean;
  /** Largest accepted request body; default 10 MiB. */
  bodyLimitBytes?: number;
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;
interface HandlerInput<E extends EndpointDefinition> {
  /** Authenticated customer (customer endpoints) — always equal to params.customerId. */
  customerId: string;
  params: z.output<E["params"]>;
  query: Output<E["query"]>;
  body: Output<E["body"]>;
}
type Handlers = { [N in EndpointName]: (input: HandlerInput<Endpoints[N]>) => z.input<Endpoints[N]["response"]> | Promise<z.input<Endpoints[N]["response"]>> };

function errorBody(message: string, category: string) {
  return { error: message, errorCategory: category };
}

function parsePart<S extends z.ZodType>(schema: S, value: unknown, part: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidRequest(`Invalid ${part}: ${formatIssues(parsed.error)}`);
  return parsed.data;
}

/** `/a/:b/c` → a regex over request paths, to tell "wrong method" (405) from "no such route" (404). */
function routePattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z]+/g, "[^/]+")}/?$`);
}

/**
 * The Shipping API service as a Fastify app. Routes come from the contract's endpoint table: each is
 * authenticated (Basic per customer, Bearer partner key), its params/query/body parsed with the
 * contract's schemas (400 naming the field), handed to one domain function, and its response checked
 * against the contract. Every non-2xx body is `{error, errorCategory}`.
 */
export function createShippingService(options: ShippingServiceOptions): FastifyInstance {
  const ctx = createDomainContext({
    store: options.db,
    clock: options.clock,
    secretsKey: options.secretsKey,
    catalog: options.catalog,
    labelRetentionDays: options.labelRetentionDays,
  });
  const validateResponses = options.validateResponses ?? true;
  const authenticate = createCustomerAuthenticator(ctx);
  const services = listServices(ctx.catalog);

  const handlers: Handlers = {
    batchQuote: ({ customerId, body }) => batchQuote(ctx, customerId, body),
    createBatch: ({ customerId, body }) => createBatch(ctx, customerId, body),
    listBatches: ({ customerId, query }) => listBatches(ctx, customerId, query),
    getBatch: ({ customerId, params }) => getBatch(ctx, customerId, params.batchId),
    addToBatch: ({ customerId, params, body }) => addToBatch(ctx, customerId, params.batchId, body.quoteIds),
    removeFromBatch: ({ customerId, params }) => removeFromBatch(ctx, customerId, params.batchId, params.quoteId),
    cancelBatch: ({ customerId, params }) => cancelBatch(ctx, customerId, params.batchId),
    deleteBatch: ({ customerId, params }) => deleteBatch(ctx, customerId, params.batchId),
    batchBook: ({ customerId, body }) => bookBatch(ctx, customerId, body.batchId),
    getBatchLabels: ({ customerId, params }) => batchLabels(ctx, customerId, params.batchId),
    bookShipment: ({ customerId, body }) => bookShipment(ctx, customerId, body),
    getShipmentLabel: ({ customerId, params }) => shipmentLabel(ctx, customerId, params.bookNumber),
    searchShipments: ({ customerId, body }) => searchShipments(ctx, customerId, body.keyword),
    listServices: () => services,
    trackShipment: ({ customerId, params }) => trackShipment(ctx, customerId, params.bookNumber),
    listProviderAccounts: ({ customerId }) => listProviderAccounts(ctx, customerId),
    createCustomer: ({ body }) => createCustomer(ctx, body),
  };

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimitBytes ?? 10 * 1024 * 1024,
    // Case-sensitive paths as in the spec (searchShipments); no trailing-slash duplicates.
    routerOptions: { ignoreTrailingSlash: true },
  });

  // JSON only; an empty body is "no body" (body-less POSTs such as Cancel Batch may still send the header).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(["application/json", "application/*+json"], { parseAs: "string" }, (_request, text, done) => {
    if ((text as string).trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text as string));
    } catch (error) {
      done(invalidRequest(`Request body is not valid JSON: ${(error as Error).message}`), undefined);
    }
  });

  async function authorise(auth: EndpointAuth, request: FastifyRequest): Promise<string> {
    if (auth === "partner") {
      checkPartnerKey(request.headers.authorization, options.partnerKey);
      return "";
    }
    const customerId = await authenticate(request.headers.authorization);
    const pathCustomer = (request.params as Record<string, string>).customerId;
    if (pathCustomer !== customerId) throw forbidden(`These credentials belong to another customer than ${pathCustomer}`);
    return customerId;
  }

  function route(endpoint: EndpointDefinition): void {
    const handler = handlers[endpoint.name as EndpointName] as (input: HandlerInput<EndpointDefinition>) => unknown;
    app.route({
      method: endpoint.method,
      url: endpoint.path,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const customerId = await authorise(endpoint.auth, request);
        const input = {
          customerId,
          params: parsePart(endpoint.params, request.params, "path parameters"),
          query: endpoint.query ? parsePart(endpoint.query, request.query, "query") : undefined,
          body: endpoint.body ? parsePart(endpoint.body, request.body, "body") : undefined,
        } as HandlerInput<EndpointDefinition>;
        const result = await handler(input);
        if (validateResponses) {
          const checked = endpoint.response.safeParse(result);
          if (!checked.success) {
            request.log.error({ endpoint: endpoint.name, issues: checked.error.issues.slice(0, 5) }, "response breaks the contract");
            throw new ServiceError(500, "INTERNAL_ERROR", `The ${endpoint.name} response broke the contract: ${formatIssues(checked.error).slice(0, 500)}`);
          }
        }
        // The raw result is sent, not the parsed one: response schemas normalise (e.g. drop aliases).
        return reply.code(endpoint.successStatus).send(result);
      },
    });
  }
  for (const endpoint of endpointList) route(endpoint);

  app.get("/healthz", async () => ({ status: "ok" }));

  const patterns = [
    ...endpointList.map((endpoint) => ({ method: endpoint.method, pattern: routePattern(endpoint.path) })),
    { method: "GET", pattern: /^\/healthz\/?$/ },
  ];
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    const allowed = [...new Set(patterns.filter((entry) => entry.pattern.test(path)).map((entry) => entry.method))];
    if (allowed.length > 0) {
      return reply.code(405).header("allow", allowed.join(", ")).send(errorBody(`Method ${request.method} is not allowed on ${path}; use ${allowed.join(" or ")}`, ErrorCategories.METHOD_NOT_ALLOWED));
    }
    return reply.code(404).send(errorBody(`No route ${request.method} ${path}`, ErrorCategories.NOT_FOUND));
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (error instanceof ServiceError) {
      if (error.status === 401) reply.header("www-authenticate", 'Basic realm="shipping-api"');
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      return reply.code(error.status).send(errorBody(error.message, error.category));
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return reply.code(413).send(errorBody(`Request body is larger than the ${app.initialConfig.bodyLimit} byte limit`, ErrorCategories.PAYLOAD_TOO_LARGE));
    if (status === 415) return reply.code(415).send(errorBody(`Content-Type must be application/json, got ${request.headers["content-type"] ?? "none"}`, ErrorCategories.INVALID_REQUEST));
    if (status >= 400 && status < 500) return reply.code(status).send(errorBody(error.message, ErrorCategories.INVALID_REQUEST));
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send(errorBody("Internal error; the service log has the details", ErrorCategories.INTERNAL_ERROR));
  });

  return app;
}
