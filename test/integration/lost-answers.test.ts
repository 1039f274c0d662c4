import type { Shipment } from "@prisma/client";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { useAppEnvironment } from "../support/app-env";
import { useConnectedShop } from "../support/connected-shop";
import { startFaultProxy, type SeenRequest } from "../support/fault-proxy";
import { quotedShipments } from "../factories/shipments";
import { ok, startService, type RunningService } from "../support/service-harness";

// What happens when an answer between the app and the Shipping API is lost, cut off or late: real parts (the
// service over HTTP, the app's database, its batch job on the process's queue), with a forwarding proxy
// between the app and the service that breaks the chosen exchanges. Every order must end booked once, with no
// restart: the job retries while the outcome is in doubt, and the recorded-work sweep takes over after that.
const service: RunningService = await startService();
const proxy = await startFaultProxy(service.baseUrl);
const { databaseUrl } = useAppEnvironment({ SHIPPING_API_URL: proxy.url, SHIPPING_API_TIMEOUT_MS: "1500" });
const { default: prisma } = await import("../../app/db/db.server");
const { shippingContext } = await import("../factories/context");
const { shippingClientFor } = await import("../../app/shipping/client.server");
const { startBatchCreation } = await import("../../app/booking/creation.server");
const { batchWorkSettled } = await import("../../app/booking/batch-work-job");
const { claimBatchBooking, startBatchBooking } = await import("../../app/booking/batch-booking.server");
const { BOOKING_SWEEP_GRACE_MS } = await import("../../app/booking/resume.server");
const { resumeRecordedWork } = await import("../../app/recorded-work.server");
const { processServices } = await import("../../app/context.server");

const SHOP = "lost-answers.myshopify.com";
const connected = await useConnectedShop({ service, db: prisma, databaseUrl, shop: SHOP });
const { account } = connected;
afterAll(() => proxy.close());
beforeEach(() => proxy.clear());

const context = () => shippingContext(prisma, SHOP, service.clock.now());
const at = (method: string, pattern: RegExp) => (request: SeenRequest) => request.method === method && pattern.test(request.path.split("?")[0]!);
const CREATE_BATCH = at("POST", /\/batch$/);
const LIST_BATCHES = at("GET", /\/batch$/);
const GET_BATCH = at("GET", /\/batch\/\d+$/);
const BATCH_BOOK = at("POST", /\/batch-book$/);
const BATCH_QUOTE = at("POST", /\/batch-quote$/);
/** Matches once the proxy has applied `fault` (a look-up that fails only after the answer it looks for was lost). */
const after = (fault: string, match: (request: SeenRequest) => boolean) => (request: SeenRequest) =>
  match(request) && proxy.applied.some((entry) => entry.fault === fault);

async function openBatch(name: string, shipments: readonly Shipment[]): Promise<string> {
  const ctx = await context();
  const started = await startBatchCreation(ctx, { name, shipmentIds: shipments.map((shipment) => shipment.id) });
  const id = started.batches[0]!.id;
  await batchWorkSettled(ctx, id, false);
  expect(await prisma.batch.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "OPEN" });
  return id;
}

/** Each order was booked once on the service (by its reference) and recorded with that booking. */
async function expectBookedOnce(shipments: readonly Shipment[]): Promise<void> {
  for (const shipment of shipments) {
    const row = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
    const found = ok(await account.searchShipments({ body: { keyword: row.orderName } })).shipments.filter(
      (entry) => entry.shipmentReference === row.orderName,
    );
    expect(found, row.orderName).toHaveLength(1);
    expect(row, row.orderName).toMatchObject({ bookingStatus: "BOOKED", bookNumber: found[0]!.bookNumber, trackingNumber: found[0]!.trackingNumber });
  }
}

describe("GIVEN Create Batch's answer is lost after the service created the batch", () => {
  it("WHEN the look-up for it fails too THEN the batch job retries by itself and links the one batch the service made, with no restart", async () => {
    const shipments = await connected.quoted({ count: 3, serviceCode: "BLP_GROUND" });
    proxy.inject({ match: CREATE_BATCH, fault: "reset-after", times: 1 });
    // Every attempt of the first look-up (the client tries a read three times) finds the service down.
    proxy.inject({ match: after("reset-after", LIST_BATCHES), fault: "503", times: 3 });

    const id = await openBatch("Lost on create", shipments);

    expect(proxy.applied.map((entry) => entry.fault)).toEqual(["reset-after", "503", "503", "503"]);
    const remote = ok(await account.listBatches({ query: { limit: 100 } })).batches.filter((entry) => entry.name === "Lost on create");
    expect(remote).toHaveLength(1);
    expect((await prisma.batch.findUniqueOrThrow({ where: { id } })).remoteBatchId).toBe(remote[0]!.batchId);
  });
});

