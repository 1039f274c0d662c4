import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { forgetShopSessions, recordGrantedScopes, stopShopTracking } from "../shop-lifecycle.server";
import { parseWebhookPayload } from "../webhook-payload";
import { handleWebhookPayload, receiveWebhook, unexpectedTopic } from "../webhooks.server";

const ScopesUpdatePayload = z.object({ current: z.array(z.string()) });

/** app/uninstalled and app/scopes_update (shopify.app.toml). HMAC is verified by authenticate.webhook. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic, payload } = await receiveWebhook(request);
  return handleWebhookPayload(async () => {
    switch (topic) {
      case "APP_UNINSTALLED":
        await forgetShopSessions(shop);
        await stopShopTracking(shop);
        break;
      case "APP_SCOPES_UPDATE":
        await recordGrantedScopes(shop, parseWebhookPayload(ScopesUpdatePayload, payload).current);
        break;
      default:
        return unexpectedTopic(topic);
    }
    return new Response();
  });
};
