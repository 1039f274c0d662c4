import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import type { Shipment } from "@prisma/client";
import { useAppEnvironment } from "../support/app-env";
import { useConnectedShop } from "../support/connected-shop";
import { quotedShipments } from "../factories/shipments";
import { sumAmounts } from "../../app/shipping/money";
import { ok, startService, type RunningService } from "../support/service-harness";
import { pickedQuote, storedQuotes } from "../../app/shipping/stored-rates";

// Real parts: the Shipping API service over HTTP (with its hand-moved clock), the app's SQLite database
// with the shop's account, and the app's own batch functions and Shipping API client.
const service: RunningService = await startService();
const { databaseUrl } = useAppEnvironment({ SHIPPING_API_URL: service.baseUrl });
const { default: prisma } = await import("../../app/db/db.server");
const { shippingContext } = await import("../factories/context");
const { createBatches, startBatchCreation } = await import("../../app/booking/creation.server");
const { batchWorkSettled, settleBatchWork } = await import("../../app/booking/batch-work-job");
const { resumeBookings } = await import("../../app/booking/resume.server");
const { processServices } = await import("../../app/context.server");
const batches = await import("../../app/booking/batches.server");
const booking = await import("../../app/booking/batch-booking.server");

const SHOP = "batches-test.myshopify.com";
const DAY = 24 * 60 * 60 * 1000;

const connected = await useConnectedShop({ service, db: prisma, databaseUrl, shop: SHOP });
const { account, mapping } = connected;

/** The app's context at the service's current time (the two clocks agree on expiry). */
const context = () => shippingContext(prisma, SHOP, service.clock.now());

async function quoted(count: number, serviceCode = "BLP_GROUND"): Promise<Shipment[]> {
  return connected.quoted({ count, serviceCode });
}

async function created(name: string, shipments: readonly Shipment[]) {
  const result = await createBatches(await context(), { name, shipmentIds: shipments.map((shipment) => shipment.id) });
  expect(result.errors).toEqual([]);
  return result;
}

