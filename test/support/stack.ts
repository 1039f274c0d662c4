import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createLocalAdmin, type LocalAdmin, type LocalAdminOptions } from "../../devstore/server.js";
import { systemClock, type Clock } from "../../service/clock.js";
import { openServiceStore, type ServiceStore } from "../../service/db/store.js";
import { createShippingService } from "../../service/http/app.js";
import { seedStore } from "../../devstore/seed/seed.js";
import type { Store } from "../../devstore/store/store.js";
import { dropAppDatabase, TEST_API_KEY, TEST_API_SECRET, useAppEnvironment } from "./app-env.js";
import { freePort } from "./free-port.js";
import { startShopRouter, type ShopRouter } from "./shop-router.js";
import { extensionsBuildPath, serverBuildPath } from "./build-dir.js";

const root = join(import.meta.dirname, "..", "..");

/** The shop the stack's local admin serves. */
export const STACK_SHOP = "consign-e2e.myshopify.com";

/** The Shipping API service's partner key (Create Customer) in the stack. */
export const STACK_PARTNER_KEY = "e2e-partner-key";

/** A browser user agent for plain HTTP calls: the app answers bot user agents (curl's, node's) with 410. */
export const BROWSER_USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";

export interface StackOptions {
  /** Fills the local admin's empty store; defaults to the devstore seed (`seedStore`). */
  seed?: (store: Store) => void | Promise<void>;
  /** The app's server build to run (default: serverBuildPath(); test/e2e's global setup keeps it fresh). */
  serverBuild?: string;
  /** Where the app's stdout and stderr go (default test-results/app-<time>.log). */
  appLogFile?: string;
  /** Extra environment for the app process. */
  appEnv?: Record<string, string>;
  /**
   * The host name the app is served on (default 127.0.0.1, the local admin's). "localhost" puts the app on
   * another site than the admin, as in real Shopify admin, where the app is always a third-party frame.
   */
  appHost?: string;
  /** The Shipping API service's clock (default the system's): a test moves it to reveal tracking events. */
  serviceClock?: Clock;
  /** The local admin's throttle (default Shopify's standard plan) and routes or hooks of its own (a bench counts requests). */
  localAdmin?: Pick<LocalAdminOptions, "throttle" | "registerRoutes">;
  /**
   * More shops, each with a local admin of its own (seeded as the first is), for tests of what one shop may
   * see of another's: the app reaches them all through one origin that routes by shop (shop-router.ts).
   */
  otherShops?: readonly string[];
}

export interface Stack {
  /** The local admin, in-process (store, webhooks, mintSessionToken …) and its origin. */
  admin: LocalAdmin & { url: string };
  /** The local admins of StackOptions.otherShops, by shop (empty without). */
  otherAdmins: ReadonlyMap<string, LocalAdmin & { url: string }>;
  /** The Shipping API service, in-process on the system clock (or StackOptions.serviceClock); the app's SHIPPING_API_URL. */
  service: { url: string; db: ServiceStore; partnerKey: string };
  /** The built app, running as a child process. */
  app: { url: string; databaseUrl: string; logFile: string; process: ChildProcess };
  shop: string;
  apiKey: string;
  apiSecret: string;
  /** The local admin's page that frames the app at `path` (e.g. "/app"). */
  adminAppUrl(path?: string): string;
  /** Stops the app, the local admin and the service and removes their databases (not an app database passed in `appEnv`). */
  stop(): Promise<void>;
}

/**
 * The app's environment as the integration tests set it (test/support/app-env.ts, so a variable the app
 * starts to require reaches both), with `overrides`; the test process's own environment is left as it was.
 */
