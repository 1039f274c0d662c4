import type { Shipment } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { startFaultProxy, type FaultKind, type SeenRequest } from "../support/fault-proxy";
import { ok } from "../support/service-harness";
import { SHOP } from "../support/devstore-harness";

// The whole outbound flow — quote, batch, book, write back — with a forwarding proxy between the app and the
// Shipping API service and another between the app and the local admin. Each round breaks one exchange at
// every point where an answer can be lost (Batch Quote, Create Batch, Batch Book, Get Batch after booking,
// fulfillmentCreate) in one way (refused with 503, reset before or after forwarding, cut off, held past the
// client's timeout), and every order must end booked once and fulfilled once, with no restart.
const shippingProxy = await startFaultProxy();
const adminProxy = await startFaultProxy();
const { service, harness, customer } = await startServiceAndAdmin({
  orders: 100,
  env: { SHOPIFY_APP_URL: "https://consign.example", LOCAL_ADMIN_URL: adminProxy.url, SHIPPING_API_URL: shippingProxy.url, SHIPPING_API_TIMEOUT_MS: "1500" },
  scope: "read_orders,write_fulfillments",
});
shippingProxy.target = service.baseUrl;
adminProxy.target = harness.url;
const { default: prisma } = await import("../../app/db/db.server");
const { unauthenticated } = await import("../../app/shopify.server");
const { syncOrderMirror } = await import("../support/mirror-sync");
const { contextOf } = await import("../factories/context");
const { startQuoteRun } = await import("../../app/quoting/quote-run.server");
const { processServices } = await import("../../app/context.server");
const { shippingContext } = await import("../factories/context");
const { createBatches } = await import("../../app/booking/creation.server");
const { batchWorkSettled } = await import("../../app/booking/batch-work-job");
const { startBatchBooking } = await import("../../app/booking/batch-booking.server");
const { startWriteBack } = await import("../../app/fulfillment/write-back.server");
const { readShopSummary } = await import("../../app/settings/shop-profile.server");
const account = service.clientFor(customer);
const store = harness.admin.store;

afterAll(async () => {
  await harness.close();
  await service.close();
  await Promise.all([shippingProxy.close(), adminProxy.close()]);
});

const at = (method: string, pattern: RegExp) => (request: SeenRequest) => request.method === method && pattern.test(request.path.split("?")[0]!);
const graphql = (operation: string) => (request: SeenRequest) => request.path.endsWith("/graphql.json") && request.body.includes(operation);
/** Matches once `proxy` has seen `earlier` break (Get Batch only after Batch Book's fault: booking's own checks read it too). */
const afterFault = (earlier: (request: SeenRequest) => boolean, match: (request: SeenRequest) => boolean) => (request: SeenRequest) =>
  match(request) && shippingProxy.applied.some((entry) => earlier(entry));
const BATCH_QUOTE = at("POST", /\/batch-quote$/);
const CREATE_BATCH = at("POST", /\/batch$/);
const BATCH_BOOK = at("POST", /\/batch-book$/);
const GET_BATCH = at("GET", /\/batch\/\d+$/);

const admin = async () => (await unauthenticated.admin(SHOP)).admin;
/** Mirrored orders not used by an earlier round, each of which maps to one shipment. */
let nextOrder = 0;
let mirroredOrderIds: string[] = [];
beforeAll(async () => {
  await syncOrderMirror({ admin: await admin(), shop: SHOP }, prisma);
  mirroredOrderIds = (await prisma.mirrorOrder.findMany({ where: { shop: SHOP }, select: { id: true }, orderBy: { id: "asc" } })).map((order) => order.id);
});

/** Quotes orders as the rates page does (its job, the app's client) until `count` single-shipment orders have a picked rate. */
async function quoteOrders(count: number): Promise<Shipment[]> {
  const orderIds = mirroredOrderIds.slice(nextOrder, nextOrder + count * 4);
  nextOrder += count * 4;
  const run = await startQuoteRun(contextOf({ admin: await admin(), shop: SHOP }, prisma, service.clock.now()), orderIds);
  await run.finished;
  const shipments = await prisma.shipment.findMany({ where: { runId: run.runId }, orderBy: { id: "asc" } });
  const perOrder = new Map<string, number>();
  for (const shipment of shipments) perOrder.set(shipment.orderId, (perOrder.get(shipment.orderId) ?? 0) + 1);
  const picked = shipments.filter((shipment) => perOrder.get(shipment.orderId) === 1 && shipment.quoteStatus === "QUOTED" && shipment.selectedQuoteId !== null);
  expect(picked.length, "quoted single-shipment orders").toBeGreaterThanOrEqual(count);
  return picked.slice(0, count);
}