describe("creating batches from picked rates", () => {
  it("GIVEN three quoted orders WHEN a batch is created THEN it is open on the service with exactly their picked rates", async () => {
    const shipments = await quoted(3);
    const result = await created("Monday pickup", shipments);
    expect(result.refused).toEqual([]);
    expect(result.batches).toEqual([{ id: expect.any(String), name: "Monday pickup", orders: 3, status: "OPEN" }]);
    const batch = await prisma.batch.findUniqueOrThrow({ where: { id: result.batches[0]!.id } });
    expect(batch).toMatchObject({ status: "OPEN", name: "Monday pickup", remoteBatchId: expect.any(Number) });
    const remote = ok(await account.getBatch({ batchId: batch.remoteBatchId! }));
    expect(remote).toMatchObject({ name: "Monday pickup", status: "open", quoteCount: 3 });
    expect(remote.quotes.map((quote) => quote.quoteId).sort()).toEqual(shipments.map((shipment) => shipment.selectedQuoteId).sort());
    expect(await prisma.shipment.count({ where: { batchId: batch.id } })).toBe(3);
  });

  it("GIVEN picked rates WHEN the page makes a batch THEN it answers with the batch CREATING at once, its job creates it on the service, and the job sent again creates nothing more", async () => {
    const shipments = await quoted(2);
    const ctx = await context();
    const started = await startBatchCreation(ctx, { name: "Queued creation", shipmentIds: shipments.map((shipment) => shipment.id) });
    expect(started.batches).toEqual([{ id: expect.any(String), name: "Queued creation", orders: 2, status: "CREATING" }]);
    const id = started.batches[0]!.id;
    expect(await prisma.shipment.count({ where: { batchId: id } })).toBe(2);
    // What the batch page shows meanwhile: the batch being created, its orders, nothing asked of the service.
    const shown = await batches.openBatch(ctx, id);
    expect(shown.batch.status === "CREATING" || shown.batch.status === "OPEN").toBe(true);
    await batchWorkSettled(ctx, id, false);
    const batch = await prisma.batch.findUniqueOrThrow({ where: { id } });
    expect(batch).toMatchObject({ status: "OPEN", remoteBatchId: expect.any(Number), error: null });
    // A job that runs twice (a redelivery, a second instance) finds the record moved on: one batch on the service.
    await prisma.batch.update({ where: { id }, data: { status: "CREATING", remoteBatchId: null } });
    await settleBatchWork(ctx, id, false);
    await settleBatchWork(ctx, id, false);
    expect(await prisma.batch.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "OPEN", remoteBatchId: batch.remoteBatchId });
    const named = ok(await account.listBatches({ query: { limit: 100 } })).batches.filter((entry) => entry.name === "Queued creation");
    expect(named).toHaveLength(1);
    expect((await batches.openBatch(ctx, id)).batch.status).toBe("OPEN");
  });

  it("GIVEN 501 orders WHEN a batch is created THEN two batches “Name (1/2)” of 500 and “Name (2/2)” of 1, on the service too", async () => {
    const shipments = await quoted(501);
    const result = await created("Peak", shipments);
    expect(result.batches.map((batch) => [batch.name, batch.orders, batch.status])).toEqual([
      ["Peak (1/2)", 500, "OPEN"],
      ["Peak (2/2)", 1, "OPEN"],
    ]);
    const remote = await Promise.all(
      result.batches.map(async (entry) =>
        ok(await account.getBatch({ batchId: (await prisma.batch.findUniqueOrThrow({ where: { id: entry.id } })).remoteBatchId! })),
      ),
    );
    expect(remote.map((batch) => [batch.name, batch.quoteCount])).toEqual([
      ["Peak (1/2)", 500],
      ["Peak (2/2)", 1],
    ]);
    expect(remote[1]!.quotes[0]!.quoteId).toBe(shipments[500]!.selectedQuoteId);
  });

  it("GIVEN orders already batched, without a picked rate or twice in the selection THEN they are refused with why and the rest go in", async () => {
    const [inBatch, fresh, unpicked] = await quoted(3);
    await created("First", [inBatch!]);
    await prisma.shipment.update({ where: { id: unpicked!.id }, data: { selectedQuoteId: null } });
    const twin = (await quoted(1))[0]!;
    await prisma.shipment.update({ where: { id: twin.id }, data: { fulfillmentOrderId: fresh!.fulfillmentOrderId } });

    const result = await createBatches(await context(), { name: "Second", shipmentIds: [inBatch!.id, fresh!.id, unpicked!.id, twin.id, "no-such-shipment"] });
    expect(result.batches).toEqual([expect.objectContaining({ name: "Second", orders: 1 })]);
    expect(result.refused.map((refusal) => [refusal.shipmentId, refusal.reason])).toEqual([
      ["no-such-shipment", expect.stringMatching(/not in this shop/)],
      [inBatch!.id, "Already in batch “First”. Remove it there first, or book that batch."],
      [unpicked!.id, "No rate is picked for it yet. Pick one on the rates page."],
      [twin.id, expect.stringMatching(/Picked twice/)],
    ]);
  });
});

