/**
 * The other side of `npm run bench:tracking`, in a process of its own so the bench's RSS is the app's alone:
 * the real Shipping API service on a clock the bench moves (POST /bench/clock), N local admins (one per shop,
 * each seeded, at the throttle asked for) behind one origin that routes by X-Shopify-Shop-Domain as the app's
 * local-admin fetch sends it, and the seed: per shop a connected account, an offline session and its share of
 * shipments booked on the service, fulfilled in its local admin and stored in the app's database as the
 * write-back leaves them (FULFILLED, tracking ACTIVE and due). Prints one JSON line when ready.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPrismaClient } from "../../app/db/db-client.server";
import { createLocalAdmin, type LocalAdmin } from "../../devstore/server";
import { seedStore } from "../../devstore/seed/seed";
import { fulfillmentCreate } from "../../devstore/store/fulfillment-ops";
import { parseGid, toGid } from "../../devstore/gid";
import { createManualClock } from "../../service/clock";
import { openServiceStore } from "../../service/db/store";
import { createShippingService } from "../../service/http/app";
import { createShippingClient } from "../../shipping-api/client";
import { connectTestAccount } from "../support/account";
import { profileCpu } from "../support/bench-cpu";
import { startShopRouter } from "../support/shop-router";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments";

const SHOPS = Number(process.env.BENCH_TRACKING_SHOPS ?? 10);
const SHIPMENTS = Number(process.env.BENCH_TRACKING_SHIPMENTS ?? 10_000);
const RESTORE_RATE = Number(process.env.BENCH_TRACKING_RESTORE_RATE ?? 1000);
const BUCKET = Number(process.env.BENCH_TRACKING_BUCKET ?? 1000);
const API_KEY = process.env.SHOPIFY_API_KEY!;
const API_SECRET = process.env.SHOPIFY_API_SECRET!;
const DATABASE_URL = process.env.DATABASE_URL!;
const PARTNER_KEY = "bench-partner-key";
export const BENCH_START = new Date("2026-11-23T15:00:00Z");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-tracking-bench-"));
const clock = createManualClock(BENCH_START);
const serviceDb = openServiceStore(`file:${path.join(dir, "service.sqlite")}`);
const service = createShippingService({ db: serviceDb, clock, partnerKey: PARTNER_KEY, secretsKey: "bench-secrets-key", logger: false });
const serviceUrl = (await service.listen({ host: "127.0.0.1", port: 0 })).replace("localhost", "127.0.0.1");

const perShop = Math.ceil(SHIPMENTS / SHOPS);
const admins = new Map<string, LocalAdmin & { url: string }>();
for (let index = 0; index < SHOPS; index++) {
  const shop = `bench-${index + 1}.myshopify.com`;
  const admin = createLocalAdmin({
    dbPath: path.join(dir, `admin-${index}.sqlite`),
    shopDomain: shop,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    appUrl: "http://127.0.0.1:9",
    throttle: { bucketSize: BUCKET, restoreRate: RESTORE_RATE },
    // Nothing listens for webhooks here: one attempt each, so deliveries do not compete for the CPU.
    webhookRetry: { maxAttempts: 1, baseDelayMs: 5 },
  });
  // Some seeded orders cannot ship (holds, pickup, fulfillment services): seed enough to have perShop that can.
  seedStore(admin.store, { orders: Math.ceil(perShop * 1.6), shopDomain: shop });
  admins.set(shop, Object.assign(admin, { url: await admin.listen() }));
}

/** One origin for every shop (the app's local-admin fetch names the shop), and the bench's clock. */
const router = await startShopRouter(new Map([...admins].map(([shop, admin]) => [shop, admin.url])), {
  intercept: (requestPath, body) => {
    if (!requestPath.startsWith("/bench/clock")) return undefined;
    clock.set(new Date(JSON.parse(body.toString("utf8")).at as string));
    return { now: clock.now().toISOString() };
  },
});
const adminUrl = router.url;

const db = createPrismaClient(DATABASE_URL);
// Bookings of all shops at once (the service answers them), then each shop's fulfillments in turn: creating them is
// synchronous store work that would hold up the service's answers.
const booked = await Promise.all(
  [...admins].map(async ([shop, admin], index) => {
    const credentials = await connectTestAccount({ serviceUrl, partnerKey: PARTNER_KEY, databaseUrl: DATABASE_URL, shop });
    await db.session.create({
      data: { id: `offline_${shop}`, shop, state: "", isOnline: false, accessToken: admin.issueAccessToken(), scope: "write_fulfillments" },
    });
    const client = createShippingClient({ baseUrl: serviceUrl, credentials: { kind: "customer", ...credentials }, timeoutMs: 300_000 });
    const count = Math.min(perShop, SHIPMENTS - index * perShop);
    const fulfillmentOrders = shippableFulfillmentOrders(admin.store, count);
    if (fulfillmentOrders.length < count) throw new Error(`${shop}: only ${fulfillmentOrders.length} shippable fulfillment orders were seeded`);
    return { shop, admin, rows: await createBookedShipments({ db, shop, client, fulfillmentOrders, bookedAt: clock.now() }) };
  }),
);
for (const { shop, admin, rows } of booked) {
  const updates = rows.map((row) => {
    const created = fulfillmentCreate(admin.store, {
      lineItemsByFulfillmentOrder: [
        { fulfillmentOrderId: parseGid(row.fulfillmentOrderId)!.id, fulfillmentOrderGid: row.fulfillmentOrderId, fulfillmentOrderLineItems: null },
      ],
      notifyCustomer: false,
      trackingInfo: { company: row.carrierCode, number: row.trackingNumber },
      message: null,
    });
    if (!created.ok) throw new Error(`${shop}: ${JSON.stringify(created.userErrors)}`);
    return db.shipment.update({
      where: { id: row.id },
      data: {
        fulfillmentStatus: "FULFILLED",
        fulfillmentId: toGid("Fulfillment", created.value.fulfillmentId),
        fulfilledAt: clock.now(),
        trackingState: "ACTIVE",
        nextTrackAt: clock.now(),
      },
    });
  });
  for (let start = 0; start < updates.length; start += 500) await db.$transaction(updates.slice(start, start + 500));
}
await db.$disconnect();

// BENCH_STACK_CPU_PROFILE=<file>: a CPU profile of the service and the local admins from now to the end.
const writeProfile = await profileCpu(process.env.BENCH_STACK_CPU_PROFILE);
console.log(JSON.stringify({ adminUrl, serviceUrl, shops: [...admins.keys()], start: BENCH_START.toISOString() }));

process.on("SIGTERM", () => {
  void (async () => {
    await writeProfile();
    await router.close();
    await service.close();
    for (const admin of admins.values()) await admin.close();
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  })();
});
