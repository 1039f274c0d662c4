import type { ActionFunctionArgs } from "@remix-run/node";
import { webhookResponse } from "../request-context.server";
import { receiveReturnDelivery } from "../webhooks/webhooks.server";

/** returns/* and reverse_deliveries/attach_deliverable (shopify.app.toml). Re-reads the return into Consign's returns. */
export const action = ({ request }: ActionFunctionArgs) => webhookResponse(request, receiveReturnDelivery);
