/**
 * The other side of `npm run bench:tracking`, in a process of its own so the bench's RSS is the app's alone:
 * the real Shipping API service on a clock the bench moves (POST /bench/clock), N local admins (one per shop,
 * each seeded, at the throttle asked for) behind one origin that routes by X-Shopify-Shop-Domain as the app's
 * local-admin fetch sends it, and the seed: per shop a connected account, an offline session and its share of
 * shipments booked on the service in batches of 500, fulfilled in its local admin and stored in the app's database
 * as the write-back leaves them (FULFILLED, tracking ACTIVE and due), inserted in bulk. Prints one JSON line when
 * ready.
 *
 * The local admins have the app's scopes but no webhook subscriptions: nothing here listens for them (the app's cost
 * of the webhooks its writes bring is `bench:burst`'s and `bench:write-back-product`'s), and Shopify builds and sends
 * them on its own machines, not on the two cores the app is measured on.
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
import { parse, stringify } from "smol-toml";
import { insertRows } from "../../app/db/db-batch.server";
import { timeOrderedId } from "../../app/db/ids";
import { APP_TOML } from "../../devstore/webhooks/subscriptions";
import { batchBookShipments, bookedRowColumns, shippableFulfillmentOrders } from "../factories/booked-shipments";

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
const { webhooks, ...appToml } = parse(fs.readFileSync(APP_TOML, "utf8")) as Record<string, unknown> & { webhooks?: { api_version?: string } };
const appTomlPath = path.join(dir, "shopify.app.toml");
fs.writeFileSync(appTomlPath, stringify({ ...appToml, webhooks: { api_version: webhooks?.api_version } }));
const admins = new Map<string, LocalAdmin & { url: string }>();
for (let index = 0; index < SHOPS; index++) {
  const shop = `bench-${index + 1}.myshopify.com`;
  const admin = createLocalAdmin({
    dbPath: path.join(dir, `admin-${index}.sqlite`),
    shopDomain: shop,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    appUrl: "http://127.0.0.1:9",
    appTomlPath,
    throttle: { bucketSize: BUCKET, restoreRate: RESTORE_RATE },
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
    return { shop, admin, bookings: await batchBookShipments({ client, fulfillmentOrders }) };
  }),
);
const bookedAt = clock.now();
for (const { shop, admin, bookings } of booked) {
  const rows = bookings.map((booking) => {
    const created = fulfillmentCreate(admin.store, {
      lineItemsByFulfillmentOrder: [
        {
          fulfillmentOrderId: parseGid(booking.fulfillmentOrder.fulfillmentOrderId)!.id,
          fulfillmentOrderGid: booking.fulfillmentOrder.fulfillmentOrderId,
          fulfillmentOrderLineItems: null,
        },
      ],
      notifyCustomer: false,
      trackingInfo: { company: booking.booked.carrierCode, number: booking.booked.trackingNumber },
      message: null,
    });
    if (!created.ok) throw new Error(`${shop}: ${JSON.stringify(created.userErrors)}`);
    return {
      id: timeOrderedId(),
      ...bookedRowColumns(shop, booking, bookedAt),
      fulfillmentStatus: "FULFILLED",
      fulfillmentId: toGid("Fulfillment", created.value.fulfillmentId),
      fulfilledAt: bookedAt,
      trackingState: "ACTIVE",
      createdAt: bookedAt,
      updatedAt: bookedAt,
    };
  });
  for (let start = 0; start < rows.length; start += 500) {
    const chunk = rows.slice(start, start + 500);
    await db.$transaction([
      ...insertRows({ db }, "Shipment", chunk),
      ...insertRows(
        { db },
        "TrackingSchedule",
        chunk.map((row) => ({ id: row.id, shop, nextTrackAt: bookedAt })),
      ),
    ]);
  }
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
