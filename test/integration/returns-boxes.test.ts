import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { parseGid, toGid } from "../../devstore/gid";
import { aRequestedReturn } from "../factories/returns";
import { contextOf, shippingContext } from "../factories/context";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { makeDue, shipmentWithSchedule } from "../support/tracking-schedule";
import { stopTracking } from "../../app/tracking/following.server";

// A return in several boxes (issue 24 §2, docs/decisions/041 "a return's boxes") on real parts: the local admin's
// returns and reverse deliveries on the real 2026-10 schema, the Shipping API service's inbound services and
// tracking, the app's database.
const { service, harness, close } = await startServiceAndAdmin({
  orders: 4,
  env: { SHOPIFY_APP_URL: "https://consign.example" },
  scope: "read_orders,write_fulfillments,read_returns,write_returns",
});
afterAll(close);

const { default: prisma } = await import("../../app/db/db.server");
const { processJobs } = await import("../../app/context.server");
const { refreshReturn } = await import("../../app/returns/returns.server");
const labels = await import("../../app/returns/return-label.server");
const attach = await import("../../app/returns/return-attach.server");
const { viewReturns, LABEL_VOIDED } = await import("../../app/returns/returns-page.server");
const { loadSettings, saveSettings } = await import("../../app/settings/account.server");
const { unauthenticated } = await import("../../app/shopify.server");
const { syncDueTracking } = await import("../../app/tracking/pass.server");
const { storedReturnLines } = await import("../../app/returns/return-node");
const { toNanograms } = await import("../../app/orders/weights");
const { ActionInput } = await import("../../app/routes/app.returns/returns.server");

const store = harness.admin.store;

async function shopContext(now: () => Date = () => new Date()) {
  const { admin } = await unauthenticated.admin(SHOP);
  return contextOf({ admin, shop: SHOP }, prisma, now);
}
async function bookingContext(now: () => Date = () => new Date()) {
  const { admin } = await unauthenticated.admin(SHOP);
  return shippingContext(prisma, SHOP, now, async () => ({ admin, shop: SHOP }));
}

/** An approved return of three units (two of its first line, one of its second), read into Consign: its lines. */
async function returnOfThree() {
  const made = aRequestedReturn(store, { items: 3, approved: true });
  await refreshReturn(await shopContext(), made.returnGid);
  const row = await prisma.shopReturn.findUniqueOrThrow({ where: { id: made.returnGid } });
  const [two, one] = storedReturnLines(row.lines);
  expect([two!.quantity, one!.quantity]).toEqual([2, 1]);
  return { ...made, two: two!, one: one! };
}

