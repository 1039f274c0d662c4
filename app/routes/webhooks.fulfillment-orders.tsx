import type { ActionFunctionArgs } from "@remix-run/node";
import { webhookResponse } from "../request-context.server";
import { receiveOrderDelivery } from "../webhooks/webhooks.server";

/** fulfillment_orders/placed_on_hold, hold_released, moved, split, merged, cancelled (shopify.app.toml). Re-reads the order into the mirror. */
export const action = ({ request }: ActionFunctionArgs) => webhookResponse(request, receiveOrderDelivery);
