import Database from "better-sqlite3";
import { createPrismaClient } from "../../app/db/db-client.server";
import { createShippingClient } from "../../shipping-api/client";
import { saveAccount, saveSettings } from "../../app/settings/account.server";
import { type AccountCredentials } from "../../app/shipping/client.server";
import { DEFAULT_SETTINGS, type ShippingSettings } from "../../app/settings/settings";
import { parseEncryptionKey } from "../../app/secrets.server";
import { TEST_ENCRYPTION_KEY } from "./app-env";
import { BROWSER_USER_AGENT, startStack, type Stack, type StackOptions } from "./stack";

/** A US sender with a complete address, as a merchant would save it in Settings. */
export const TEST_SENDER: NonNullable<ShippingSettings["sender"]> = {
  name: "Consign Test Warehouse",
  company: "Consign Test Co",
  address1: "500 Shipping Way",
  address2: "",
  city: "Columbus",
  state: "OH",
  zip: "43215",
  country: "US",
  phone: "6145550100",
  email: "warehouse@consign.test",
};

/**
 * Its balance never falls below the dearest label a test books. Batch Book cannot approve a recharge, so a label
 * costing more than the balance at its turn is refused; with a minimum of 100.00 a seeded shop's dearest rates
 * (about 280.00) were refused now and then, by where in a batch they fell as the balance ran down.
 */
const TEST_PREPAY = { minimumBalance: "1000.00", rechargeAmount: "5000.00" };

/**
 * Creates a Shipping API customer (Create Customer, partner key) with a prepay balance large enough for the
 * tests' bookings (TEST_PREPAY), and stores it with `settings` in the app database at `databaseUrl` exactly as onboarding
 * and Settings would. For tests that start past onboarding.
 */
export async function connectTestAccount(options: {
  serviceUrl: string;
  partnerKey: string;
  databaseUrl: string;
  shop: string;
  settings?: Partial<ShippingSettings>;
}): Promise<AccountCredentials> {
  const partner = createShippingClient({ baseUrl: options.serviceUrl, credentials: { kind: "partner", key: options.partnerKey } });
  const email = `merchant-${Date.now()}-${Math.floor(Math.random() * 1e6)}@consign.test`;
  const password = "test-password-1";
  const { email: _senderEmail, ...sender } = TEST_SENDER;
  const address = { ...sender, zip: sender.zip ?? "" };
  const created = await partner.createCustomer({
    body: {
      profileCode: "Default",
      email,
      password,
      mailingAddress: address,
      billingAddress: address,
      prepaySettings: TEST_PREPAY,
      utm: { source: "shopify" },
    },
  });
  if (!created.ok) throw new Error(`Create Customer failed: ${JSON.stringify(created.error)}`);
  const credentials = { customerId: created.value.customerId, email, password };
  const db = createPrismaClient(options.databaseUrl);
  try {
    const ctx = { db, shop: options.shop, now: () => new Date() };
    await saveAccount(ctx, credentials, "CONNECTED", { key: parseEncryptionKey(TEST_ENCRYPTION_KEY) });
    await saveSettings(ctx, { ...DEFAULT_SETTINGS, sender: TEST_SENDER, ...options.settings });
  } finally {
    await db.$disconnect();
  }
  return credentials;
}

/** connectTestAccount for the shop of a running stack (test/support/stack.ts): its service and the app's database. */
export function connectStackAccount(stack: Stack): Promise<AccountCredentials> {
  return connectTestAccount({ serviceUrl: stack.service.url, partnerKey: stack.service.partnerKey, databaseUrl: stack.app.databaseUrl, shop: stack.shop });
}

/** A stack whose shop has the app installed, with the app's SQLite database open read-only beside it. */
export interface InstalledStack extends Stack {
  /** The app's database, read-only, for checking what requests wrote; closed by `stop()`. */
  appDb: Database.Database;
}

/**
 * A stack (startStack with `options`) whose shop has an account and has the app installed: after
 * connectStackAccount, one embedded request installs the offline session (token exchange), as opening the app
 * does; the order webhooks act only for a shop the app is installed on.
 */
export async function startInstalledStack(options: StackOptions = {}): Promise<InstalledStack> {
  const stack = await startStack(options);
  try {
    await connectStackAccount(stack);
    const opened = await fetch(`${stack.app.url}/app?_data=routes%2Fapp`, {
      headers: { authorization: `Bearer ${await stack.admin.mintSessionToken()}`, "user-agent": BROWSER_USER_AGENT },
    });
    await opened.arrayBuffer();
    if (opened.status !== 200) throw new Error(`Opening the app answered ${opened.status}`);
  } catch (error) {
    await stack.stop();
    throw error;
  }
  const appDb = new Database(new URL(stack.app.databaseUrl.replace(/^file:/, "file://")).pathname, { readonly: true });
  const stopStack = stack.stop;
  return Object.assign(stack, {
    appDb,
    stop: async () => {
      appDb.close();
      await stopStack();
    },
  });
}
