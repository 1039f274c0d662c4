import { afterAll, describe, expect, it, vi } from "vitest";
import { createPrismaClient } from "../../app/db/db-client.server";
import { toGid } from "../../devstore/gid";
import { aRequestedReturn } from "../factories/returns";
import { expectKilledAtCrashPoint, expectRanToEnd, lastJsonLine, runAppProcess, type AppProcessExit } from "../support/app-process";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { ok } from "../support/service-harness";
import { stopTracking } from "../../app/tracking/following.server";

// The app processes are the children: on PostgreSQL they alone take this file's jobs (test/support/job-workers.ts).
process.env.CONSIGN_TEST_JOBS_IN_CHILDREN = "1";
vi.setConfig({ testTimeout: 90_000 });

// Return labels in real processes killed at the dangerous moments (kill -9: no finally, no flush) against the real
// service, the local admin and a real database; then a fresh process does what the app does at start-up, and the
// service and the local admin are asked whether anything was booked or attached twice (docs/decisions/041).
const { service, harness, databaseUrl, customer, appProcessEnv, close } = await startServiceAndAdmin({
  orders: 4,
  scope: "read_orders,write_fulfillments,read_returns,write_returns",
});
const db = createPrismaClient(databaseUrl);
afterAll(async () => {
  await db.$disconnect();
  await close();
});
const { default: prisma } = await import("../../app/db/db.server");
const { refreshReturn } = await import("../../app/returns/returns.server");
const { quoteReturnLabel, splitReturnLabel } = await import("../../app/returns/return-label.server");
const { storedReturnLines } = await import("../../app/returns/return-node");
const { shippingContext } = await import("../factories/context");
const { unauthenticated } = await import("../../app/shopify.server");
const account = service.clientFor(customer);
const store = harness.admin.store;

/** The booking's in-flight grace, passed: a fresh process may read the booking back and release it. */
const AFTER_GRACE_MS = 3 * 60 * 1000;

async function runWorker(args: string[], options: { crashAt?: string; now?: Date } = {}): Promise<AppProcessExit & { result: unknown }> {
  const exit = await runAppProcess("return-worker.ts", args, {
    ...appProcessEnv(options.crashAt),
    CONSIGN_TEST_NOW: (options.now ?? new Date()).toISOString(),
  });
  const result = lastJsonLine(exit.stdout);
  return { ...exit, result };
}

/** An approved return of two items, read into Consign, with its label quoted: the label's shipment id. */
async function quotedLabel(): Promise<{ shipmentId: string; returnId: number; returnGid: string; orderId: number }> {
  const made = aRequestedReturn(store, { items: 2, approved: true });
  const { admin } = await unauthenticated.admin(SHOP);
  const ctx = await shippingContext(prisma, SHOP, new Date(), async () => ({ admin, shop: SHOP }));
  await refreshReturn(ctx, made.returnGid);
  const quoted = await quoteReturnLabel(ctx, made.returnGid);
  if (!quoted.ok) throw new Error(quoted.message);
  return { shipmentId: quoted.shipmentId, returnId: made.returnId, returnGid: made.returnGid, orderId: made.orderId };
}

/** What the service booked for the label (Search Shipments by its order, matched by the label's id). */
async function bookingsOf(shipmentId: string) {
  const row = await db.shipment.findUniqueOrThrow({ where: { id: shipmentId } });
  return ok(await account.searchShipments({ body: { keyword: row.orderName } })).shipments.filter((record) => record.shipperReference2 === shipmentId);
}

/** The reverse deliveries the local admin holds for the return, with their tracking numbers. */
function reverseDeliveriesOf(returnId: number) {
  return store.listReverseFulfillmentOrders(returnId).flatMap((rfo) => store.listReverseDeliveries(rfo.id));
}