/** Books the batch as the page does; a Batch Book refused before it reached the service leaves it open, and the merchant books again. */
async function book(batchId: string): Promise<void> {
  for (let click = 0; click < 2; click++) {
    const ctx = await shippingContext(prisma, SHOP, service.clock.now());
    await startBatchBooking(ctx, batchId);
    await batchWorkSettled(ctx, batchId, true);
    const { status } = await prisma.batch.findUniqueOrThrow({ where: { id: batchId } });
    if (status !== "OPEN") return;
  }
}

const ROUNDS: Array<{ fault: FaultKind; holdMs?: number }> = [
  { fault: "503" },
  { fault: "reset-before" },
  { fault: "reset-after" },
  { fault: "truncate" },
  { fault: "hold", holdMs: 2_500 },
];

describe("GIVEN one kind of fault at every point where an answer can be lost", () => {
  it.each(ROUNDS)(
    "WHEN the answers are $fault THEN three orders are quoted, batched, booked once and fulfilled once, with no restart",
    async ({ fault, holdMs }) => {
      shippingProxy.clear();
      adminProxy.clear();
      shippingProxy.inject({ match: BATCH_QUOTE, fault, times: 1, holdMs });
      shippingProxy.inject({ match: CREATE_BATCH, fault, times: 1, holdMs });
      shippingProxy.inject({ match: BATCH_BOOK, fault, times: 1, holdMs });
      shippingProxy.inject({ match: afterFault(BATCH_BOOK, GET_BATCH), fault, times: 1, holdMs });
      adminProxy.inject({ match: graphql("fulfillmentCreate"), fault, times: 1, holdMs });

      const shipments = await quoteOrders(3);
      const ctx = await shippingContext(prisma, SHOP, service.clock.now());
      const created = await createBatches(ctx, { name: `Faults: ${fault}`, shipmentIds: shipments.map((shipment) => shipment.id) });
      expect(created.batches).toHaveLength(1);
      await book(created.batches[0]!.id);
      await startWriteBack(processServices.context(SHOP));

      // Every injected fault was met: Batch Quote, Create Batch, Batch Book, Get Batch; fulfillmentCreate.
      expect(shippingProxy.applied.map((entry) => entry.fault)).toEqual([fault, fault, fault, fault]);
      expect(adminProxy.applied.map((entry) => entry.fault)).toEqual([fault]);
      expect(await prisma.batch.findUniqueOrThrow({ where: { id: created.batches[0]!.id } })).toMatchObject({ status: "COMPLETED" });
      for (const shipment of shipments) {
        const row = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
        const onService = ok(await account.searchShipments({ body: { keyword: row.orderName } })).shipments.filter(
          (entry) => entry.shipmentReference === row.orderName,
        );
        expect(onService, `${row.orderName} booked on the service`).toHaveLength(1);
        expect(row, row.orderName).toMatchObject({ bookingStatus: "BOOKED", trackingNumber: onService[0]!.trackingNumber, fulfillmentStatus: "FULFILLED" });
        const orderId = Number(row.orderId.split("/").pop());
        const fulfilled = store
          .listFulfillments(orderId)
          .filter((f) => f.status !== "CANCELLED" && store.listTrackingInfo(f.id).some((t) => t.number === row.trackingNumber));
        expect(fulfilled, `${row.orderName} fulfilled in Shopify`).toHaveLength(1);
      }
    },
  );
});

describe("GIVEN Shopify's answers to a read are refused, reset and cut off", () => {
  it("WHEN the shop's summary is read (as starting a quote run does) THEN the gateway asks again and the read answers, with no error shown", async () => {
    adminProxy.clear();
    adminProxy.inject({ match: graphql("query ShopSummary"), fault: "503", times: 1 });
    adminProxy.inject({ match: graphql("query ShopSummary"), fault: "reset-before", times: 1 });
    adminProxy.inject({ match: graphql("query ShopSummary"), fault: "truncate", times: 1 });

    const { summary } = await readShopSummary(contextOf({ admin: await admin(), shop: SHOP }, prisma));

    expect(adminProxy.applied.map((entry) => entry.fault)).toEqual(["503", "reset-before", "truncate"]);
    expect(summary.name).toBe(store.getShop().name);
  });
});