const boxesOf = (returnId: string) =>
  prisma.shipment.findMany({ where: { shop: SHOP, kind: "RETURN", returnId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

/** The local admin's reverse deliveries of a return: tracking number → { reverse line id → quantity }. */
function reverseDeliveriesOf(returnId: number) {
  return store
    .listReverseFulfillmentOrders(returnId)
    .flatMap((rfo) => store.listReverseDeliveries(rfo.id))
    .map((delivery) => ({
      tracking: delivery.tracking_number,
      lines: Object.fromEntries(store.listReverseDeliveryLineItems(delivery.id).map((line) => [line.reverse_fulfillment_order_line_item_id, line.quantity])),
    }));
}

describe("splitting a return into boxes is refused on bad input, naming the field, and writes nothing", () => {
  it("GIVEN a unit in no box, an empty box, or more boxes than units THEN each problem is named on its field", async () => {
    const made = await returnOfThree();
    const ctx = await bookingContext();
    const { two, one } = made;

    const unboxed = await labels.splitReturnLabel(ctx, made.returnGid, [{ [two.id]: 1 }, { [one.id]: 1 }]);
    expect(unboxed).toMatchObject({ ok: false, fieldErrors: { "lines[0]": `1 of ${two.title} is in no box. Put every item in a box.` } });

    const empty = await labels.splitReturnLabel(ctx, made.returnGid, [{ [two.id]: 2, [one.id]: 1 }, { [two.id]: 0 }]);
    expect(empty).toMatchObject({ ok: false, fieldErrors: { "boxes[1]": "Box 2 has nothing in it. Put an item in it, or use fewer boxes." } });
    expect(!empty.ok && Object.keys(empty.fieldErrors ?? {})).toEqual(["boxes[1]"]);

    const tooMany = await labels.splitReturnLabel(ctx, made.returnGid, [{ [two.id]: 1 }, { [two.id]: 1 }, { [one.id]: 1 }, {}]);
    expect(tooMany).toMatchObject({ ok: false, fieldErrors: { boxes: "3 items can go in 3 boxes at most. Use fewer boxes." } });

    const twice = await labels.splitReturnLabel(ctx, made.returnGid, [{ [two.id]: 2, [one.id]: 1 }, { [two.id]: 1 }]);
    expect(twice).toMatchObject({ ok: false, fieldErrors: { "lines[0]": `The boxes hold 3 of ${two.title}, but 2 are coming back.` } });

    expect(await prisma.shipment.count({ where: { returnId: made.returnGid } })).toBe(0);
  });

  it("GIVEN the page posts boxes that are not JSON, or not counts THEN the action's input is refused before anything runs", () => {
    const parse = (boxes: string) => ActionInput.safeParse({ intent: "split", returnId: "gid://shopify/Return/1", boxes }).success;
    expect(parse('[{"a":1},{"b":1}]')).toBe(true);
    expect(parse("[{")).toBe(false);
    expect(parse('[{"a":-1}]')).toBe(false);
    expect(parse('[{"a":"1"}]')).toBe(false);
    expect(parse(`${"[".repeat(50)}${"]".repeat(50)}`)).toBe(false);
  });
});

describe("a return in two boxes", () => {
  it("GIVEN a return of three units split into two boxes THEN each box is quoted with its own weight and lines, both are booked, Shopify gets two reverse deliveries each with its own lines and tracking, and the return is On the way until both arrive", async () => {
    const serviceTime = () => service.clock.now();
    const made = await returnOfThree();
    const ctx = await bookingContext(serviceTime);
    const { two, one } = made;
    // A carrier whose return parcels are sent (a scan-based label may never be used) and charged when booked.
    const before = await loadSettings(ctx);
    await saveSettings(ctx, { ...before, returnRule: { kind: "preferred", carrierCode: "BLP" } });
    onTestFinished(() => saveSettings(ctx, before));

    // A first split into three boxes, replaced by a split into two: the quotes never booked are replaced.
    const three = await labels.splitReturnLabel(ctx, made.returnGid, [{ [two.id]: 1 }, { [two.id]: 1 }, { [one.id]: 1 }]);
    expect(three).toMatchObject({ ok: true, boxes: [{}, {}, {}] });
    const split = await labels.splitReturnLabel(ctx, made.returnGid, [{ [two.id]: 1, [one.id]: 1 }, { [two.id]: 1 }]);
    expect(split).toMatchObject({ ok: true, boxes: [{ reason: expect.any(String) }, { reason: expect.any(String) }] });
    if (!split.ok) return;
    const boxes = await boxesOf(made.returnGid);
    expect(boxes.map((box) => box.id)).toEqual(split.boxes.map((box) => box.shipmentId));

    // Each box weighs its own items plus the packaging; its lines are its reverse lines and quantities.
    const settings = await loadSettings(ctx);
    const packaging = toNanograms(settings.packagingWeight.value, settings.packagingWeight.unit);
    const weigh = (line: typeof two) => toNanograms(line.weight!.value, line.weight!.unit);
    const requests = boxes.map(
      (box) =>
        JSON.parse(box.request) as {
          weightUnit: "lb" | "kg";
          contentDescription: string;
          pieces: Array<{ weight: string; lineItems: Array<{ quantity: number }> }>;
        },
    );
    const pieceWeight = (index: number) => toNanograms(Number(requests[index]!.pieces[0]!.weight), requests[index]!.weightUnit);
    const unitOfTwo = weigh(two) / 2n;
    // Rounded up to the unit's printed decimals: within a hundredth of a pound.
    const slack = toNanograms(0.01, "lb");
    for (const [index, expected] of [packaging + unitOfTwo + weigh(one), packaging + unitOfTwo].entries()) {
      expect(pieceWeight(index) >= expected - 1n && pieceWeight(index) <= expected + slack).toBe(true);
    }
    expect(requests.map((request) => request.contentDescription)).toEqual([
      `Return ${(await prisma.shopReturn.findUniqueOrThrow({ where: { id: made.returnGid } })).name}, box 1 of 2`,
      expect.stringMatching(/, box 2 of 2$/),
    ]);
    expect(requests.map((request) => request.pieces[0]!.lineItems.map((line) => line.quantity))).toEqual([[1, 1], [1]]);
    const stored = await prisma.shopReturn.findUniqueOrThrow({ where: { id: made.returnGid } });
    const reverse = JSON.parse(stored.reverseLines) as Array<{ id: string; fulfillmentLineItemId: string }>;
    const reverseOf = (line: typeof two) => reverse.find((entry) => entry.fulfillmentLineItemId === line.fulfillmentLineItemId)!.id;
    expect(boxes.map((box) => (JSON.parse(box.lines) as Array<{ id: string; quantity: number }>).map((line) => [line.id, line.quantity]))).toEqual([
      [
        [reverseOf(two), 1],
        [reverseOf(one), 1],
      ],
      [[reverseOf(two), 1]],
    ]);

    // The page shows each box's pick and reason; its checkpoint books both.
    const needsLabel = await viewReturns(ctx, { filter: "needs_label", page: 1 });
    const row = needsLabel.rows.find((entry) => entry.id === made.returnGid)!;
    expect(row.labels.map((label) => [label.shipmentId, label.reason !== null, label.amount !== null])).toEqual(boxes.map((box) => [box.id, true, true]));
    expect(row.splittable).toHaveLength(2);
    expect(needsLabel.checkpoint?.shipmentIds).toEqual(expect.arrayContaining(boxes.map((box) => box.id)));
    await labels.startReturnBooking(
      ctx,
      boxes.map((box) => box.id),
    );
    await processJobs().drained(labels.returnLabelsJob, { shop: SHOP, shipmentIds: [] });
    await processJobs().drained(attach.returnAttachJob, { shop: SHOP });
    const booked = await boxesOf(made.returnGid);
    expect(booked.map((box) => [box.bookingStatus, box.fulfillmentStatus])).toEqual([
      ["BOOKED", "FULFILLED"],
      ["BOOKED", "FULFILLED"],
    ]);
    expect(new Set(booked.map((box) => box.trackingNumber)).size).toBe(2);

    // Two reverse deliveries in the local admin, each with its box's lines, quantities and tracking number.
    const rfoLine = (line: typeof two) => parseGid(reverseOf(line))!.id;
    expect(reverseDeliveriesOf(made.returnId)).toEqual([
      { tracking: booked[0]!.trackingNumber, lines: { [rfoLine(two)]: 1, [rfoLine(one)]: 1 } },
      { tracking: booked[1]!.trackingNumber, lines: { [rfoLine(two)]: 1 } },
    ]);
    expect(booked.map((box) => box.fulfillmentId)).toEqual(
      store
        .listReverseFulfillmentOrders(made.returnId)
        .flatMap((rfo) => store.listReverseDeliveries(rfo.id))
        .map((delivery) => toGid("ReverseDelivery", delivery.id)),
    );
    // Attaching again creates nothing; a booked box cannot be split again, in words.
    await attach.attachReturnLabels(await shopContext());
    expect(reverseDeliveriesOf(made.returnId)).toHaveLength(2);
    const again = await labels.splitReturnLabel(ctx, made.returnGid, [{ [two.id]: 2 }, { [one.id]: 1 }]);
    expect(again).toMatchObject({ ok: false, message: expect.stringMatching(/has a label booked already \(tracking \S+\), so its boxes cannot change/) });
    expect(await prisma.shipment.count({ where: { returnId: made.returnGid } })).toBe(2);

    // Box 1 travels back while box 2 waits its turn: On the way until both are delivered.
    const tabOf = async () => {
      const found = [];
      for (const filter of ["needs_label", "on_the_way", "arrived"] as const)
        if ((await viewReturns(ctx, { filter, page: 1 })).rows.some((entry) => entry.id === made.returnGid)) found.push(filter);
      return found;
    };
    expect(await tabOf()).toEqual(["on_the_way"]);
    const later = new Date(serviceTime().getTime() + 60 * 24 * 3_600_000);
    await makeDue(prisma, booked[0]!.id, serviceTime());
    await makeDue(prisma, booked[1]!.id, later);
    const driveUntilDelivered = async (shipmentId: string) => {
      for (let hour = 0; hour < 10 * 24; hour++) {
        service.clock.advance(3_600_000);
        await syncDueTracking(await shopContext(serviceTime), { random: () => 0.5 });
        if ((await prisma.shipment.findUniqueOrThrow({ where: { id: shipmentId } })).trackingState === "DELIVERED") return;
      }
      const row = await shipmentWithSchedule(prisma, shipmentId);
      throw new Error(
        `${shipmentId} was not delivered: ${JSON.stringify([row.trackingState, row.schedule?.nextTrackAt, row.carrierStatus, row.trackingStopReason, row.trackingError, serviceTime()])}`,
      );
    };
    await driveUntilDelivered(booked[0]!.id);
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: booked[1]!.id } })).trackingState).toBe("ACTIVE");
    expect(await tabOf()).toEqual(["on_the_way"]);
    const halfway = (await viewReturns(ctx, { filter: "on_the_way", page: 1 })).rows.find((entry) => entry.id === made.returnGid);
    expect(halfway).toMatchObject({ step: "waiting", todo: "1 of 2 boxes arrived — waiting for the rest", splittable: null });

    await makeDue(prisma, booked[1]!.id, serviceTime());
    await driveUntilDelivered(booked[1]!.id);
    expect(await tabOf()).toEqual(["arrived"]);
    const arrived = await viewReturns(ctx, { filter: "arrived", page: 1 });
    expect(arrived.rows.find((entry) => entry.id === made.returnGid)).toMatchObject({ step: "arrived" });
    expect(arrived.counts.arrived).toBe(arrived.rows.length);
  }, 180_000);
});

