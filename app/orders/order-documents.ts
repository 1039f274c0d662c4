import type { AdminDocument } from "../shopify/admin-document";
import type {
  BulkOperationStatusQuery,
  BulkOperationStatusQueryVariables,
  FulfillmentOrdersToShipBulkQuery,
  FulfillmentOrdersToShipBulkQueryVariables,
  OrderForShippingQuery,
  OrderForShippingQueryVariables,
  RunBulkQueryMutation,
  RunBulkQueryMutationVariables,
} from "../types/admin.generated";

/**
 * The Admin GraphQL documents the order mirror reads with. A single order and the bulk export select the
 * same fields through shared fragments (order, address, fulfillment order, fulfillment order line), so one
 * parser (order-node.ts) serves a single order and a bulk export reassembled from JSONL. Each operation
 * interpolates every fragment it uses, once: the text sent is complete, and codegen, which strips the
 * interpolations, finds the fragments as documents of their own. The single-order read is sized to stay
 * well under the 1,000-point query limit (3 fulfillment orders × 25 lines, about 550 points); larger
 * orders are complete in the bulk export, which has no such limit.
 */

/** A mailing address as Consign keeps one (app/orders/order-node.ts MailingAddressNode); returns read the order's with it too. */
export const MIRRORED_ADDRESS_FIELDS = `#graphql
  fragment MirroredAddressFields on MailingAddress {
    name
    firstName
    lastName
    company
    address1
    address2
    city
    province
    provinceCode
    zip
    countryCodeV2
    phone
  }
`;

const MIRRORED_ORDER_FIELDS = `#graphql
  fragment MirroredOrderFields on Order {
    id
    name
    createdAt
    updatedAt
    cancelledAt
    email
    customer {
      id
    }
    currencyCode
    tags
    displayFulfillmentStatus
    note
    customAttributes {
      key
      value
    }
    shippingLine {
      title
      originalPriceSet {
        shopMoney {
          amount
          currencyCode
        }
      }
    }
    shippingAddress {
      ...MirroredAddressFields
    }
  }
`;

/** A fulfillment order without its lines: the two reads page its lines differently. */
const MIRRORED_FULFILLMENT_ORDER_FIELDS = `#graphql
  fragment MirroredFulfillmentOrderFields on FulfillmentOrder {
    id
    status
    requestStatus
    deliveryMethod {
      methodType
    }
    assignedLocation {
      location {
        id
        isFulfillmentService
      }
    }
    supportedActions {
      action
    }
    fulfillmentHolds {
      reason
      reasonNotes
    }
  }
`;

const MIRRORED_LINE_FIELDS = `#graphql
  fragment MirroredLineFields on FulfillmentOrderLineItem {
    id
    sku
    productTitle
    variantTitle
    remainingQuantity
    totalQuantity
    requiresShipping
    weight {
      unit
      value
    }
    originalUnitPriceSet {
      shopMoney {
        amount
      }
    }
    lineItem {
      id
    }
    variant {
      id
      product {
        id
      }
      inventoryItem {
        harmonizedSystemCode
        countryCodeOfOrigin
      }
    }
  }
`;

export const ORDER_FOR_SHIPPING = `#graphql
  query OrderForShipping($id: ID!) {
    order(id: $id) {
      ...MirroredOrderFields
      fulfillmentOrders(first: 3, displayable: true) {
        edges {
          node {
            ...MirroredFulfillmentOrderFields
            lineItems(first: 25) {
              edges {
                node {
                  ...MirroredLineFields
                }
              }
            }
          }
        }
      }
    }
  }
  ${MIRRORED_ORDER_FIELDS}
  ${MIRRORED_ADDRESS_FIELDS}
  ${MIRRORED_FULFILLMENT_ORDER_FIELDS}
  ${MIRRORED_LINE_FIELDS}
` as AdminDocument<OrderForShippingQuery, OrderForShippingQueryVariables>;

/**
 * Open fulfillment orders with their order, for the install backfill and reconciliation
 * (bulkOperationRunQuery, which accepts fragments as any query does). Fulfillment-order-centric because a
 * bulk query may nest connections only two levels deep: fulfillmentOrders → lineItems, with the order as a
 * plain object.
 */
export const FULFILLMENT_ORDERS_TO_SHIP_BULK = `#graphql
  query FulfillmentOrdersToShipBulk {
    fulfillmentOrders(includeClosed: false) {
      edges {
        node {
          ...MirroredFulfillmentOrderFields
          order {
            ...MirroredOrderFields
          }
          lineItems {
            edges {
              node {
                ...MirroredLineFields
              }
            }
          }
        }
      }
    }
  }
  ${MIRRORED_ORDER_FIELDS}
  ${MIRRORED_ADDRESS_FIELDS}
  ${MIRRORED_FULFILLMENT_ORDER_FIELDS}
  ${MIRRORED_LINE_FIELDS}
` as AdminDocument<FulfillmentOrdersToShipBulkQuery, FulfillmentOrdersToShipBulkQueryVariables>;

export const RUN_BULK_QUERY = `#graphql
  mutation RunBulkQuery($query: String!) {
    bulkOperationRunQuery(query: $query) {
      bulkOperation {
        id
        status
      }
      userErrors {
        field
        message
      }
    }
  }
` as AdminDocument<RunBulkQueryMutation, RunBulkQueryMutationVariables>;

export const BULK_OPERATION = `#graphql
  query BulkOperationStatus($id: ID!) {
    bulkOperation(id: $id) {
      id
      status
      errorCode
      objectCount
      url
    }
  }
` as AdminDocument<BulkOperationStatusQuery, BulkOperationStatusQueryVariables>;
