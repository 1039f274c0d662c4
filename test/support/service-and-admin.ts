import { createPrismaClient } from "../../app/db/db-client.server";
import type { AccountCredentials } from "../../app/shipping/client.server";
import type { ShippingSettings } from "../../app/settings/settings";
import type { LocalAdminOptions } from "../../devstore/server";
import { API_KEY, API_SECRET, SHOP, startHarness, type Harness } from "./devstore-harness";
import { PARTNER_KEY, startService, type RunningService } from "./service-harness";
import { connectTestAccount } from "./account";
import { useAppEnvironment } from "./app-env";

export interface ServiceAndAdminOptions {
  /** How many orders the local admin is seeded with. */
  orders: number;
  /** The local admin's cost bucket, where a test needs another than its default. */
  throttle?: LocalAdminOptions["throttle"];
  /** More of the app's environment, over what points it at the service and the local admin. */
  env?: Record<string, string>;
  /** The connected account's settings (connectTestAccount). */
  settings?: Partial<ShippingSettings>;
  /** The scopes of SHOP's offline session, the one the app's `unauthenticated.admin` loads. */
  scope: string;
}

export interface ServiceAndAdmin {
  /** The Shipping API service in-process, its clock moved by hand. */
  service: RunningService;
  /** The local admin, seeded, with an access token. */
  harness: Harness;
  /** The app's database: fresh, migrated, and holding SHOP's account, settings and offline session. */
  databaseUrl: string;
  /** SHOP's Shipping API account, as stored in the app's database. */
  customer: AccountCredentials;
  /** The environment of an app process (test/support/app-process.ts) on these parts, dying at `crashAt` when given. */
  appProcessEnv(crashAt?: string): Record<string, string | undefined>;
}

/**
 * The real parts an integration test runs the app in-process against: the Shipping API service and the local
 * admin, the app's environment pointed at both over a fresh database, SHOP connected to a funded account
 * (connectTestAccount) and installed (an offline session with the local admin's token).
 *
 * The app's environment is set before this resolves and no app module that reads it is imported here: a test
 * file awaits this at its top level, then imports the app's modules. The test file closes the harness and the
 * service after its tests.
 */
export async function startServiceAndAdmin(options: ServiceAndAdminOptions): Promise<ServiceAndAdmin> {
  const service = await startService();
  const harness = await startHarness({ orders: options.orders, throttle: options.throttle });
  const { databaseUrl } = useAppEnvironment({
    LOCAL_ADMIN_URL: harness.url,
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET,
    SHIPPING_API_URL: service.baseUrl,
    ...options.env,
  });
  const customer = await connectTestAccount({ serviceUrl: service.baseUrl, partnerKey: PARTNER_KEY, databaseUrl, shop: SHOP, settings: options.settings });
  const db = createPrismaClient(databaseUrl);
  try {
    await db.session.create({
      data: { id: `offline_${SHOP}`, shop: SHOP, state: "", isOnline: false, accessToken: harness.token, scope: options.scope },
    });
  } finally {
    await db.$disconnect();
  }
  const appProcessEnv = (crashAt?: string) => ({
    DATABASE_URL: databaseUrl,
    LOCAL_ADMIN_URL: harness.url,
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET,
    SHIPPING_API_URL: service.baseUrl,
    CONSIGN_CRASH_AT: crashAt,
  });
  return { service, harness, databaseUrl, customer, appProcessEnv };
}
