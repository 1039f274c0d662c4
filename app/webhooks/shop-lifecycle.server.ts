import { z } from "zod";
import type { Context } from "../context";
import { parseWebhookPayload } from "./webhook-payload";
import { stopTracking } from "../tracking/following.server";

/** app/uninstalled: the shop's access tokens are revoked, so its sessions are useless; forget them. */
export async function forgetShopSessions({ db, shop }: Pick<Context, "db" | "shop">): Promise<number> {
  const { count } = await db.session.deleteMany({ where: { shop } });
  return count;
}

/** app/scopes_update: keep the stored sessions' scope in step with what the merchant granted. */
export async function recordGrantedScopes({ db, shop }: Pick<Context, "db" | "shop">, scopes: readonly string[]): Promise<void> {
  await db.session.updateMany({ where: { shop }, data: { scope: scopes.join(",") } });
}

/** app/uninstalled: the shop's shipments are no longer followed (their fulfillments cannot take events now). */
export function stopShopTracking(ctx: Pick<Context, "db" | "shop">): Promise<number> {
  return stopTracking(ctx, {}, "SHOP_UNINSTALLED");
}

/** app/scopes_update's payload, as far as Consign reads it. */
export const ScopesUpdatePayload = z.object({ current: z.array(z.string()) });

/** app/scopes_update: the scopes the merchant granted, from the payload (WebhookPayloadError when it has another shape). */
export function grantedScopes(payload: unknown): string[] {
  return parseWebhookPayload(ScopesUpdatePayload, payload).current;
}