describe("an open batch", () => {
  it("GIVEN a batch WHEN opened THEN one line per order with its rate in the batch, and it can be booked", async () => {
    const shipments = await quoted(2);
    const {
      batches: [entry],
    } = await created("Open view", shipments);
    const view = await batches.openBatch(await context(), entry!.id);
    expect(view.batch).toMatchObject({ name: "Open view", status: "OPEN" });
    expect(view.remote).toMatchObject({ status: "open", quoteCount: 2, bookedCount: 0 });
    expect(view.lines.map((line) => [line.orderName, line.rate, line.carrierCode, line.serviceCode, line.bookingStatus])).toEqual(
      shipments.map((shipment) => [shipment.orderName, "in-batch", "BLP", "BLP_GROUND", "NONE"]),
    );
    expect(view.blockers).toEqual([]);
  });

  it("GIVEN an open batch WHEN an order is removed and added back THEN the service's batch follows", async () => {
    const shipments = await quoted(3);
    const {
      batches: [entry],
    } = await created("Add and remove", shipments.slice(0, 2));
    const ctx = await context();
    const remoteId = (await prisma.batch.findUniqueOrThrow({ where: { id: entry!.id } })).remoteBatchId!;

    expect(await batches.addToBatch(ctx, entry!.id, [shipments[2]!.id])).toMatchObject({ ok: true, message: "Added 1 order." });
    expect(ok(await account.getBatch({ batchId: remoteId })).quoteCount).toBe(3);
    expect(await batches.removeFromBatch(ctx, entry!.id, { shipmentId: shipments[0]!.id })).toEqual({ ok: true, message: "Removed the order from the batch." });
    const remote = ok(await account.getBatch({ batchId: remoteId }));
    expect(remote.quotes.map((quote) => quote.quoteId).sort()).toEqual([shipments[1]!.selectedQuoteId, shipments[2]!.selectedQuoteId].sort());
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: shipments[0]!.id } })).batchId).toBeNull();
    // Removed, the order is free for another batch.
    expect((await created("Elsewhere", [shipments[0]!])).batches).toHaveLength(1);
  });

  it("GIVEN an order the service has in the batch but the app lost track of (lost answer) WHEN the batch is opened THEN it is a member again", async () => {
    const shipments = await quoted(2);
    const {
      batches: [entry],
    } = await created("Adopt", [shipments[0]!]);
    const remoteId = (await prisma.batch.findUniqueOrThrow({ where: { id: entry!.id } })).remoteBatchId!;
    ok(await account.addToBatch({ batchId: remoteId, body: { quoteIds: [shipments[1]!.selectedQuoteId!] } }));
    const view = await batches.openBatch(await context(), entry!.id);
    expect(view.lines.map((line) => line.shipmentId).sort()).toEqual(shipments.map((shipment) => shipment.id).sort());
    expect(view.orphans).toEqual([]);
  });

  it("GIVEN more than 500 orders in all WHEN added THEN refused in words before any call", async () => {
    const shipments = await quoted(1);
    const {
      batches: [full],
    } = await created("Full", await quoted(500));
    const result = await batches.addToBatch(await context(), full!.id, [shipments[0]!.id]);
    expect(result).toMatchObject({ ok: false, message: "A batch holds at most 500 orders. This one has 500, so 0 more fit; put the rest in a new batch." });
  });

  it("GIVEN an open batch WHEN cancelled THEN it is cancelled on the service, cannot be changed or cancelled again, and deleting it frees its orders", async () => {
    const shipments = await quoted(2);
    const {
      batches: [entry],
    } = await created("To cancel", shipments);
    const ctx = await context();
    const remoteId = (await prisma.batch.findUniqueOrThrow({ where: { id: entry!.id } })).remoteBatchId!;

    expect(await batches.cancelBatch(ctx, entry!.id)).toEqual({ ok: true, message: "Batch cancelled. Delete it to put its orders in another batch." });
    expect(ok(await account.getBatch({ batchId: remoteId })).status).toBe("cancelled");
    expect(await batches.cancelBatch(ctx, entry!.id)).toEqual({
      ok: false,
      message: "This batch is cancelled; it can be cancelled only while a batch is open.",
    });
    expect(await batches.addToBatch(ctx, entry!.id, [shipments[0]!.id])).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^This batch is cancelled; orders can be added only while a batch is open/),
    });
    expect(await booking.bookBatch(ctx, entry!.id)).toEqual({
      ok: false,
      reason: "refused",
      message: expect.stringMatching(/^This batch was cancelled\. Delete it/),
    });
    // Still held by the cancelled batch (the service keeps its quotes there).
    expect((await createBatches(ctx, { name: "Too soon", shipmentIds: [shipments[0]!.id] })).refused[0]?.reason).toBe(
      "In cancelled batch “To cancel”, which still holds its rate. Delete that batch first.",
    );

    expect(await batches.deleteBatch(ctx, entry!.id)).toEqual({ ok: true, message: "Deleted “To cancel”." });
    expect(await account.getBatch({ batchId: remoteId })).toMatchObject({ ok: false, error: { kind: "not_found" } });
    expect(await prisma.batch.findUnique({ where: { id: entry!.id } })).toBeNull();
    expect((await created("After delete", shipments)).batches[0]).toMatchObject({ orders: 2, status: "OPEN" });
  });

  it("GIVEN a batch the service changed behind the app's back WHEN cancelled THEN the service's refusal is explained in words", async () => {
    const {
      batches: [entry],
    } = await created("Cancelled elsewhere", await quoted(1));
    const remoteId = (await prisma.batch.findUniqueOrThrow({ where: { id: entry!.id } })).remoteBatchId!;
    ok(await account.cancelBatch({ batchId: remoteId }));
    expect(await batches.cancelBatch(await context(), entry!.id)).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^Only an open batch can be cancelled, and this one is not open any more \(Batch \d+ is cancelled; only an open batch can be cancelled\)\. Refresh the page/,
      ),
    });
  });

  it("GIVEN a batch deleted on the service WHEN opened THEN the page says so and what to do", async () => {
    const {
      batches: [entry],
    } = await created("Deleted elsewhere", await quoted(1));
    ok(await account.deleteBatch({ batchId: (await prisma.batch.findUniqueOrThrow({ where: { id: entry!.id } })).remoteBatchId! }));
    const view = await batches.openBatch(await context(), entry!.id);
    expect(view.remoteError).toMatch(
      /^The Shipping API no longer has this batch; it may have been deleted outside Consign .*Delete it here and create a new batch/,
    );
  });

  it("GIVEN the batches WHEN listed THEN newest first, 25 a page, with order counts", async () => {
    const ctx = await context();
    const first = await batches.listBatches(ctx, { page: 1 });
    expect(first.rows.length).toBeLessThanOrEqual(25);
    expect(first.total).toBe(await prisma.batch.count({ where: { shop: SHOP } }));
    const dates = first.rows.map((row) => row.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const pickup = first.rows.find((row) => row.name === "Monday pickup");
    if (pickup) expect(pickup).toMatchObject({ orders: 3, booked: 0, failed: 0, status: "OPEN" });
    expect((await batches.listBatches(ctx, { page: 99 })).page).toBe(first.pages);
  });
});

