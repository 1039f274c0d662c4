import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectTestAccount } from "../support/account";
import { useAppEnvironment } from "../support/app-env";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments";
import { API_KEY, API_SECRET, SHOP, startHarness, type Harness } from "./devstore-harness";
import { PARTNER_KEY, startService, type RunningService } from "./service-harness";

// A local admin with a small, slow cost bucket that something else has just emptied: the write-back must wait
// for points instead of failing, and no THROTTLED may ever reach a shipment's outcome.
const THROTTLE = { bucketSize: 250, restoreRate: 50 };
const service: RunningService = await startService();
const harness: Harness = await startHarness({ orders: 40, throttle: THROTTLE });
const { databaseUrl } = useAppEnvironment({ LOCAL_ADMIN_URL: harness.url, SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET, SHIPPING_API_URL: service.baseUrl });
const { default: prisma } = await import("../../app/db.server");
const writeBack = await import("../../app/fulfillment/write-back.server");
const customer = await connectTestAccount({ serviceUrl: service.baseUrl, partnerKey: PARTNER_KEY, databaseUrl, shop: SHOP });

beforeAll(async () => {
  await prisma.session.create({ data: { id: `offline_${SHOP}`, shop: SHOP, state: "", isOnline: false, accessToken: harness.token, scope: "write_fulfillments" } });
});
afterAll(async () => {
  await harness.close();
  await service.close();
});

describe("fulfillment write-back under a low throttle", () => {
  it("GIVEN an emptied 250-point bucket restoring 50 points/s WHEN eight shipments are written back THEN all are fulfilled after waiting, none failed", async () => {
    const shipments = await createBookedShipments({ db: prisma, shop: SHOP, client: service.clientFor(customer), fulfillmentOrders: shippableFulfillmentOrders(harness.admin.store, 8) });
    const fulfillmentsBefore = harness.admin.store.countRows("fulfillments");
    const bucket = harness.admin.throttle;
    expect(bucket.tryCharge(bucket.status().currentlyAvailable)).toBe(true);

    const started = performance.now();
    await writeBack.startWriteBack(SHOP);
    const elapsedMs = performance.now() - started;

    const rows = await prisma.shipment.findMany({ where: { id: { in: shipments.map((s) => s.id) } } });
    expect(rows.map((row) => [row.fulfillmentStatus, row.fulfillmentError])).toEqual(rows.map(() => ["FULFILLED", null]));
    // Every fulfillmentCreate alone is charged 11 points, so the run had to wait for at least this many points.
    expect(elapsedMs).toBeGreaterThanOrEqual(((shipments.length * 11) / THROTTLE.restoreRate) * 1000);
    expect(harness.admin.store.countRows("fulfillments") - fulfillmentsBefore).toBe(shipments.length);
  }, 60_000);
});
