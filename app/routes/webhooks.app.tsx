import type { ActionFunctionArgs } from "@remix-run/node";
import { webhookResponse } from "../request-context.server";
import { receiveAppDelivery } from "../webhooks/webhooks.server";

/** app/uninstalled and app/scopes_update (shopify.app.toml): recorded once and handed to the webhook-delivery job. */
export const action = ({ request }: ActionFunctionArgs) => webhookResponse(request, receiveAppDelivery);
