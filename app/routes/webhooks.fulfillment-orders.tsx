import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks.server";

/** fulfillment_orders/placed_on_hold, hold_released, moved, split, merged, cancelled (shopify.app.toml). Acting on the payload: the order mirror (issue 5). */
export const action = async ({ request }: ActionFunctionArgs) => {
  await receiveWebhook(request);
  return new Response();
};
