import { z } from "zod";
import { MIRRORED_ADDRESS_FIELDS } from "../orders/order-documents";
import { MailingAddressNode } from "../orders/order-node";
import type { AdminDocument } from "../shopify/admin-document";
import type {
  ApproveReturnMutation,
  ApproveReturnMutationVariables,
  AttachReturnLabelMutation,
  AttachReturnLabelMutationVariables,
  DeclineReturnMutation,
  DeclineReturnMutationVariables,
  ReturnForConsignQuery,
  ReturnForConsignQueryVariables,
  ReturnsToReconcileQuery,
  ReturnsToReconcileQueryVariables,
  UpdateReturnTrackingMutation,
  UpdateReturnTrackingMutationVariables,
} from "../types/admin.generated";

/**
 * The Admin GraphQL documents of returns (docs/decisions/041), with zod for the parts Consign relies on. One
 * return's read selects what the Returns page and a return label need (its lines with their weights and reasons,
 * the order's shipping address, its reverse fulfillment orders with their deliveries); the reconcile reads the same
 * fields for the returns of the orders Shopify says have one in progress.
 */

/** Lines of a return read at once: more than a parcel holds. */
export const RETURN_LINES_READ = 50;

const RETURN_FIELDS = `#graphql
  fragment ConsignReturnFields on Return {
    id
    name
    status
    createdAt
    requestApprovedAt
    closedAt
    order {
      id
      name
      shippingAddress {
        ...MirroredAddressFields
      }
      fulfillments(first: 5) {
        id
        fulfillmentLineItems(first: 25) {
          nodes {
            id
          }
        }
      }
    }
    returnLineItems(first: 50) {
      nodes {
        id
        quantity
        customerNote
        returnReasonNote
        returnReasonDefinition {
          name
        }
        ... on ReturnLineItem {
          totalWeight {
            unit
            value
          }
          fulfillmentLineItem {
            id
            lineItem {
              id
              title
              variantTitle
              sku
            }
          }
        }
      }
    }
    reverseFulfillmentOrders(first: 2) {
      nodes {
        id
        status
        lineItems(first: 50) {
          nodes {
            id
            totalQuantity
            fulfillmentLineItem {
              id
            }
          }
        }
        reverseDeliveries(first: 5) {
          nodes {
            id
            deliverable {
              ... on ReverseDeliveryShippingDeliverable {
                tracking {
                  number
                }
              }
            }
          }
        }
      }
    }
  }
`;

export const RETURN_FOR_CONSIGN = `#graphql
  query ReturnForConsign($id: ID!) {
    return(id: $id) {
      ...ConsignReturnFields
    }
  }
  ${RETURN_FIELDS}
  ${MIRRORED_ADDRESS_FIELDS}
` as AdminDocument<ReturnForConsignQuery, ReturnForConsignQueryVariables>;

/**
 * Orders with a return requested or in progress, a page at a time, with their returns' ids (each return is then
 * read on its own: the whole return of ten orders at once would cost more than a query may).
 */
export const RETURNS_TO_RECONCILE = `#graphql
  query ReturnsToReconcile($after: String, $query: String!) {
    orders(first: 25, after: $after, query: $query, sortKey: UPDATED_AT, reverse: true) {
      nodes {
        id
        returns(first: 10) {
          nodes {
            id
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
` as AdminDocument<ReturnsToReconcileQuery, ReturnsToReconcileQueryVariables>;

export const APPROVE_RETURN = `#graphql
  mutation ApproveReturn($input: ReturnApproveRequestInput!) {
    returnApproveRequest(input: $input) {
      return {
        id
        status
      }
      userErrors {
        field
        message
      }
    }
  }
` as AdminDocument<ApproveReturnMutation, ApproveReturnMutationVariables>;

export const DECLINE_RETURN = `#graphql
  mutation DeclineReturn($input: ReturnDeclineRequestInput!) {
    returnDeclineRequest(input: $input) {
      return {
        id
        status
      }
      userErrors {
        field
        message
      }
    }
  }
` as AdminDocument<DeclineReturnMutation, DeclineReturnMutationVariables>;

