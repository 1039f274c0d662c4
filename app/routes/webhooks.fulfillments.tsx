import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks.server";

/** fulfillments/create, fulfillments/update (shopify.app.toml). Acting on the payload: booking ↔ fulfillment reconciliation (issue 6). */
export const action = async ({ request }: ActionFunctionArgs) => {
  await receiveWebhook(request);
  return new Response();
};
