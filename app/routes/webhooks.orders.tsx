import type { ActionFunctionArgs } from "@remix-run/node";
import { webhookResponse } from "../request-context.server";
import { receiveOrderDelivery } from "../webhooks/webhooks.server";

/** orders/create, orders/updated, orders/cancelled, orders/edited (shopify.app.toml). Re-reads the order into the mirror. */
export const action = ({ request }: ActionFunctionArgs) => webhookResponse(request, receiveOrderDelivery);
