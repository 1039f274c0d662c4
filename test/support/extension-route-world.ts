import { SignJWT } from "jose";
import { afterAll } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { connectTestAccount } from "./account";
import { useAppEnvironment } from "./app-env";
import { API_KEY, API_SECRET, SHOP, startHarness, type Harness } from "./devstore-harness";
import { PARTNER_KEY, startService, type RunningService } from "./service-harness";

/**
 * What the tests of the admin extensions' routes share: the real Shipping API service, a local admin that signs
 * the session tokens (as Shopify's admin does for an extension's request), the app's environment pointed at both
 * with a fresh SQLite database, the app's database client and the shop's connected account; all closed after the
 * file's tests. Import app modules after it, as they read the environment.
 */
export const EXTENSION_ORIGIN = "https://extensions.shopifycdn.com";

export async function startExtensionRouteWorld(options: { orders: number }): Promise<{
  service: RunningService;
  harness: Harness;
  prisma: PrismaClient;
  customer: Awaited<ReturnType<typeof connectTestAccount>>;
}> {
  const service = await startService();
  const harness = await startHarness({ orders: options.orders });
  const { databaseUrl } = useAppEnvironment({
    LOCAL_ADMIN_URL: harness.url,
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET,
    SHIPPING_API_URL: service.baseUrl,
  });
  const { default: prisma } = await import("../../app/db/db.server");
  afterAll(async () => {
    await prisma.$disconnect();
    await harness.close();
    await service.close();
  });
  const customer = await connectTestAccount({ serviceUrl: service.baseUrl, partnerKey: PARTNER_KEY, databaseUrl, shop: SHOP });
  return { service, harness, prisma, customer };
}

/** A session token for the shop signed with another secret than the app's: what a forger sends. */
export function forgedSessionToken(): Promise<string> {
  return new SignJWT({ dest: `https://${SHOP}`, sub: "1", sid: "forged" })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(`https://${SHOP}/admin`)
    .setAudience(API_KEY)
    .setIssuedAt()
    .setNotBefore("0s")
    .setExpirationTime("1m")
    .sign(new TextEncoder().encode("not-the-app-secret"));
}
