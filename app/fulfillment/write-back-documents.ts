import { z } from "zod";
import type { FulfillmentOrderLineState, FulfillmentOrderState, ShipmentState } from "./write-back-plan";
import type { AdminDocument } from "../shopify/admin-document";
import type {
  CreateShipmentFulfillmentMutation,
  CreateShipmentFulfillmentMutationVariables,
  FulfillmentOrdersForWriteBackQuery,
  FulfillmentOrdersForWriteBackQueryVariables,
  FulfillmentWriteBackStateQuery,
  FulfillmentWriteBackStateQueryVariables,
} from "../types/admin.generated";

/**
 * The Admin GraphQL the write-back sends, with zod for the parts it relies on. Sized for the cost bucket:
 * the state read is about 105 + 2 per line requested (10–20 actual), the create 12 (11 actual), and a page of
 * the order's fulfillment orders, read only when units moved, about 435 (it fits Shopify's smallest bucket).
 */

/** How many of an order's recent fulfillments are read to look for the tracking number. */
export const FULFILLMENTS_READ = 25;

/** A fulfillment order's state as the plan reads it, in the state read and in the order's fulfillment orders. */
const WRITE_BACK_FULFILLMENT_ORDER_FIELDS = `#graphql
  fragment WriteBackFulfillmentOrderFields on FulfillmentOrder {
    id
    status
    requestStatus
    fulfillAt
    supportedActions {
      action
    }
    fulfillmentHolds {
      reason
      reasonNotes
    }
    assignedLocation {
      name
    }
  }
`;

const WRITE_BACK_LINE_FIELDS = `#graphql
  fragment WriteBackLineFields on FulfillmentOrderLineItem {
    id
    remainingQuantity
    lineItem {
      id
      name
    }
  }
`;

export const WRITE_BACK_STATE = `#graphql
  query FulfillmentWriteBackState($fulfillmentOrderId: ID!, $lineIds: [ID!]!, $orderId: ID!, $fulfillmentsFirst: Int!, $fulfillmentsQuery: String!) {
    fulfillmentOrder(id: $fulfillmentOrderId) {
      ...WriteBackFulfillmentOrderFields
    }
    fulfillmentOrderLines: nodes(ids: $lineIds) {
      ...WriteBackLineFields
    }
    order(id: $orderId) {
      id
      name
      cancelledAt
      fulfillments(first: $fulfillmentsFirst, query: $fulfillmentsQuery) {
        id
        status
        trackingInfo(first: 3) {
          number
        }
      }
    }
  }
  ${WRITE_BACK_FULFILLMENT_ORDER_FIELDS}
  ${WRITE_BACK_LINE_FIELDS}
` as AdminDocument<FulfillmentWriteBackStateQuery, FulfillmentWriteBackStateQueryVariables>;

export const ORDER_FULFILLMENT_ORDERS = `#graphql
  query FulfillmentOrdersForWriteBack($orderId: ID!, $after: String) {
    order(id: $orderId) {
      fulfillmentOrders(first: 5, after: $after) {
        nodes {
          ...WriteBackFulfillmentOrderFields
          lineItems(first: 40) {
            nodes {
              ...WriteBackLineFields
            }
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
  ${WRITE_BACK_FULFILLMENT_ORDER_FIELDS}
  ${WRITE_BACK_LINE_FIELDS}
` as AdminDocument<FulfillmentOrdersForWriteBackQuery, FulfillmentOrdersForWriteBackQueryVariables>;

export const CREATE_FULFILLMENT = `#graphql
  mutation CreateShipmentFulfillment($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
` as AdminDocument<CreateShipmentFulfillmentMutation, CreateShipmentFulfillmentMutationVariables>;

const FoLine = z.object({
  id: z.string(),
  remainingQuantity: z.number().int(),
  lineItem: z.object({ id: z.string(), name: z.string() }),
});

const FoFields = {
  id: z.string(),
  status: z.string(),
  requestStatus: z.string(),
  fulfillAt: z.string().nullable(),
  supportedActions: z.array(z.object({ action: z.string() })),
  fulfillmentHolds: z.array(z.object({ reason: z.string(), reasonNotes: z.string().nullable() })),
  assignedLocation: z.object({ name: z.string().nullable() }).nullable(),
};

export const WriteBackStateData = z.object({
  fulfillmentOrder: z.object(FoFields).nullable(),
  // nodes() answers null for an id Shopify no longer knows; a node of another type would come back empty.
  fulfillmentOrderLines: z.array(FoLine.nullable().catch(null)),
  order: z
    .object({
      id: z.string(),
      name: z.string(),
      cancelledAt: z.string().nullable(),
      fulfillments: z.array(z.object({ id: z.string(), status: z.string(), trackingInfo: z.array(z.object({ number: z.string().nullable() })) })),
    })
    .nullable(),
});

export const OrderFulfillmentOrdersData = z.object({
  order: z
    .object({
      fulfillmentOrders: z.object({
        nodes: z.array(z.object({ ...FoFields, lineItems: z.object({ nodes: z.array(FoLine) }) })),
        pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
      }),
    })
    .nullable(),
});

export const CreateFulfillmentData = z.object({
  fulfillmentCreate: z
    .object({
      fulfillment: z.object({ id: z.string() }).nullable(),
      userErrors: z.array(z.object({ field: z.array(z.string()).nullable(), message: z.string() })),
    })
    .nullable(),
});

function lineState(line: z.infer<typeof FoLine>): FulfillmentOrderLineState {
  return { id: line.id, lineItemId: line.lineItem.id, name: line.lineItem.name, remainingQuantity: line.remainingQuantity };
}

function foState(fo: z.infer<z.ZodObject<typeof FoFields>>): Omit<FulfillmentOrderState, "lines"> {
  return {
    id: fo.id,
    status: fo.status,
    requestStatus: fo.requestStatus,
    fulfillAt: fo.fulfillAt,
    supportedActions: fo.supportedActions.map((entry) => entry.action),
    holds: fo.fulfillmentHolds,
    locationName: fo.assignedLocation?.name ?? null,
  };
}

/** The state read, in the plan's terms; `lineIds` are the shipment's line ids in its order. */
export function toShipmentState(data: z.infer<typeof WriteBackStateData>, lineIds: readonly string[]): ShipmentState {
  const byId = new Map(data.fulfillmentOrderLines.flatMap((line) => (line ? [[line.id, lineState(line)] as const] : [])));
  return {
    order: data.order
      ? {
          name: data.order.name,
          cancelledAt: data.order.cancelledAt,
          fulfillments: data.order.fulfillments.map((fulfillment) => ({
            id: fulfillment.id,
            status: fulfillment.status,
            trackingNumbers: fulfillment.trackingInfo.flatMap((info) => (info.number ? [info.number] : [])),
          })),
          fulfillmentsTruncated: data.order.fulfillments.length >= FULFILLMENTS_READ,
        }
      : null,
    fulfillmentOrder: data.fulfillmentOrder ? foState(data.fulfillmentOrder) : null,
    lines: lineIds.map((id) => byId.get(id) ?? null),
  };
}

export function toFulfillmentOrderStates(data: z.infer<typeof OrderFulfillmentOrdersData>): FulfillmentOrderState[] {
  return (data.order?.fulfillmentOrders.nodes ?? []).map((fo) => ({ ...foState(fo), lines: fo.lineItems.nodes.map(lineState) }));
}
