import type { Context } from "./context";
import { contextFor } from "./context.server";
import { requireAccount } from "./settings/require-account.server";
import { withShipping, type ShippingContext } from "./shipping/context.server";
import { authenticate } from "./shopify.server";

/**
 * The routes' one helper for what their domain function needs: the authenticated admin request and the
 * shop's Context (its Shopify gateway is the request's admin).
 */
export async function adminContext(request: Request): Promise<{ ctx: Context; redirect: (url: string) => Response }> {
  const { admin, session, redirect } = await authenticate.admin(request);
  return { ctx: contextFor(session.shop, { shopify: { admin, shop: session.shop } }), redirect: (url: string) => redirect(url) };
}

/**
 * For the batches, booking and shipments pages: adminContext with the Shipping API gateway open; without a
 * Shipping API account the merchant is sent to onboarding (thrown redirect).
 */
export async function requestContext(request: Request): Promise<{ ctx: ShippingContext; redirect: (url: string) => Response }> {
  const { ctx, redirect } = await adminContext(request);
  await requireAccount(ctx, request);
  return { ctx: await withShipping(ctx), redirect };
}
