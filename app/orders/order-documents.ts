/**
 * The Admin GraphQL documents the order mirror reads with. Both select the same fields, so one parser
 * serves a single order and a bulk export reassembled from JSONL. The single-order read is sized to stay
 * well under the 1,000-point query limit (3 fulfillment orders × 25 lines, about 550 points); larger
 * orders are complete in the bulk export, which has no such limit.
 */

export const ORDER_FOR_SHIPPING = `#graphql
  query OrderForShipping($id: ID!) {
    order(id: $id) {
      id
      name
      createdAt
      cancelledAt
      email
      currencyCode
      tags
      displayFulfillmentStatus
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
        name
        firstName
        lastName
        company
        address1
        address2
        city
        provinceCode
        zip
        countryCodeV2
        phone
      }
      fulfillmentOrders(first: 3, displayable: true) {
        edges {
          node {
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
            lineItems(first: 25) {
              edges {
                node {
                  id
                  sku
                  productTitle
                  variantTitle
                  remainingQuantity
                  totalQuantity
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
                    inventoryItem {
                      harmonizedSystemCode
                      countryCodeOfOrigin
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
`;

/**
 * Open fulfillment orders with their order, for the install backfill and reconciliation
 * (bulkOperationRunQuery). Fulfillment-order-centric because a bulk query may nest connections only two
 * levels deep: fulfillmentOrders → lineItems, with the order as a plain object.
 */
export const FULFILLMENT_ORDERS_TO_SHIP_BULK = `#graphql
  query FulfillmentOrdersToShipBulk {
    fulfillmentOrders(includeClosed: false) {
      edges {
        node {
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
          order {
            id
            name
            createdAt
            cancelledAt
            email
            currencyCode
            tags
            displayFulfillmentStatus
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
              name
              firstName
              lastName
              company
              address1
              address2
              city
              provinceCode
              zip
              countryCodeV2
              phone
            }
          }
          lineItems {
            edges {
              node {
                id
                sku
                productTitle
                variantTitle
                remainingQuantity
                totalQuantity
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
                  inventoryItem {
                    harmonizedSystemCode
                    countryCodeOfOrigin
                  }
                }
              }
            }
          }
        }
      }
    }
  }
`;

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
`;

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
`;