export const ATTACH_RETURN_LABEL = `#graphql
  mutation AttachReturnLabel(
    $reverseFulfillmentOrderId: ID!
    $lines: [ReverseDeliveryLineItemInput!]!
    $tracking: ReverseDeliveryTrackingInput
    $label: ReverseDeliveryLabelInput
  ) {
    reverseDeliveryCreateWithShipping(
      reverseFulfillmentOrderId: $reverseFulfillmentOrderId
      reverseDeliveryLineItems: $lines
      trackingInput: $tracking
      labelInput: $label
      notifyCustomer: true
    ) {
      reverseDelivery {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
` as AdminDocument<AttachReturnLabelMutation, AttachReturnLabelMutationVariables>;

export const UPDATE_RETURN_TRACKING = `#graphql
  mutation UpdateReturnTracking($reverseDeliveryId: ID!, $tracking: ReverseDeliveryTrackingInput, $label: ReverseDeliveryLabelInput) {
    reverseDeliveryShippingUpdate(reverseDeliveryId: $reverseDeliveryId, trackingInput: $tracking, labelInput: $label, notifyCustomer: true) {
      reverseDelivery {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
` as AdminDocument<UpdateReturnTrackingMutation, UpdateReturnTrackingMutationVariables>;

const Weight = z.object({ unit: z.enum(["GRAMS", "KILOGRAMS", "OUNCES", "POUNDS"]), value: z.number() }).nullable();

const nodes = <T extends z.ZodType>(node: T) => z.object({ nodes: z.array(node) });

export const ReturnNode = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  createdAt: z.string(),
  requestApprovedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  order: z.object({
    id: z.string(),
    name: z.string(),
    shippingAddress: MailingAddressNode.nullable(),
    /**
     * The order's fulfillments and their lines: which parcel each returned item shipped in (a label in its box fits).
     * Five of 25 lines keep the read under Shopify's cost of 1000; an item not found is in no parcel, offered no box label.
     */
    fulfillments: z.array(z.object({ id: z.string(), fulfillmentLineItems: nodes(z.object({ id: z.string() })) })),
  }),
  returnLineItems: nodes(
    z.object({
      id: z.string(),
      quantity: z.number().int(),
      customerNote: z.string().nullable(),
      returnReasonNote: z.string().nullable().optional(),
      returnReasonDefinition: z.object({ name: z.string() }).nullable().optional(),
      totalWeight: Weight.optional(),
      fulfillmentLineItem: z
        .object({
          id: z.string(),
          lineItem: z.object({ id: z.string(), title: z.string(), variantTitle: z.string().nullable(), sku: z.string().nullable() }),
        })
        .nullable()
        .optional(),
    }),
  ),
  reverseFulfillmentOrders: nodes(
    z.object({
      id: z.string(),
      status: z.string(),
      lineItems: nodes(z.object({ id: z.string(), totalQuantity: z.number().int(), fulfillmentLineItem: z.object({ id: z.string() }).nullable() })),
      reverseDeliveries: nodes(
        z.object({
          id: z.string(),
          deliverable: z.object({ tracking: z.object({ number: z.string().nullable() }).nullable().optional() }).nullable(),
        }),
      ),
    }),
  ),
});
export type ReturnNode = z.infer<typeof ReturnNode>;

export const ReturnForConsignData = z.object({ return: ReturnNode.nullable() });

export const ReturnsToReconcileData = z.object({
  orders: z.object({
    nodes: z.array(z.object({ id: z.string(), returns: nodes(z.object({ id: z.string() })) })),
    pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
  }),
});

const UserErrors = z.array(z.object({ field: z.array(z.string()).nullable(), message: z.string() }));

const ReturnPayload = z.object({ return: z.object({ id: z.string(), status: z.string() }).nullable(), userErrors: UserErrors }).nullable();
export const ApproveReturnData = z.object({ returnApproveRequest: ReturnPayload });
export const DeclineReturnData = z.object({ returnDeclineRequest: ReturnPayload });

export const DeliveryPayload = z.object({ reverseDelivery: z.object({ id: z.string() }).nullable(), userErrors: UserErrors }).nullable();
export const AttachReturnLabelData = z.object({ reverseDeliveryCreateWithShipping: DeliveryPayload });
export const UpdateReturnTrackingData = z.object({ reverseDeliveryShippingUpdate: DeliveryPayload });
