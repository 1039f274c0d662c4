import { z } from "zod";
import {
  AddToBatchRequest,
  Batch,
  BatchBookRequest,
  BatchBookResponse,
  BatchDetail,
  BatchLabelsResponse,
  CreateBatchRequest,
  ListBatchesQuery,
  ListBatchesResponse,
} from "./batch";
import { OkResponse } from "./errors";
import { IdParam, NonEmptyString } from "./primitives";
import { BatchQuoteResponse } from "./quote";
import {
  CreateCustomerRequest,
  CreateCustomerResponse,
  ListProviderAccountsResponse,
  ListServicesResponse,
  SearchShipmentsRequest,
  SearchShipmentsResponse,
  TrackingResponse,
} from "./records";
import { BatchQuoteRequest, BookShipmentRequest, BookShipmentResponse, ShipmentLabelResponse } from "./shipment";

export type HttpMethod = "GET" | "POST" | "DELETE";

/** `customer`: `Authorization: Basic base64(email:password)`; `partner`: `Authorization: Bearer <key>`. */
export type EndpointAuth = "customer" | "partner";

/**
 * One operation of the Shipping API. `path` uses `:name` segments, which both the client
 * (see {@link buildPath}) and a fastify router understand; `params` validates those segments
 * (strings in a URL, coerced where they are numbers).
 */
export interface EndpointDefinition {
  name: string;
  method: HttpMethod;
  path: string;
  auth: EndpointAuth;
  params: z.ZodObject;
  query: z.ZodObject | null;
  body: z.ZodType | null;
  response: z.ZodType;
  successStatus: 200 | 201;
}

const CustomerParams = z.object({ customerId: NonEmptyString });
const BatchParams = CustomerParams.extend({ batchId: IdParam });
const BatchQuoteParams = BatchParams.extend({ quoteId: IdParam });
const BookNumberParams = CustomerParams.extend({ bookNumber: NonEmptyString });
const NoParams = z.object({});

const CUSTOMER = "/restapi/v1/customers/:customerId";

/**
 * A list of endpoint definitions keyed by name, each keeping its literal type (for the client's methods and the
 * router's handlers). The contract's table and the service's portal routes are both built with it.
 */
export function defineEndpoints<const T extends readonly EndpointDefinition[]>(list: T): { readonly [E in T[number] as E["name"]]: E } {
  return Object.fromEntries(list.map((endpoint) => [endpoint.name, endpoint])) as {
    readonly [E in T[number] as E["name"]]: E;
  };
}

/**
 * The endpoints of the Shipping API, keyed by name: the spec's 16 plus Get Shipment Label, which the spec
 * refers to ("Retrieve Shipping Label") without showing. The client and the service router are both built from it.
 */