describe("expired rates", () => {
  it("GIVEN a batch whose rates expired WHEN booked THEN refused in words; WHEN re-quoted THEN new rates replace them in the batch and it books", async () => {
    const shipments = await quoted(3);
    const {
      batches: [entry],
    } = await created("Expiring", shipments);
    const remoteId = (await prisma.batch.findUniqueOrThrow({ where: { id: entry!.id } })).remoteBatchId!;
    service.clock.advance(31 * DAY);
    try {
      const ctx = await context();
      const view = await batches.openBatch(ctx, entry!.id);
      expect(view.lines.map((line) => line.rate)).toEqual(["expired", "expired", "expired"]);
      expect(view.blockers).toEqual(["3 rates have expired. Choose “Re-quote expired rates”, then book."]);
      expect(await booking.bookBatch(ctx, entry!.id)).toEqual({
        ok: false,
        reason: "refused",
        message: "3 rates have expired. Choose “Re-quote expired rates”, then book.",
      });
      expect((await prisma.batch.findUniqueOrThrow({ where: { id: entry!.id } })).status).toBe("OPEN");

      const repaired = await batches.repairBatch(ctx, entry!.id);
      expect(repaired).toEqual({ ok: true, message: "Re-quoted 3 orders and updated 3 rates in the batch.", requoteFailures: [] });
      const now = await prisma.shipment.findMany({ where: { id: { in: shipments.map((shipment) => shipment.id) } } });
      const newIds = now.map((shipment) => shipment.selectedQuoteId);
      expect(newIds.some((id) => shipments.some((old) => old.selectedQuoteId === id))).toBe(false);
      const remote = ok(await account.getBatch({ batchId: remoteId }));
      expect(remote.quotes.map((quote) => [quote.quoteId, quote.status]).sort()).toEqual(newIds.map((id) => [id, "active"]).sort());
      expect((await batches.openBatch(ctx, entry!.id)).blockers).toEqual([]);
      // Running it again finds nothing to do.
      expect(await batches.repairBatch(ctx, entry!.id)).toMatchObject({ ok: true, message: "Every rate in the batch is current." });

      expect(await booking.bookBatch(ctx, entry!.id)).toMatchObject({ ok: true, booked: 3, failed: 0 });
    } finally {
      service.clock.advance(-31 * DAY);
    }
  });
});

