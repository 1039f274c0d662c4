import { z } from "zod";
import prisma from "./db.server";
import { parseWebhookPayload } from "./webhook-payload";
import { stopTracking } from "./tracking/sync.server";

/** app/uninstalled: the shop's access tokens are revoked, so its sessions are useless; forget them. */
export async function forgetShopSessions(shop: string): Promise<number> {
  const { count } = await prisma.session.deleteMany({ where: { shop } });
  return count;
}

/** app/scopes_update: keep the stored sessions' scope in step with what the merchant granted. */
export async function recordGrantedScopes(shop: string, scopes: readonly string[]): Promise<void> {
  await prisma.session.updateMany({ where: { shop }, data: { scope: scopes.join(",") } });
}

/** app/uninstalled: the shop's shipments are no longer followed (their fulfillments cannot take events now). */
export function stopShopTracking(shop: string): Promise<number> {
  return stopTracking(prisma, { shop }, "SHOP_UNINSTALLED");
}

const ScopesUpdatePayload = z.object({ current: z.array(z.string()) });

/** app/scopes_update: the scopes the merchant granted, from the payload (WebhookPayloadError when it has another shape). */
export function grantedScopes(payload: unknown): string[] {
  return parseWebhookPayload(ScopesUpdatePayload, payload).current;
}