export const endpoints = defineEndpoints([
  {
    name: "batchQuote",
    method: "POST",
    path: `${CUSTOMER}/batch-quote`,
    auth: "customer",
    params: CustomerParams,
    query: null,
    body: BatchQuoteRequest,
    response: BatchQuoteResponse,
    successStatus: 200,
  },
  {
    name: "createBatch",
    method: "POST",
    path: `${CUSTOMER}/batch`,
    auth: "customer",
    params: CustomerParams,
    query: null,
    body: CreateBatchRequest,
    response: Batch,
    successStatus: 201,
  },
  {
    name: "listBatches",
    method: "GET",
    path: `${CUSTOMER}/batch`,
    auth: "customer",
    params: CustomerParams,
    query: ListBatchesQuery,
    body: null,
    response: ListBatchesResponse,
    successStatus: 200,
  },
  {
    name: "getBatch",
    method: "GET",
    path: `${CUSTOMER}/batch/:batchId`,
    auth: "customer",
    params: BatchParams,
    query: null,
    body: null,
    response: BatchDetail,
    successStatus: 200,
  },
  {
    name: "addToBatch",
    method: "POST",
    path: `${CUSTOMER}/batch/:batchId/quotes`,
    auth: "customer",
    params: BatchParams,
    query: null,
    body: AddToBatchRequest,
    response: Batch,
    successStatus: 200,
  },
  {
    name: "removeFromBatch",
    method: "DELETE",
    path: `${CUSTOMER}/batch/:batchId/quotes/:quoteId`,
    auth: "customer",
    params: BatchQuoteParams,
    query: null,
    body: null,
    response: OkResponse,
    successStatus: 200,
  },
  {
    name: "cancelBatch",
    method: "POST",
    path: `${CUSTOMER}/batch/:batchId/cancel`,
    auth: "customer",
    params: BatchParams,
    query: null,
    body: null,
    response: Batch,
    successStatus: 200,
  },
  {
    name: "deleteBatch",
    method: "DELETE",
    path: `${CUSTOMER}/batch/:batchId`,
    auth: "customer",
    params: BatchParams,
    query: null,
    body: null,
    response: OkResponse,
    successStatus: 200,
  },
  {
    name: "batchBook",
    method: "POST",
    path: `${CUSTOMER}/batch-book`,
    auth: "customer",
    params: CustomerParams,
    query: null,
    body: BatchBookRequest,
    response: BatchBookResponse,
    successStatus: 200,
  },
  {
    name: "getBatchLabels",
    method: "GET",
    path: `${CUSTOMER}/batch/:batchId/labels`,
    auth: "customer",
    params: BatchParams,
    query: null,
    body: null,
    response: BatchLabelsResponse,
    successStatus: 200,
  },
  {
    name: "bookShipment",
    method: "POST",
    path: `${CUSTOMER}/shipments`,
    auth: "customer",
    params: CustomerParams,
    query: null,
    body: BookShipmentRequest,
    response: BookShipmentResponse,
    successStatus: 201,
  },
  {
    name: "getShipmentLabel",
    method: "GET",
    path: `${CUSTOMER}/shipments/:bookNumber/label`,
    auth: "customer",
    params: BookNumberParams,
    query: null,
    body: null,
    response: ShipmentLabelResponse,
    successStatus: 200,
  },
  {
    name: "searchShipments",
    method: "POST",
    path: `${CUSTOMER}/searchShipments`,
    auth: "customer",
    params: CustomerParams,
    query: null,
    body: SearchShipmentsRequest,
    response: SearchShipmentsResponse,
    successStatus: 200,
  },
  {
    name: "listServices",
    method: "GET",
    path: `${CUSTOMER}/services`,
    auth: "customer",
    params: CustomerParams,
    query: null,
    body: null,
    response: ListServicesResponse,
    successStatus: 200,
  },
  {
    name: "trackShipment",
    method: "GET",
    path: `${CUSTOMER}/shipments/:bookNumber/tracking-information`,
    auth: "customer",
    params: BookNumberParams,
    query: null,
    body: null,
    response: TrackingResponse,
    successStatus: 200,
  },
  {
    name: "listProviderAccounts",
    method: "GET",
    path: `${CUSTOMER}/provider-accounts`,
    auth: "customer",
    params: CustomerParams,
    query: null,
    body: null,
    response: ListProviderAccountsResponse,
    successStatus: 200,
  },
  {
    name: "createCustomer",
    method: "POST",
    path: "/restapi/v1/customers",
    auth: "partner",
    params: NoParams,
    query: null,
    body: CreateCustomerRequest,
    response: CreateCustomerResponse,
    successStatus: 201,
  },
]);

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

/** Every endpoint as a list (for routers). */
export const endpointList: readonly Endpoints[EndpointName][] = Object.values(endpoints);

/**
 * Fills the `:name` segments of an endpoint path, URL-encoding each value. Throws when a
 * segment has no value: callers validate params with the endpoint's `params` schema first.
 */
export function buildPath(path: string, params: Readonly<Record<string, string | number>>): string {
  return path.replace(/:([A-Za-z]+)/g, (_segment, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
