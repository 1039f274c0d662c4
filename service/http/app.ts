import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from "fastify";
import type { z } from "zod";
import {
  BatchQuoteEnvelope,
  type EndpointAuth,
  type EndpointDefinition,
  type EndpointName,
  type Endpoints,
  endpointList,
  formatIssues,
} from "../../shipping-api/contract";
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
import { searchShipments, trackShipment, voidShipment } from "../domain/shipments";
import { ErrorCategories, ServiceError, forbidden, invalidRequest } from "../errors";
import { checkPartnerKey, createCustomerAuthenticator } from "./auth";
import { answerOnSocket, lingerAfterResponse } from "../../lib/connection";
import { jsonCostProblem } from "./json-cost";
import { type PortalEndpointName, type PortalEndpoints, portalEndpointList } from "./portal";

/**
 * Largest accepted request body. 500 real shipments (international, with a commercial invoice and ten line
 * items each) are about 1.7 MB; the rest leaves room for long addresses and descriptions, and bounds what one
 * request can cost in memory (docs/decisions/009).
 */
export const DEFAULT_BODY_LIMIT_BYTES = 4 * 1024 * 1024;
/**
 * Longest path segment the router takes. Longer parameters than the contract's text limit are still routed,
 * so they are refused with a 400 naming the parameter; beyond this the router refuses with 414.
 */
export const MAX_PATH_PARAM_LENGTH = 1024;

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
  /** Largest accepted request body; default {@link DEFAULT_BODY_LIMIT_BYTES}. */
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
/**
 * Bodies the service checks as a whole less strictly than the contract, because it checks their parts one by
 * one: Batch Quote checks each shipment on its own (rule 1: one bad shipment is its own `status: "error"`).
 */
const serviceBodies: Partial<Record<EndpointName, z.ZodType>> = { batchQuote: BatchQuoteEnvelope };
type ServiceInput<N extends EndpointName> = N extends "batchQuote"
  ? Omit<HandlerInput<Endpoints[N]>, "body"> & { body: z.output<typeof BatchQuoteEnvelope> }
  : HandlerInput<Endpoints[N]>;
type Handlers = { [N in EndpointName]: (input: ServiceInput<N>) => z.input<Endpoints[N]["response"]> | Promise<z.input<Endpoints[N]["response"]>> };
type PortalHandlers = {
  [N in PortalEndpointName]: (
    input: HandlerInput<PortalEndpoints[N]>,
  ) => z.input<PortalEndpoints[N]["response"]> | Promise<z.input<PortalEndpoints[N]["response"]>>;
};

function errorBody(message: string, category: string) {
  return { error: message, errorCategory: category };
}

