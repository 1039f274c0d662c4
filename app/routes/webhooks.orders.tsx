import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks.server";

/** orders/create, orders/updated, orders/cancelled, orders/edited (shopify.app.toml). Acting on the payload: the order mirror (issue 5). */
export const action = async ({ request }: ActionFunctionArgs) => {
  await receiveWebhook(request);
  return new Response();
};
