import prisma from "./db.server";
import { requireAccount } from "./settings/require-account.server";
import { authenticate } from "./shopify.server";
import { shippingContext, type ShippingContext } from "./shipping/context.server";

/**
 * For the batches, booking and shipments pages: the authenticated admin request and the shop's shipping
 * context; without a Shipping API account the merchant is sent to onboarding (thrown redirect).
 */
export async function requestContext(request: Request): Promise<{ ctx: ShippingContext; redirect: (url: string) => Response }> {
  const { session, redirect } = await authenticate.admin(request);
  await requireAccount(prisma, session.shop, request);
  return { ctx: await shippingContext(prisma, session.shop), redirect: (url: string) => redirect(url) };
}
