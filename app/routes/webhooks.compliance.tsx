import type { ActionFunctionArgs } from "@remix-run/node";
import { webhookResponse } from "../request-context.server";
import { receiveComplianceDelivery } from "../webhooks/webhooks.server";

/** customers/data_request, customers/redact, shop/redact (shopify.app.toml compliance topics): recorded once and handed to the webhook-delivery job. */
export const action = ({ request }: ActionFunctionArgs) => webhookResponse(request, receiveComplianceDelivery);