/** Booked once, attached once: the label's row, the service and the local admin agree. */
async function expectBookedAndAttachedOnce(label: { shipmentId: string; returnId: number }) {
  const booked = await bookingsOf(label.shipmentId);
  expect(booked).toHaveLength(1);
  const row = await db.shipment.findUniqueOrThrow({ where: { id: label.shipmentId } });
  expect(row).toMatchObject({
    bookingStatus: "BOOKED",
    bookNumber: booked[0]!.bookNumber,
    trackingNumber: booked[0]!.trackingNumber,
    fulfillmentStatus: "FULFILLED",
  });
  const deliveries = reverseDeliveriesOf(label.returnId);
  expect(deliveries).toHaveLength(1);
  expect(deliveries[0]).toMatchObject({ tracking_number: row.trackingNumber });
  expect(row.fulfillmentId).toBe(toGid("ReverseDelivery", deliveries[0]!.id));
}

/** The claim of a write left CREATING has outlived its in-flight lease, as minutes after a crash. */
async function leaseOver(shipmentId: string) {
  await db.shipment.update({ where: { id: shipmentId }, data: { updatedAt: new Date(Date.now() - AFTER_GRACE_MS) } });
}

describe("a return label's booking killed mid-way", () => {
  it("GIVEN a kill before Book Shipment is sent WHEN the app starts again after the grace THEN the booking is released, and booked again it is booked once and attached once", async () => {
    const label = await quotedLabel();
    expectKilledAtCrashPoint(await runWorker(["book", SHOP, label.shipmentId], { crashAt: "return-booking:before-call" }));
    expect((await db.shipment.findUniqueOrThrow({ where: { id: label.shipmentId } })).bookingStatus).toBe("BOOKING");
    expect(await bookingsOf(label.shipmentId)).toHaveLength(0);

    expectRanToEnd(await runWorker(["resume", "-"], { now: new Date(Date.now() + AFTER_GRACE_MS) }));
    expect((await db.shipment.findUniqueOrThrow({ where: { id: label.shipmentId } })).bookingStatus).toBe("NONE");
    const again = await runWorker(["book", SHOP, label.shipmentId]);
    expectRanToEnd(again);
    expect(again.result).toMatchObject({ ok: true });
    await expectBookedAndAttachedOnce(label);
  });

  it("GIVEN a kill after Book Shipment booked the label WHEN the app starts again THEN the booking is read back, recorded once and attached once; booking again books nothing", async () => {
    const label = await quotedLabel();
    expectKilledAtCrashPoint(await runWorker(["book", SHOP, label.shipmentId], { crashAt: "return-booking:after-call" }));
    expect((await db.shipment.findUniqueOrThrow({ where: { id: label.shipmentId } })).bookingStatus).toBe("BOOKING");
    expect(await bookingsOf(label.shipmentId)).toHaveLength(1);

    expectRanToEnd(await runWorker(["resume", "-"]));
    await expectBookedAndAttachedOnce(label);
    const again = await runWorker(["book", SHOP, label.shipmentId]);
    expect(again.result).toMatchObject({ ok: true });
    await expectBookedAndAttachedOnce(label);
  });
});

describe("a return label's reverse delivery killed mid-way", () => {
  it("GIVEN a kill after the intent, before reverseDeliveryCreateWithShipping WHEN the app starts again THEN it reads the return, finds nothing and creates the reverse delivery once", async () => {
    const label = await quotedLabel();
    expectKilledAtCrashPoint(await runWorker(["book", SHOP, label.shipmentId], { crashAt: "reverse-delivery:before-call" }));
    expect(await db.shipment.findUniqueOrThrow({ where: { id: label.shipmentId } })).toMatchObject({
      bookingStatus: "BOOKED",
      fulfillmentStatus: "CREATING",
      fulfillmentAttempts: 1,
    });
    expect(reverseDeliveriesOf(label.returnId)).toHaveLength(0);

    // Within its lease nobody takes the write over; past it, the next start does.
    expectRanToEnd(await runWorker(["resume", "-"]));
    expect((await db.shipment.findUniqueOrThrow({ where: { id: label.shipmentId } })).fulfillmentStatus).toBe("CREATING");
    await leaseOver(label.shipmentId);
    expectRanToEnd(await runWorker(["resume", "-"]));
    await expectBookedAndAttachedOnce(label);
  });

  it("GIVEN a kill after Shopify created the reverse delivery WHEN the app starts again THEN it finds the delivery by its tracking number and links it instead of creating another", async () => {
    const label = await quotedLabel();
    expectKilledAtCrashPoint(await runWorker(["book", SHOP, label.shipmentId], { crashAt: "reverse-delivery:after-call" }));
    expect((await db.shipment.findUniqueOrThrow({ where: { id: label.shipmentId } })).fulfillmentStatus).toBe("CREATING");
    expect(reverseDeliveriesOf(label.returnId)).toHaveLength(1);

    await leaseOver(label.shipmentId);
    expectRanToEnd(await runWorker(["resume", "-"]));
    await expectBookedAndAttachedOnce(label);
    expect((await db.shipment.findUniqueOrThrow({ where: { id: label.shipmentId } })).fulfillmentAttempts).toBe(1);
  });
});

