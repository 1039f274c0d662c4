import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { forgetShopSessions, recordGrantedScopes, stopShopTracking } from "../shop-lifecycle.server";
import { receiveWebhook } from "../webhooks.server";

const ScopesUpdatePayload = z.object({ current: z.array(z.string()) });

/** app/uninstalled and app/scopes_update (shopify.app.toml). HMAC is verified by authenticate.webhook. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic, payload } = await receiveWebhook(request);
  switch (topic) {
    case "APP_UNINSTALLED":
      await forgetShopSessions(shop);
      await stopShopTracking(shop);
      break;
    case "APP_SCOPES_UPDATE":
      await recordGrantedScopes(shop, ScopesUpdatePayload.parse(payload).current);
      break;
    default:
      return new Response(`Unexpected topic ${topic}`, { status: 400 });
  }
  return new Response();
};