describe("a return in boxes, one booked and one not", () => {
  it("GIVEN box 2's booking failed after box 1 was booked THEN the return cannot be split again, and Get return labels quotes box 2 again as it was split, in its place, and it books and attaches with its own lines", async () => {
    const made = await returnOfThree();
    const ctx = await bookingContext();
    const { two, one } = made;
    const split = await labels.splitReturnLabel(ctx, made.returnGid, [{ [two.id]: 2 }, { [one.id]: 1 }]);
    if (!split.ok) throw new Error(split.message);
    const [first, second] = await boxesOf(made.returnGid);
    expect((await labels.bookReturnLabel(ctx, first!.id)).ok).toBe(true);
    // As a refused booking leaves it.
    await prisma.shipment.update({ where: { id: second!.id }, data: { bookingStatus: "FAILED", bookingError: "The carrier refused the parcel." } });
    const page = await viewReturns(ctx, { filter: "all", page: 1 });
    expect(page.rows.find((entry) => entry.id === made.returnGid)).toMatchObject({
      step: "get_label",
      todo: "Get a return label for the boxes not booked",
      splittable: null,
    });

    expect(await labels.splitReturnLabel(ctx, made.returnGid, [{ [two.id]: 2, [one.id]: 1 }])).toMatchObject({
      ok: false,
      message: expect.stringContaining("so its boxes cannot change. Get return labels for the boxes not booked yet instead."),
    });
    const again = await labels.quoteReturnLabel(ctx, made.returnGid);
    expect(again).toMatchObject({ ok: true });
    const boxes = await boxesOf(made.returnGid);
    expect(boxes.map((box) => box.id)).toEqual([first!.id, again.ok ? again.shipmentId : ""]);
    expect(boxes[1]).toMatchObject({ bookingStatus: "NONE", lines: second!.lines, createdAt: second!.createdAt });
    expect(JSON.parse(boxes[1]!.request).pieces).toEqual(JSON.parse(second!.request).pieces);

    expect((await labels.bookReturnLabel(ctx, boxes[1]!.id)).ok).toBe(true);
    await processJobs().drained(attach.returnAttachJob, { shop: SHOP });
    const reverse = JSON.parse((await prisma.shopReturn.findUniqueOrThrow({ where: { id: made.returnGid } })).reverseLines) as Array<{
      id: string;
      fulfillmentLineItemId: string;
    }>;
    const rfoLine = (line: typeof two) => parseGid(reverse.find((entry) => entry.fulfillmentLineItemId === line.fulfillmentLineItemId)!.id)!.id;
    const booked = await boxesOf(made.returnGid);
    expect(reverseDeliveriesOf(made.returnId)).toEqual([
      { tracking: booked[0]!.trackingNumber, lines: { [rfoLine(two)]: 2 } },
      { tracking: booked[1]!.trackingNumber, lines: { [rfoLine(one)]: 1 } },
    ]);
    expect(await labels.quoteReturnLabel(ctx, made.returnGid)).toMatchObject({ ok: false, message: expect.stringContaining("has a label already") });
  });
});