describe("a return in two boxes, its reverse deliveries killed mid-way", () => {
  it("GIVEN box 1 attached and box 2 killed after Shopify created its reverse delivery WHEN the app starts again THEN box 2's delivery is found among the two by its own tracking number and linked, not created again; each delivery holds its own box's lines and quantities", async () => {
    // A return of three units (two of one line, one of another) in two boxes: box 1 one of each, box 2 the other.
    const made = aRequestedReturn(store, { items: 3, approved: true });
    const { admin } = await unauthenticated.admin(SHOP);
    const ctx = await shippingContext(prisma, SHOP, new Date(), async () => ({ admin, shop: SHOP }));
    await refreshReturn(ctx, made.returnGid);
    const stored = await db.shopReturn.findUniqueOrThrow({ where: { id: made.returnGid } });
    const [two, one] = storedReturnLines(stored.lines);
    const split = await splitReturnLabel(ctx, made.returnGid, [{ [two!.id]: 1, [one!.id]: 1 }, { [two!.id]: 1 }]);
    if (!split.ok) throw new Error(split.message);
    const [first, second] = split.boxes.map((box) => box.shipmentId);

    expectRanToEnd(await runWorker(["book", SHOP, first!]));
    expectKilledAtCrashPoint(await runWorker(["book", SHOP, second!], { crashAt: "reverse-delivery:after-call" }));
    expect(reverseDeliveriesOf(made.returnId)).toHaveLength(2);
    expect((await db.shipment.findUniqueOrThrow({ where: { id: second! } })).fulfillmentStatus).toBe("CREATING");
    await leaseOver(second!);
    expectRanToEnd(await runWorker(["resume", "-"]));

    const rows = await Promise.all([first!, second!].map((id) => db.shipment.findUniqueOrThrow({ where: { id } })));
    const deliveries = reverseDeliveriesOf(made.returnId);
    expect(deliveries).toHaveLength(2);
    const reverse = JSON.parse(stored.reverseLines) as Array<{ id: string; fulfillmentLineItemId: string }>;
    const rfoLine = (line: typeof two) =>
      Number(
        reverse
          .find((entry) => entry.fulfillmentLineItemId === line!.fulfillmentLineItemId)!
          .id.split("/")
          .pop(),
      );
    const expected = [{ [rfoLine(two)]: 1, [rfoLine(one)]: 1 }, { [rfoLine(two)]: 1 }];
    for (const [index, row] of rows.entries()) {
      expect(row).toMatchObject({ bookingStatus: "BOOKED", fulfillmentStatus: "FULFILLED" });
      expect((await bookingsOf(row.id)).length).toBe(1);
      const delivery = deliveries.find((each) => toGid("ReverseDelivery", each.id) === row.fulfillmentId)!;
      expect(delivery.tracking_number).toBe(row.trackingNumber);
      expect(
        Object.fromEntries(store.listReverseDeliveryLineItems(delivery.id).map((line) => [line.reverse_fulfillment_order_line_item_id, line.quantity])),
      ).toEqual(expected[index]);
    }
    // Box 2's delivery was linked, not created again.
    expect(rows[1]!.fulfillmentAttempts).toBe(1);
  });
});

/**
 * A return whose attached label was voided in the provider's portal, as the tracking pass records it
 * (test/integration/return-label-kept.test.ts drives the pass itself), with its new label quoted: both labels.
 */
