import { createPrismaClient } from "../../app/db/db-client.server";
import type { AccountCredentials } from "../../app/shipping/client.server";
import type { ShippingSettings } from "../../app/settings/settings";
import type { LocalAdminOptions } from "../../devstore/server";
import { API_KEY, API_SECRET, SHOP, startHarness, type Harness } from "./devstore-harness";
import { PARTNER_KEY, startService, type RunningService } from "./service-harness";
import { connectTestAccount } from "./account";
import { appRoutesFetch } from "./app-routes-fetch";
import { useAppEnvironment } from "./app-env";

export interface ServiceAndAdminWithoutAccountOptions {
  /** How many orders the local admin is seeded with. */
  orders: number;
  /** The local admin's cost bucket, where a test needs another than its default. */
  throttle?: LocalAdminOptions["throttle"];
  /** More of the app's environment, over what points it at the service and the local admin. */
  env?: Record<string, string>;
}

export interface ServiceAndAdminOptions extends ServiceAndAdminWithoutAccountOptions {
  /** The connected account's settings (connectTestAccount). */
  settings?: Partial<ShippingSettings>;
  /**
   * The scopes of SHOP's offline session, the one the app's `unauthenticated.admin` loads (jobs, the write-back).
   * Without it none is stored: the app's first request with a session token makes one by token exchange, as
   * when the merchant opens the app.
   */
  scope?: string;
}

export interface ServiceAndAdminWithoutAccount {
  /** The Shipping API service in-process, its clock moved by hand. */
  service: RunningService;
  /** The local admin, seeded, with an access token. */
  harness: Harness;
  /** The app's database: fresh and migrated. */
  databaseUrl: string;
  /** The environment of an app process (test/support/app-process.ts) on these parts, dying at `crashAt` when given. */
  appProcessEnv(crashAt?: string): Record<string, string | undefined>;
  /** Stops the local admin (the app's jobs first), the service and the app's database client: a test file's afterAll. */
  close(): Promise<void>;
}

export interface ServiceAndAdmin extends ServiceAndAdminWithoutAccount {
  /** SHOP's Shipping API account, as stored in the app's database. */
  customer: AccountCredentials;
}

/**
 * The real parts an integration test runs the app in-process against, before the shop has a Shipping API account
 * (onboarding, Settings without an account): the Shipping API service and the local admin, and the app's
 * environment pointed at both over a fresh database.
 *
 * The app's environment is set before this resolves and no app module that reads it is imported here: a test
 * file awaits this at its top level (or in a beforeAll), then imports the app's modules, and closes the parts
 * after its tests (`close`).
 */
export async function startServiceAndAdminWithoutAccount(options: ServiceAndAdminWithoutAccountOptions): Promise<ServiceAndAdminWithoutAccount> {
  const service = await startService();
  // The local admin reaches the app's routes Shopify calls (Flow's trigger lifecycle callback) in this process.
  const harness = await startHarness({ orders: options.orders, throttle: options.throttle, fetch: appRoutesFetch });
  const parts = { LOCAL_ADMIN_URL: harness.url, SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET, SHIPPING_API_URL: service.baseUrl };
  const { databaseUrl } = useAppEnvironment({ ...parts, ...options.env });
  const appProcessEnv = (crashAt?: string) => ({ DATABASE_URL: databaseUrl, ...parts, CONSIGN_CRASH_AT: crashAt });
  const close = async () => {
    await harness.close();
    await service.close();
    await (await import("../../app/db/db.server")).default.$disconnect();
  };
  return { service, harness, databaseUrl, appProcessEnv, close };
}

/**
 * The same parts with the shop past onboarding: SHOP connected to a funded account (connectTestAccount) and, with
 * `scope`, installed (an offline session with the local admin's token).
 */
export async function startServiceAndAdmin(options: ServiceAndAdminOptions): Promise<ServiceAndAdmin> {
  const parts = await startServiceAndAdminWithoutAccount(options);
  const { service, harness, databaseUrl } = parts;
  const customer = await connectTestAccount({ serviceUrl: service.baseUrl, partnerKey: PARTNER_KEY, databaseUrl, shop: SHOP, settings: options.settings });
  if (options.scope !== undefined) {
    const db = createPrismaClient(databaseUrl);
    try {
      await db.session.create({
        data: { id: `offline_${SHOP}`, shop: SHOP, state: "", isOnline: false, accessToken: harness.token, scope: options.scope },
      });
    } finally {
      await db.$disconnect();
    }
  }
  return { ...parts, customer };
}
