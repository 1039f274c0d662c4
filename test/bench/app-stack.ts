import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mintSessionToken } from "../../devstore/auth/session-token";
import { ID_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT } from "../../devstore/auth/token-exchange";
import { connectTestAccount } from "../support/account";
import { useAppEnvironment } from "../support/app-env";
import { freePort } from "../support/free-port";
import { syncOrderMirror } from "../support/mirror-sync";
import { openBenchDatabase } from "./bench-database";
import { applyMemorySettings } from "../../lib/memory";

/**
 * The app side of `npm run bench:app`, in this process, against the real Shipping API service and the real
 * local admin, each a child process started with its npm script (`npm run service`, `npm run devstore`), so
 * the peak RSS read here is the app's alone. Benches of other app steps start the same stack and print
 * their own figures.
 */

const SHOP = "consign-bench.myshopify.com";
const API_KEY = "consign-bench-key";
const API_SECRET = "consign-bench-secret";
const PARTNER_KEY = "bench-partner-key";

async function waitFor(url: string, child: ChildProcess, what: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    try {
      await (await fetch(url)).arrayBuffer();
      return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not answer at ${url}`);
}

/** `npm run <script>` in its own process group, so stopping it stops npm's shell and node under it. */
function npmScript(script: string, env: Record<string, string>): ChildProcess {
  return spawn("npm", ["run", "--silent", script], { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"], detached: true });
}

function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(-child.pid, "SIGTERM");
  return exited;
}

export interface AppBenchStack {
  shop: string;
  /** The app's database ("SQLite", "PostgreSQL 15.20 at …"): BENCH_DATABASE=sqlite|postgres (bench-database.ts). */
  database: string;
  /** The app's modules, imported after the app's environment points at the children. */
  prisma: (typeof import("../../app/db/db.server"))["default"];
  admin: { admin: Awaited<ReturnType<(typeof import("../../app/shopify.server"))["unauthenticated"]["admin"]>>["admin"]; shop: string };
  /** Mirrored orders with something left to ship, newest first. */
  mirroredOrderIds: string[];
  stop(): Promise<void>;
}

/**
 * Seeds a local admin with `orders` orders, starts it and the service, connects the shop's account, and
 * fills the app's order mirror through the real library, as a first visit of the app would (unless `mirror`
 * is false: a bench of the sync itself).
 */
export async function startAppBenchStack({ orders, mirror = true }: { orders: number; mirror?: boolean }): Promise<AppBenchStack> {
  // This process is the app: it runs with the app's memory settings, as `npm start` does.
  applyMemorySettings();
  const dir = mkdtempSync(join(tmpdir(), "consign-app-bench-"));
  const [servicePort, adminPort] = [await freePort(), await freePort()];
  const service = npmScript("service", {
    NODE_ENV: "production",
    SHIPPING_SERVICE_PORT: String(servicePort),
    SHIPPING_SERVICE_DATABASE_URL: `file:${join(dir, "service.sqlite")}`,
    SHIPPING_SERVICE_PARTNER_KEY: PARTNER_KEY,
    SHIPPING_SERVICE_SECRETS_KEY: "bench-secrets-key",
    SHIPPING_SERVICE_LOG_LEVEL: "warn",
  });
  const devstore = npmScript("devstore", {
    LOCAL_ADMIN_PORT: String(adminPort),
    LOCAL_ADMIN_DATABASE: join(dir, "devstore.sqlite"),
    LOCAL_ADMIN_SHOP: SHOP,
    LOCAL_ADMIN_SEED_ORDERS: String(orders),
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET,
  });
  const serviceUrl = `http://127.0.0.1:${servicePort}`;
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  const stopChildren = async () => {
    await Promise.all([stopGroup(service), stopGroup(devstore)]);
    rmSync(dir, { recursive: true, force: true });
  };
  const database = await openBenchDatabase();
  try {
    await Promise.all([waitFor(`${serviceUrl}/healthz`, service, "the Shipping API service"), waitFor(`${adminUrl}/admin`, devstore, "the local admin")]);

    // The offline token a completed install holds: Shopify's token exchange of a session token.
    const sessionToken = await mintSessionToken({ apiKey: API_KEY, apiSecret: API_SECRET, clock: Date.now }, { shop: SHOP, userId: 1 });
    const exchange = await fetch(`${adminUrl}/admin/oauth/access_token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_id: API_KEY,
        client_secret: API_SECRET,
        grant_type: TOKEN_EXCHANGE_GRANT,
        subject_token: sessionToken,
        subject_token_type: ID_TOKEN_TYPE,
      }),
    });
    const { access_token: accessToken } = (await exchange.json()) as { access_token: string };

    const { databaseUrl } = useAppEnvironment({
      DATABASE_URL: database.url,
      LOCAL_ADMIN_URL: adminUrl,
      SHOPIFY_API_KEY: API_KEY,
      SHOPIFY_API_SECRET: API_SECRET,
      SHIPPING_API_URL: serviceUrl,
    });
    const { default: prisma } = await import("../../app/db/db.server");
    const { unauthenticated } = await import("../../app/shopify.server");
    // The bench's process is the app instance: it works the job queue (on PostgreSQL, pg-boss), as `npm start` does.
    const { processJobs: jobs } = await import("../../app/context.server");
    await jobs().start({ work: true });
    await prisma.session.create({ data: { id: `offline_${SHOP}`, shop: SHOP, state: "", isOnline: false, accessToken, scope: "read_orders" } });
    await connectTestAccount({ serviceUrl, partnerKey: PARTNER_KEY, databaseUrl, shop: SHOP });

    const { admin } = await unauthenticated.admin(SHOP);
    const context = { admin, shop: SHOP };
    if (mirror) await syncOrderMirror(context, prisma, 100);
    const rows = await prisma.mirrorOrder.findMany({ where: { shop: SHOP, cancelledAt: null }, orderBy: { orderCreatedAt: "desc" }, select: { id: true } });

    return {
      shop: SHOP,
      database: database.label,
      prisma,
      admin: context,
      mirroredOrderIds: rows.map((row) => row.id),
      async stop() {
        await jobs().stop({ timeoutMs: 5_000 });
        await prisma.$disconnect();
        await stopChildren();
        await database.drop();
      },
    };
  } catch (error) {
    await stopChildren();
    await database.drop();
    throw error;
  }
}