describe("booking a batch", () => {
  it("GIVEN an open batch of 5 WHEN booked THEN each order is BOOKED with its numbers, cost and zone, queued for fulfillment, the balance stored, and the labels PDF has 5 pages", async () => {
    const shipments = await quoted(5);
    const {
      batches: [entry],
    } = await created("Book five", shipments);
    const ctx = await context();
    // Before booking, the page has the batch's total and the balance the last booking reported (a connected
    // account's is not known before its first booking).
    const before = await batches.openBatch(ctx, entry!.id);
    const total = sumAmounts(before.lines.map((line) => line.totalAmount!));
    const onFile = (await prisma.shippingAccount.findUniqueOrThrow({ where: { shop: SHOP } })).prepayBalance;
    expect(before.prepay).toMatchObject(onFile === null ? { kind: "unknown", total } : { kind: "projected", total, balance: onFile });
    const outcome = await booking.bookBatch(ctx, entry!.id);
    expect(outcome).toEqual({ ok: true, booked: 5, failed: 0, prepayBalance: expect.stringMatching(/^\d+\.\d{2}$/) });
    const reported = outcome.ok ? outcome.prepayBalance! : "";
    expect(await prisma.shippingAccount.findUniqueOrThrow({ where: { shop: SHOP } })).toMatchObject({ prepayBalance: reported, prepayBalanceAt: ctx.now() });

    // The next batch is projected from the balance the booking reported.
    const next = await created("After five", await quoted(2));
    const outlook = (await batches.openBatch(await context(), next.batches[0]!.id)).prepay;
    const nextTotal = outlook?.total ?? "";
    expect(outlook).toMatchObject({ kind: "projected", balance: reported, after: sumAmounts([reported, `-${nextTotal}`]), recharges: null, uncovered: 0 });

    const batch = await prisma.batch.findUniqueOrThrow({ where: { id: entry!.id } });
    expect(batch).toMatchObject({ status: "COMPLETED", prepayBalance: outcome.ok ? outcome.prepayBalance : null, bookedAt: ctx.now() });
    const remote = ok(await account.getBatch({ batchId: batch.remoteBatchId! }));
    expect(remote).toMatchObject({ status: "completed", bookedCount: 5, errorCount: 0 });
    const booked = await prisma.shipment.findMany({ where: { batchId: batch.id } });
    for (const shipment of booked) {
      const entry = remote.quotes.find((quote) => quote.quoteId === shipment.selectedQuoteId)!;
      expect(shipment).toMatchObject({
        bookingStatus: "BOOKED",
        bookNumber: entry.bookNumber,
        trackingNumber: entry.trackingNumber,
        carrierCode: "BLP",
        serviceCode: "BLP_GROUND",
        shippingCost: entry.totalAmount,
        currency: "USD",
        zone: expect.stringMatching(/^\d$/),
        fulfillmentStatus: "PENDING",
      });
      // It keeps the rate it was booked at, as its only rate.
      expect(storedQuotes(shipment).map((quote) => quote.quoteId)).toEqual([shipment.selectedQuoteId]);
    }

    const labels = await booking.batchLabels(ctx, entry!.id);
    if (!labels.ok) throw new Error(labels.message);
    expect(labels.filename).toBe("book-five-labels.pdf");
    expect((await PDFDocument.load(labels.pdf)).getPageCount()).toBe(5);

    // Never twice: the batch refuses, and its orders cannot go into another batch.
    expect(await booking.bookBatch(ctx, entry!.id)).toEqual({ ok: false, reason: "refused", message: expect.stringMatching(/^This batch is booked already/) });
    const again = await createBatches(ctx, { name: "Again", shipmentIds: shipments.map((shipment) => shipment.id) });
    expect(again.batches).toEqual([]);
    expect(again.refused.map((refusal) => refusal.reason)).toEqual(booked.map(() => expect.stringMatching(/^Already has a label \(tracking /)));
  });

  it("GIVEN an open batch WHEN labels are asked before booking THEN the merchant is told when they exist", async () => {
    const {
      batches: [entry],
    } = await created("Not yet", await quoted(1));
    expect(await booking.batchLabels(await context(), entry!.id)).toEqual({ ok: false, message: "Labels can be printed once the batch is booked." });
  });

  it("GIVEN a batch left BOOKING whose Batch Book never reached the service WHEN opened THEN it shows BOOKING; once its job has run (start-up's resume) it is open again and books once", async () => {
    const {
      batches: [entry],
    } = await created("Never sent", await quoted(2));
    const ctx = await context();
    const claim = await booking.claimBatchBooking(ctx, entry!.id);
    expect(claim.ok).toBe(true);
    expect(await prisma.shipment.count({ where: { batchId: entry!.id, bookingStatus: "BOOKING" } })).toBe(2);
    // Opening the page only reads.
    expect((await batches.openBatch(ctx, entry!.id)).batch.status).toBe("BOOKING");
    expect(await resumeBookings({ ...processServices, now: () => ctx.now() })).toMatchObject({ batches: 1 });
    await batchWorkSettled(ctx, entry!.id, false);

    const view = await batches.openBatch(ctx, entry!.id);
    expect(view.batch.status).toBe("OPEN");
    expect(view.counts).toMatchObject({ orders: 2, booking: 0 });
    expect(await booking.bookBatch(ctx, entry!.id)).toMatchObject({ ok: true, booked: 2 });
  });

  it("GIVEN a batch left BOOKING whose Batch Book landed but the answer was lost WHEN its job runs (start-up's resume) THEN the bookings are read back with Get Batch, once, and the page shows them", async () => {
    const {
      batches: [entry],
    } = await created("Answer lost", await quoted(3));
    const ctx = await context();
    const claim = await booking.claimBatchBooking(ctx, entry!.id);
    if (!claim.ok) throw new Error("not claimed");
    const sent = ok(await account.batchBook({ body: { batchId: claim.batch.remoteBatchId! } }));
    expect((await batches.openBatch(ctx, entry!.id)).batch.status).toBe("BOOKING");
    await resumeBookings({ ...processServices, now: () => ctx.now() });
    await batchWorkSettled(ctx, entry!.id, false);

    const view = await batches.openBatch(ctx, entry!.id);
    expect(view.batch.status).toBe("COMPLETED");
    expect(view.lines.map((line) => [line.bookingStatus, line.trackingNumber]).sort()).toEqual(
      sent.results.map((result) => ["BOOKED", result.status === "success" ? result.trackingNumber : null]).sort(),
    );
    expect(ok(await account.getBatch({ batchId: claim.batch.remoteBatchId! })).bookedCount).toBe(3);
  });

  it("GIVEN a balance that runs out mid-batch WHEN booked THEN the orders it covered are booked, the others FAILED in words; THEN “Re-quote failed orders” puts them in a new batch with new rates", async () => {
    // A balance that covers two of the six (same rate for every customer: same request, same service).
    const price = Number(pickedQuote((await quoted(1))[0]!)!.totalAmount);
    const poor = await service.createCustomer({ prepaySettings: { minimumBalance: "0", rechargeAmount: (price * 2.5).toFixed(2) } });
    const shop = "poor-shop.myshopify.com";
    const { saveAccount, saveSettings } = await import("../../app/settings/account.server");
    const { DEFAULT_SETTINGS } = await import("../../app/settings/settings");
    const { TEST_SENDER } = await import("../support/account");
    await saveAccount({ db: prisma, shop, now: () => new Date() }, poor, "CONNECTED");
    await saveSettings({ db: prisma, shop }, { ...DEFAULT_SETTINGS, sender: TEST_SENDER });
    const ctx = await shippingContext(prisma, shop, service.clock.now());
    const shipments = await quotedShipments({ db: prisma, shop, client: poor.client, mapping, now: ctx.now(), count: 6, serviceCode: "BLP_GROUND" });
    const result = await createBatches(ctx, { name: "On a budget", shipmentIds: shipments.map((shipment) => shipment.id) });

    const outcome = await booking.bookBatch(ctx, result.batches[0]!.id);
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    expect(outcome).toMatchObject({ booked: 2, failed: 4 });
    const failed = await prisma.shipment.findMany({ where: { shop, bookingStatus: "FAILED" } });
    expect(failed).toHaveLength(outcome.failed);
    for (const shipment of failed)
      expect(shipment.bookingError).toMatch(/^The prepay balance ran out before this order \(.*\)\. Add funds, then choose “Re-quote failed orders”\.$/);

    const retried = await booking.rebatchFailed(ctx, result.batches[0]!.id);
    expect(retried.requoteFailures).toEqual([]);
    if (!retried.ok) throw new Error(retried.message);
    // The page's answer comes at once; the new batch's job creates it on the service.
    expect(retried.created.batches).toEqual([expect.objectContaining({ name: "On a budget (retry)", orders: failed.length, status: "CREATING" })]);
    await batchWorkSettled(ctx, retried.created.batches[0]!.id, false);
    expect(await prisma.batch.findUniqueOrThrow({ where: { id: retried.created.batches[0]!.id } })).toMatchObject({
      status: "OPEN",
      remoteBatchId: expect.any(Number),
    });
    const moved = await prisma.shipment.findMany({ where: { id: { in: failed.map((shipment) => shipment.id) } } });
    for (const shipment of moved) {
      expect(shipment).toMatchObject({ batchId: retried.created.batches[0]!.id, bookingStatus: "NONE", bookingError: null });
      expect(failed.find((old) => old.id === shipment.id)!.selectedQuoteId).not.toBe(shipment.selectedQuoteId);
    }
  });
});