async function replacementQuoted() {
  const label = await quotedLabel();
  expectRanToEnd(await runWorker(["book", SHOP, label.shipmentId]));
  await expectBookedAndAttachedOnce(label);
  const voided = await db.shipment.findUniqueOrThrow({ where: { id: label.shipmentId } });
  const answer = await service.fetch(`/portal/customers/${customer.customerId}/shipments/${voided.bookNumber}/void`, {
    method: "POST",
    authorization: `Basic ${Buffer.from(`${customer.email}:${customer.password}`).toString("base64")}`,
  });
  expect(answer).toMatchObject({ status: 200, body: { voided: true } });
  await stopTracking({ db, shop: SHOP }, { shipmentId: voided.id }, "VOIDED");
  const { admin } = await unauthenticated.admin(SHOP);
  const ctx = await shippingContext(prisma, SHOP, new Date(), async () => ({ admin, shop: SHOP }));
  const quoted = await quoteReturnLabel(ctx, label.returnGid);
  if (!quoted.ok) throw new Error(quoted.message);
  return { voided, replacement: { ...label, shipmentId: quoted.shipmentId }, emailsBefore: store.listCustomerEmails(label.orderId).length };
}

/** The replacement took over the voided label's reverse delivery once: one delivery, the new number and link, one email. */
async function expectUpdatedOnce(
  voided: { fulfillmentId: string | null },
  replacement: { shipmentId: string; returnId: number; orderId: number },
  { emailsBefore, attempts }: { emailsBefore: number; attempts: number },
) {
  const row = await db.shipment.findUniqueOrThrow({ where: { id: replacement.shipmentId } });
  expect(await bookingsOf(replacement.shipmentId)).toHaveLength(1);
  expect(row).toMatchObject({ bookingStatus: "BOOKED", fulfillmentStatus: "FULFILLED", fulfillmentId: voided.fulfillmentId, fulfillmentAttempts: attempts });
  const deliveries = reverseDeliveriesOf(replacement.returnId);
  expect(deliveries).toHaveLength(1);
  expect(deliveries[0]).toMatchObject({ tracking_number: row.trackingNumber, label_url: expect.stringContaining(`/returns/label/${row.labelToken}`) });
  expect(store.listCustomerEmails(replacement.orderId).slice(emailsBefore)).toHaveLength(1);
}

describe("a replacement label's reverse delivery update killed mid-way", () => {
  it("GIVEN a kill after the intent, before reverseDeliveryShippingUpdate WHEN the app starts again past the lease THEN it reads the return, finds the old number and updates the delivery once", async () => {
    const { voided, replacement, emailsBefore } = await replacementQuoted();
    expectKilledAtCrashPoint(await runWorker(["book", SHOP, replacement.shipmentId], { crashAt: "reverse-delivery-update:before-call" }));
    expect(await db.shipment.findUniqueOrThrow({ where: { id: replacement.shipmentId } })).toMatchObject({
      bookingStatus: "BOOKED",
      fulfillmentStatus: "CREATING",
      fulfillmentAttempts: 1,
    });
    expect(reverseDeliveriesOf(replacement.returnId)).toEqual([expect.objectContaining({ tracking_number: voided.trackingNumber })]);

    await leaseOver(replacement.shipmentId);
    expectRanToEnd(await runWorker(["resume", "-"]));
    // The attempt that died is counted: the retry is the second.
    await expectUpdatedOnce(voided, replacement, { emailsBefore, attempts: 2 });
  });

  it("GIVEN a kill after Shopify updated the reverse delivery WHEN the app starts again past the lease THEN it finds the new number on the return and links it, without updating (or emailing) again", async () => {
    const { voided, replacement, emailsBefore } = await replacementQuoted();
    expectKilledAtCrashPoint(await runWorker(["book", SHOP, replacement.shipmentId], { crashAt: "reverse-delivery-update:after-call" }));
    expect((await db.shipment.findUniqueOrThrow({ where: { id: replacement.shipmentId } })).fulfillmentStatus).toBe("CREATING");

    await leaseOver(replacement.shipmentId);
    expectRanToEnd(await runWorker(["resume", "-"]));
    await expectUpdatedOnce(voided, replacement, { emailsBefore, attempts: 1 });
  });
});
