import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveComplianceWebhook } from "../webhooks.server";

/** customers/data_request, customers/redact, shop/redact (shopify.app.toml compliance topics): recorded once and handed to the webhook-delivery job. */
export const action = ({ request }: ActionFunctionArgs) => receiveComplianceWebhook(request);