describe("GIVEN Batch Book bought the labels and its answer was lost", () => {
  it("WHEN Get Batch's answers are cut off for a while THEN the job reads the outcome back on a later attempt and every order is booked once", async () => {
    const shipments = await connected.quoted({ count: 4, serviceCode: "BLP_GROUND" });
    const id = await openBatch("Lost on book", shipments);
    proxy.inject({ match: BATCH_BOOK, fault: "reset-after", times: 1 });
    proxy.inject({ match: after("reset-after", GET_BATCH), fault: "truncate", times: 3 });

    const ctx = await context();
    expect(await startBatchBooking(ctx, id)).toMatchObject({ ok: false, reason: "pending" });
    await batchWorkSettled(ctx, id, true);

    expect(proxy.applied.map((entry) => entry.fault)).toEqual(["reset-after", "truncate", "truncate", "truncate"]);
    expect(await prisma.batch.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "COMPLETED" });
    await expectBookedOnce(shipments);
  });

  it("WHEN Batch Book's answer comes after the client's timeout THEN Get Batch reads it back and every order is booked once", async () => {
    const shipments = await connected.quoted({ count: 2, serviceCode: "BLP_GROUND" });
    const id = await openBatch("Late on book", shipments);
    proxy.inject({ match: BATCH_BOOK, fault: "hold", times: 1, holdMs: 2_500 });

    const ctx = await context();
    await startBatchBooking(ctx, id);
    await batchWorkSettled(ctx, id, true);

    expect(proxy.applied.map((entry) => entry.fault)).toEqual(["hold"]);
    expect(await prisma.batch.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "COMPLETED" });
    await expectBookedOnce(shipments);
  });

  it("WHEN no job holds the batch any more (its attempts spent, or its process gone) THEN the recorded-work sweep leaves it alone within the grace and settles it after", async () => {
    const shipments = await connected.quoted({ count: 2, serviceCode: "BLP_GROUND" });
    const id = await openBatch("Left booking", shipments);
    // As a process that died after Batch Book leaves it: claimed, booked on the service, nothing recorded.
    const ctx = await context();
    const claim = await claimBatchBooking(ctx, id);
    if (!claim.ok) throw new Error(claim.message);
    ok(await account.batchBook({ body: { batchId: claim.batch.remoteBatchId! } }));
    const claimedAt = (await prisma.batch.findUniqueOrThrow({ where: { id } })).updatedAt;

    const sweepAt = (ms: number) =>
      resumeRecordedWork({ ...processServices, now: () => new Date(claimedAt.getTime() + ms) }, { graceMs: BOOKING_SWEEP_GRACE_MS });
    await sweepAt(BOOKING_SWEEP_GRACE_MS - 1_000);
    await batchWorkSettled(ctx, id, false);
    expect(await prisma.batch.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "BOOKING" });

    await sweepAt(BOOKING_SWEEP_GRACE_MS + 1_000);
    await batchWorkSettled(ctx, id, false);
    expect(await prisma.batch.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "COMPLETED" });
    await expectBookedOnce(shipments);
  });
});

describe("GIVEN a Batch Quote answer cut off on the way", () => {
  it("WHEN the app's client quotes THEN it asks again and every shipment is quoted, none failed", async () => {
    proxy.inject({ match: BATCH_QUOTE, fault: "truncate", times: 1 });
    const client = await shippingClientFor(prisma, SHOP);
    const shipments = await quotedShipments({
      db: prisma,
      shop: SHOP,
      client,
      mapping: connected.mapping,
      now: service.clock.now(),
      count: 6,
      serviceCode: "BLP_GROUND",
    });

    expect(proxy.applied.map((entry) => entry.fault)).toEqual(["truncate"]);
    expect(shipments.map((shipment) => shipment.selectedQuoteId)).toEqual(shipments.map(() => expect.any(Number)));
  });
});
