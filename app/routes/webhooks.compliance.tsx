import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks.server";

/** customers/data_request, customers/redact, shop/redact (shopify.app.toml). Acting on the payload: report and erase held data (issue 5). */
export const action = async ({ request }: ActionFunctionArgs) => {
  await receiveWebhook(request);
  return new Response();
};