describe("a box of a return voided at the carrier", () => {
  it("GIVEN two boxes attached and box 1's label voided THEN Returns asks for a new label, Get return labels quotes box 1 again as it was, and its new label updates box 1's reverse delivery; box 2's is untouched", async () => {
    const made = await returnOfThree();
    const ctx = await bookingContext();
    const { two, one } = made;
    const split = await labels.splitReturnLabel(ctx, made.returnGid, [{ [two.id]: 2 }, { [one.id]: 1 }]);
    if (!split.ok) throw new Error(split.message);
    for (const box of split.boxes) expect((await labels.bookReturnLabel(ctx, box.shipmentId)).ok).toBe(true);
    await processJobs().drained(attach.returnAttachJob, { shop: SHOP });
    const [first, second] = await boxesOf(made.returnGid);
    expect([first!.fulfillmentStatus, second!.fulfillmentStatus]).toEqual(["FULFILLED", "FULFILLED"]);
    // As the tracking pass records a label voided in the provider's portal (return-label-kept.test.ts drives it).
    await stopTracking({ db: prisma, shop: SHOP }, { shipmentId: first!.id }, "VOIDED");
    const rowOf = async () => (await viewReturns(ctx, { filter: "on_the_way", page: 1 })).rows.find((entry) => entry.id === made.returnGid);
    expect(await rowOf()).toMatchObject({ step: "get_label", todo: LABEL_VOIDED, splittable: null });

    const again = await labels.quoteReturnLabel(ctx, made.returnGid);
    if (!again.ok) throw new Error(again.message);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: again.shipmentId } })).toMatchObject({ replacesId: first!.id, lines: first!.lines });
    expect((await labels.bookReturnLabel(ctx, again.shipmentId)).ok).toBe(true);
    await processJobs().drained(attach.returnAttachJob, { shop: SHOP });
    const fresh = await prisma.shipment.findUniqueOrThrow({ where: { id: again.shipmentId } });
    expect(fresh).toMatchObject({ fulfillmentStatus: "FULFILLED", fulfillmentId: first!.fulfillmentId });
    expect(reverseDeliveriesOf(made.returnId).map((delivery) => delivery.tracking)).toEqual([fresh.trackingNumber, second!.trackingNumber]);
    // The voided box is history: the page shows the new label in its place, and nothing is left to quote.
    expect((await rowOf())?.labels.map((label) => label.trackingNumber)).toEqual([fresh.trackingNumber, second!.trackingNumber]);
    expect(await labels.quoteReturnLabel(ctx, made.returnGid)).toMatchObject({ ok: false, message: expect.stringContaining("has a label already") });
  });
});