/** Echoes of client input in messages are cut short, so a refusal never costs more than the request. */
function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
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
 * against the contract. The provider's portal actions (http/portal.ts, outside `/restapi/v1/`) are routed the
 * same way from their own table. Every non-2xx body is `{error, errorCategory}`.
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
    batchQuote: ({ customerId, body }) => batchQuote(ctx, customerId, body.shipments),
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
  // The provider's portal, outside the Shipping API (http/portal.ts).
  const portalHandlers: PortalHandlers = {
    voidShipment: ({ customerId, params }) => voidShipment(ctx, customerId, params.bookNumber),
  };

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    // Case-sensitive paths as in the spec (searchShipments); no trailing-slash duplicates.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAM_LENGTH },
    // Refusals the router makes before any route runs, in the service's own body.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const path = request.url.split("?")[0] ?? "";
      if (error.code === "FST_ERR_BAD_URL") {
        return reply.code(400).send(errorBody(`The path ${clip(path)} is not valid percent-encoding`, ErrorCategories.INVALID_REQUEST));
      }
      if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
        return reply.code(414).send(errorBody(`A path segment is longer than ${MAX_PATH_PARAM_LENGTH} characters`, ErrorCategories.INVALID_REQUEST));
      }
      request.log.error({ err: error }, "router error");
      return reply.code(500).send(errorBody("Internal error; the service log has the details", ErrorCategories.INTERNAL_ERROR));
    },
    // Refusals the HTTP parser makes before there is a request: answered on the socket, which then closes.
    clientErrorHandler: (error: Error & { code?: string }, socket) => {
      if (error.code === "ECONNRESET") return;
      if (error.code === "HPE_HEADER_OVERFLOW") {
        return answerOnSocket(socket, error, 431, errorBody("The request headers are larger than the service takes (16 KiB)", ErrorCategories.INVALID_REQUEST));
      }
      if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
        return answerOnSocket(socket, error, 408, errorBody("The request was not received in time", ErrorCategories.INVALID_REQUEST));
      }
      return answerOnSocket(socket, error, 400, errorBody(`Malformed HTTP request (${error.code ?? "parse error"})`, ErrorCategories.INVALID_REQUEST));
    },
  });

  /**
   * A refusal sent before the request was read to the end (a body over the limit, a content type the service
   * does not read) closes the connection, and says so; one sent after it keeps the connection open.
   */
  function closeIfUnread(request: FastifyRequest, reply: FastifyReply): void {
    if (request.raw.complete) {
      reply.removeHeader("connection");
      return;
    }
    reply.header("connection", "close");
    lingerAfterResponse(request.raw.socket);
  }

  // JSON only; an empty body is "no body" (body-less POSTs such as Cancel Batch may still send the header).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(["application/json", "application/*+json"], { parseAs: "string" }, (_request, text, done) => {
    if ((text as string).trim() === "") return done(null, undefined);
    const tooCostly = jsonCostProblem(text as string);
    if (tooCostly) return done(invalidRequest(tooCostly), undefined);
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

  function route(endpoint: EndpointDefinition, handler: (input: HandlerInput<EndpointDefinition>) => unknown): void {
    app.route({
      method: endpoint.method,
      url: endpoint.path,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const customerId = await authorise(endpoint.auth, request);
        const input = {
          customerId,
          params: parsePart(endpoint.params, request.params, "path parameters"),
          query: endpoint.query ? parsePart(endpoint.query, request.query, "query") : undefined,
          body: endpoint.body ? parsePart(serviceBodies[endpoint.name as EndpointName] ?? endpoint.body, request.body, "body") : undefined,
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
  for (const endpoint of endpointList) route(endpoint, handlers[endpoint.name as EndpointName] as (input: HandlerInput<EndpointDefinition>) => unknown);
  for (const endpoint of portalEndpointList)
    route(endpoint, portalHandlers[endpoint.name as PortalEndpointName] as (input: HandlerInput<EndpointDefinition>) => unknown);

  app.get("/healthz", async () => ({ status: "ok" }));

  const patterns = [
    ...[...endpointList, ...portalEndpointList].map((endpoint) => ({ method: endpoint.method, pattern: routePattern(endpoint.path) })),
    { method: "GET", pattern: /^\/healthz\/?$/ },
  ];
  app.setNotFoundHandler((request, reply) => {
    closeIfUnread(request, reply);
    const path = request.url.split("?")[0] ?? "";
    const allowed = [...new Set(patterns.filter((entry) => entry.pattern.test(path)).map((entry) => entry.method))];
    if (allowed.length > 0) {
      return reply
        .code(405)
        .header("allow", allowed.join(", "))
        .send(errorBody(`Method ${clip(request.method)} is not allowed on ${clip(path)}; use ${allowed.join(" or ")}`, ErrorCategories.METHOD_NOT_ALLOWED));
    }
    return reply.code(404).send(errorBody(`No route ${clip(request.method)} ${clip(path)}`, ErrorCategories.NOT_FOUND));
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    closeIfUnread(request, reply);
    if (error instanceof ServiceError) {
      if (error.status === 401) reply.header("www-authenticate", 'Basic realm="shipping-api"');
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      return reply.code(error.status).send(errorBody(error.message, error.category));
    }
    const status = error.statusCode ?? 500;
    if (status === 413)
      return reply.code(413).send(errorBody(`Request body is larger than the ${app.initialConfig.bodyLimit} byte limit`, ErrorCategories.PAYLOAD_TOO_LARGE));
    if (status === 415)
      return reply
        .code(415)
        .send(errorBody(`Content-Type must be application/json, got ${clip(request.headers["content-type"] ?? "none")}`, ErrorCategories.INVALID_REQUEST));
    if (status >= 400 && status < 500) return reply.code(status).send(errorBody(error.message, ErrorCategories.INVALID_REQUEST));
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send(errorBody("Internal error; the service log has the details", ErrorCategories.INTERNAL_ERROR));
  });

  return app;
}