function appEnvironment(overrides: Record<string, string>): { env: NodeJS.ProcessEnv; databaseUrl: string } {
  const saved = { ...process.env };
  try {
    const { databaseUrl } = useAppEnvironment(overrides);
    return { env: { ...process.env }, databaseUrl };
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

/**
 * How long the app may take to start serving: three minutes (on a loaded two-core machine the built app has taken
 * over one to answer its first request), or CONSIGN_APP_START_TIMEOUT_MS.
 */
const APP_START_TIMEOUT_MS = Number(process.env.CONSIGN_APP_START_TIMEOUT_MS ?? 180_000);

async function waitUntilServing(url: string, child: ChildProcess, logFile: string, timeoutMs = APP_START_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The app exited (${child.exitCode ?? child.signalCode}) before serving ${url}:\n${tail(logFile)}`);
    }
    try {
      const response = await fetch(url, { headers: { "user-agent": BROWSER_USER_AGENT }, redirect: "manual" });
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The app did not serve ${url} within ${timeoutMs} ms:\n${tail(logFile)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the real parts a browser test needs, on ephemeral ports: the local admin in-process (temporary
 * SQLite store, seeded, with the shell and the App Bridge stand-in), the Shipping API service in-process
 * (temporary database) and the built app as a child process (server/main.ts, as `npm start` runs it) pointed at both
 * (LOCAL_ADMIN_URL, APP_BRIDGE_URL, SHIPPING_API_URL). Call `stop()` when done.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const [adminPort, appPort] = [await freePort(), await freePort()];
  const appUrl = `http://${options.appHost ?? "127.0.0.1"}:${appPort}`;
  const stackDir = mkdtempSync(join(tmpdir(), "consign-stack-"));
  const serviceDb = openServiceStore(`file:${join(stackDir, "service.sqlite")}`);
  const service = createShippingService({
    db: serviceDb,
    clock: options.serviceClock ?? systemClock,
    partnerKey: STACK_PARTNER_KEY,
    secretsKey: "e2e-service-secrets-key",
    logger: false,
  });
  const admin = createLocalAdmin({
    dbPath: join(stackDir, "devstore.sqlite"),
    shopDomain: STACK_SHOP,
    apiKey: TEST_API_KEY,
    apiSecret: TEST_API_SECRET,
    appUrl,
    extensionsDir: extensionsBuildPath(),
    webhookRetry: { maxAttempts: 1 },
    ...options.localAdmin,
  });
  const otherAdmins = new Map<string, LocalAdmin & { url: string }>();
  let router: ShopRouter | undefined;
  let child: ChildProcess | undefined;
  let databaseUrl: string | undefined;
  const stop = async () => {
    if (child) await stopChild(child);
    await router?.close();
    for (const other of otherAdmins.values()) await other.close();
    await admin.close();
    await service.close();
    serviceDb.close();
    rmSync(stackDir, { recursive: true, force: true });
    if (databaseUrl) dropAppDatabase(databaseUrl);
  };
  try {
    await (options.seed ?? ((store: Store) => seedStore(store, { shopDomain: STACK_SHOP })))(admin.store);
    const adminUrl = await admin.listen({ port: adminPort });
    for (const [index, shop] of (options.otherShops ?? []).entries()) {
      const other = createLocalAdmin({
        dbPath: join(stackDir, `devstore-${index + 2}.sqlite`),
        shopDomain: shop,
        apiKey: TEST_API_KEY,
        apiSecret: TEST_API_SECRET,
        appUrl,
        webhookRetry: { maxAttempts: 1 },
      });
      const listening = Object.assign(other, { url: "" });
      otherAdmins.set(shop, listening);
      await (options.seed ?? ((store: Store) => seedStore(store, { shopDomain: shop })))(other.store);
      listening.url = await other.listen();
    }
    if (otherAdmins.size > 0)
      router = await startShopRouter(new Map([[STACK_SHOP, adminUrl], ...[...otherAdmins].map(([shop, other]) => [shop, other.url] as const)]), {
        fallback: adminUrl,
      });
    const serviceUrl = (await service.listen({ host: "127.0.0.1", port: 0 })).replace("localhost", "127.0.0.1");

    const environment = appEnvironment({
      // The server runs the production build; NODE_ENV=test would load React's development build.
      NODE_ENV: "production",
      PORT: String(appPort),
      SHOPIFY_APP_URL: appUrl,
      SCOPES: admin.appConfig.scopes,
      LOCAL_ADMIN_URL: router?.url ?? adminUrl,
      APP_BRIDGE_URL: `${adminUrl}/app-bridge.js`,
      SHIPPING_API_URL: serviceUrl,
      ...options.appEnv,
    });
    // A database the caller passed in (appEnv.DATABASE_URL) is the caller's to remove.
    if (!options.appEnv?.DATABASE_URL) databaseUrl = environment.databaseUrl;
    const logFile = options.appLogFile ?? join(root, "test-results", `app-${Date.now()}.log`);
    mkdirSync(join(logFile, ".."), { recursive: true });
    const log = createWriteStream(logFile);
    // The app's own server as `npm start` runs it (the build's server/main.js beside the Remix build): the child is the app's process.
    const serverBuild = options.serverBuild ?? serverBuildPath();
    child = spawn(process.execPath, [join(dirname(serverBuild), "main.js"), serverBuild], {
      cwd: root,
      env: environment.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    await waitUntilServing(`${appUrl}/`, child, logFile);

    const app = { url: appUrl, databaseUrl: environment.databaseUrl, logFile, process: child };
    return {
      admin: Object.assign(admin, { url: adminUrl }),
      otherAdmins,
      service: { url: serviceUrl, db: serviceDb, partnerKey: STACK_PARTNER_KEY },
      app,
      shop: STACK_SHOP,
      apiKey: TEST_API_KEY,
      apiSecret: TEST_API_SECRET,
      adminAppUrl: (path = "") => `${adminUrl}/admin/apps/consign${path}`,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
