import { z } from "zod";
import { adminQuery, type ShopAdmin } from "../shopify/gateway.server";

const SELECTED_ORDERS = `#graphql
  query SelectedOrders($ids: [ID!]!) {
    nodes(ids: $ids) {
      __typename
      ... on Order {
        id
        name
        createdAt
        displayFulfillmentStatus
        shippingAddress {
          city
          provinceCode
          countryCodeV2
        }
      }
    }
  }
`;

const SelectedOrder = z.object({
  __typename: z.literal("Order"),
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  displayFulfillmentStatus: z.string(),
  shippingAddress: z
    .object({ city: z.string().nullable(), provinceCode: z.string().nullable(), countryCodeV2: z.string().nullable() })
    .nullable(),
});

const SelectedOrdersData = z.object({
  nodes: z.array(z.union([SelectedOrder, z.object({ __typename: z.string() }), z.null()])),
});

export interface SelectedOrderSummary {
  id: string;
  name: string;
  createdAt: string;
  fulfillmentStatus: string;
  destination: string | null;
}

/** Shopify caps `nodes(ids:)` at 250 ids per call. */
const NODES_PER_CALL = 250;

/**
 * The selected orders' names, status and destination, in the merchant's order. Ids that are not (or no
 * longer) orders of this shop are reported as missing rather than failing the page.
 */
export async function loadSelectedOrders(
  context: ShopAdmin,
  ids: readonly string[],
): Promise<{ orders: SelectedOrderSummary[]; missing: string[] }> {
  const found = new Map<string, SelectedOrderSummary>();
  for (let start = 0; start < ids.length; start += NODES_PER_CALL) {
    const chunk = ids.slice(start, start + NODES_PER_CALL);
    const { nodes } = await adminQuery(context, SELECTED_ORDERS, SelectedOrdersData, { ids: chunk });
    for (const node of nodes) {
      const order = SelectedOrder.safeParse(node);
      if (!order.success) continue;
      const address = order.data.shippingAddress;
      const destination = address
        ? [address.city, address.provinceCode, address.countryCodeV2].filter((part): part is string => Boolean(part)).join(", ")
        : null;
      found.set(order.data.id, {
        id: order.data.id,
        name: order.data.name,
        createdAt: order.data.createdAt,
        fulfillmentStatus: order.data.displayFulfillmentStatus,
        destination,
      });
    }
  }
  return {
    orders: ids.flatMap((id) => found.get(id) ?? []),
    missing: ids.filter((id) => !found.has(id)),
  };
}
