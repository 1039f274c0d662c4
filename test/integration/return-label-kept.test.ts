import { afterAll, describe, expect, it } from "vitest";
import { toGid } from "../../devstore/gid";
import { aRequestedReturn, type FulfilledOrder } from "../factories/returns";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments";
import { contextOf, shippingContext } from "../factories/context";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { makeDue } from "../support/tracking-schedule";

// A return's label kept current (issue 24 §4): a label voided at the carrier is replaced, and the new one is sent
// to Shopify by updating the return's reverse delivery, not by adding a second. On real parts: the Shipping API
// service (its portal's void, its clock), the local admin on the real 2026-10 schema, the real tracking pass.
const { service, harness, customer, close } = await startServiceAndAdmin({
  orders: 4,
  env: { SHOPIFY_APP_URL: "https://consign.example" },
  scope: "read_orders,write_fulfillments,read_returns,write_returns",
});
afterAll(close);

const { default: prisma } = await import("../../app/db/db.server");
const { processJobs } = await import("../../app/context.server");
const returns = await import("../../app/returns/returns.server");
const labels = await import("../../app/returns/return-label.server");
const attach = await import("../../app/returns/return-attach.server");
const { viewReturns, LABEL_VOIDED } = await import("../../app/returns/returns-page.server");
const { unauthenticated } = await import("../../app/shopify.server");
const { syncDueTracking } = await import("../../app/tracking/pass.server");
const { VOID_CHECK_AFTER_MS } = await import("../../app/tracking/schedule");
const { needsAttention } = await import("../../app/tracking/tracking-views.server");
const { loadReturnLabel } = await import("../../app/returns/return-label-link.server");
const { writeBack } = await import("../../app/fulfillment/write-back.server");
const { bookBoxReturnLabels } = await import("../../app/returns/box-return.server");
const box = await import("../../app/returns/box-label-use.server");
const { trackingPageUrl } = await import("../../app/fulfillment/tracking-link.server");

const store = harness.admin.store;
// The seeded orders, each with an open fulfillment order: booked as outbound parcels by the box tests.
const shippable = shippableFulfillmentOrders(store).filter((fo) => fo.lines.reduce((sum, line) => sum + line.quantity, 0) >= 2);
const HOUR = 3_600_000;
const serviceTime = () => service.clock.now();

async function shopContext(now: () => Date = serviceTime) {
  const { admin } = await unauthenticated.admin(SHOP);
  return contextOf({ admin, shop: SHOP }, prisma, now);
}
async function bookingContext(now: () => Date = serviceTime) {
  const { admin } = await unauthenticated.admin(SHOP);
  return shippingContext(prisma, SHOP, now, async () => ({ admin, shop: SHOP }));
}

/** The provider's portal: the merchant voids the label there, outside the Shipping API. */
async function voidAtProvider(bookNumber: string) {
  const answer = await service.fetch(`/portal/customers/${customer.customerId}/shipments/${bookNumber}/void`, {
    method: "POST",
    authorization: `Basic ${Buffer.from(`${customer.email}:${customer.password}`).toString("base64")}`,
  });
  expect(answer).toMatchObject({ status: 200, body: { bookNumber, voided: true } });
}

/** An approved return of two items with its label quoted, booked and attached on the service's clock: the label's row. */
async function attachedLabel() {
  const made = aRequestedReturn(store, { items: 2, approved: true });
  const ctx = await bookingContext();
  await returns.refreshReturn(ctx, made.returnGid);
  const quoted = await labels.quoteReturnLabel(ctx, made.returnGid);
  if (!quoted.ok) throw new Error(quoted.message);
  expect(await labels.bookReturnLabel(ctx, quoted.shipmentId)).toMatchObject({ ok: true });
  await processJobs().drained(attach.returnAttachJob, { shop: SHOP });
  const row = await prisma.shipment.findUniqueOrThrow({ where: { id: quoted.shipmentId } });
  expect(row).toMatchObject({ fulfillmentStatus: "FULFILLED", trackingState: "ACTIVE" });
  return { made, row };
}

/** The tracking pass notices the void (Search Shipments says voided) once the void check is due. */
async function passNoticesVoid(shipmentId: string) {
  service.clock.advance(VOID_CHECK_AFTER_MS + HOUR);
  await makeDue(prisma, shipmentId, serviceTime());
  await syncDueTracking(await shopContext(), { random: () => 0.5 });
  expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipmentId } })).toMatchObject({ trackingState: "STOPPED", trackingStopReason: "VOIDED" });
}

const deliveriesOf = (returnId: number) => store.listReverseFulfillmentOrders(returnId).flatMap((rfo) => store.listReverseDeliveries(rfo.id));

describe("a return label voided at the carrier", () => {
  it("GIVEN an attached return label voided in the provider's portal WHEN the pass notices THEN Returns asks for a new label; the new one is booked and updates the same reverse delivery (new number, tracking and label link), emailing the customer once, and the old link is dead", async () => {
    const { made, row: voided } = await attachedLabel();
    const [delivery] = deliveriesOf(made.returnId);
    expect(voided.fulfillmentId).toBe(toGid("ReverseDelivery", delivery!.id));
    const emailsBefore = store.listCustomerEmails(made.orderId).length;

    await voidAtProvider(voided.bookNumber!);
    await passNoticesVoid(voided.id);

    // Returns: the step and tab of a return that needs a label, in the merchant's words; not in Needs attention.
    const ctx = await bookingContext();
    const page = await viewReturns(ctx, { filter: "needs_label", page: 1 });
    expect(page.rows.find((entry) => entry.id === made.returnGid)).toMatchObject({ step: "get_label", todo: LABEL_VOIDED });
    expect((await viewReturns(ctx, { filter: "on_the_way", page: 1 })).rows.map((entry) => entry.id)).not.toContain(made.returnGid);
    expect((await needsAttention(await shopContext())).rows.map((entry) => entry.shipmentId)).not.toContain(voided.id);

    // Get label quotes and books a new one, which takes over the voided label's reverse delivery.
    const quoted = await labels.quoteReturnLabel(ctx, made.returnGid);
    if (!quoted.ok) throw new Error(quoted.message);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: quoted.shipmentId } })).toMatchObject({ replacesId: voided.id });
    const booked = await labels.bookReturnLabel(ctx, quoted.shipmentId);
    expect(booked).toMatchObject({ ok: true });
    await processJobs().drained(attach.returnAttachJob, { shop: SHOP });
    const fresh = await prisma.shipment.findUniqueOrThrow({ where: { id: quoted.shipmentId } });
    expect(fresh).toMatchObject({ fulfillmentStatus: "FULFILLED", fulfillmentId: voided.fulfillmentId, fulfillmentAttempts: 1, trackingState: "ACTIVE" });
    expect(fresh.trackingNumber).not.toBe(voided.trackingNumber);

    const deliveries = deliveriesOf(made.returnId);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      id: delivery!.id,
      tracking_number: fresh.trackingNumber,
      tracking_url: trackingPageUrl(fresh.id),
      label_url: `https://consign.example/returns/label/${fresh.labelToken}`,
    });
    expect(delivery!.tracking_url).toBe(trackingPageUrl(voided.id));
    const emails = store.listCustomerEmails(made.orderId).slice(emailsBefore);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ label_url: `https://consign.example/returns/label/${fresh.labelToken}` });
    expect(emails[0]!.body).toContain(fresh.trackingNumber!);

    // The local admin's order page shows the delivery with the new tracking and label, the voided number gone.
    const orderPage = (await harness.admin.app.inject({ method: "GET", url: `/admin/orders/${made.orderId}` })).body;
    expect(orderPage).toContain(`data-tracking-number="${fresh.trackingNumber}"`);
    expect(orderPage).not.toContain(`data-tracking-number="${voided.trackingNumber}"`);
    expect(orderPage).toContain(`/returns/label/${fresh.labelToken}`);

    // The voided label's link is dead; the new one serves the label.
    expect(await loadReturnLabel(await shopContext(), voided.labelToken!)).toEqual({ kind: "not_found" });
    expect(await loadReturnLabel(await shopContext(), fresh.labelToken!)).toMatchObject({ kind: "found" });

    // The page follows the new label; attaching again changes nothing.
    expect((await viewReturns(ctx, { filter: "on_the_way", page: 1 })).rows.find((entry) => entry.id === made.returnGid)).toMatchObject({
      step: "waiting",
      labels: [expect.objectContaining({ trackingNumber: fresh.trackingNumber })],
    });
    await attach.attachReturnLabels(await shopContext());
    expect(store.listCustomerEmails(made.orderId).slice(emailsBefore)).toHaveLength(1);
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: fresh.id } })).fulfillmentAttempts).toBe(1);
  }, 120_000);

  it("GIVEN a return whose label is not voided THEN Get label is still refused, naming its tracking number", async () => {
    const { made, row } = await attachedLabel();
    const refused = await labels.quoteReturnLabel(await bookingContext(), made.returnGid);
    expect(refused).toMatchObject({ ok: false, message: expect.stringContaining(`has a label already (tracking ${row.trackingNumber})`) });
  }, 60_000);
});

/**
 * A seeded order of two units or more booked (on the service) and written to Shopify as one parcel, with a scan-based
 * return label booked for its box as the box-return job books it: the order as the return factory takes it, the
 * outbound shipment and the label in its box.
 */
async function parcelWithBoxLabel() {
  const fo = shippable.shift();
  if (!fo) throw new Error("No seeded order of two units is left to ship");
  const [outbound] = await createBookedShipments({
    db: prisma,
    shop: SHOP,
    client: service.clientFor(customer),
    fulfillmentOrders: [fo],
    bookedAt: serviceTime(),
  });
  expect(await writeBack(await shopContext())).toMatchObject({ fulfilled: 1, failed: 0 });
  await prisma.shipment.update({ where: { id: outbound!.id }, data: { boxReturn: "WANTED" } });
  await bookBoxReturnLabels(await bookingContext());
  const parcel = await prisma.shipment.findUniqueOrThrow({ where: { id: outbound!.id } });
  expect(parcel).toMatchObject({ boxReturn: "ADDED", fulfillmentStatus: "FULFILLED" });
  const label = await prisma.shipment.findFirstOrThrow({ where: { shop: SHOP, kind: "RETURN", inBoxOf: parcel.id } });
  expect(label).toMatchObject({ bookingStatus: "BOOKED", scanBased: true, returnId: null });
  const orderId = Number(parcel.orderId.split("/").pop());
  const order: FulfilledOrder = {
    orderId,
    orderGid: parcel.orderId,
    orderName: parcel.orderName,
    customerEmail: store.getOrder(orderId)!.email ?? "",
    fulfilledLines: store
      .listFulfillments(orderId)
      .flatMap((fulfillment) => store.listFulfillmentLineItems(fulfillment.id))
      .map((line) => ({
        fulfillmentLineItemId: toGid("FulfillmentLineItem", line.id),
        lineItemId: toGid("LineItem", line.line_item_id),
        quantity: line.quantity,
      })),
  };
  return { order, parcel, label };
}

/** An approved return of `items` units of the order, read into Consign. */
async function approvedReturnOf(order: FulfilledOrder, items = 1) {
  const made = aRequestedReturn(store, { items, order, approved: true });
  await returns.refreshReturn(await shopContext(), made.returnGid);
  return made;
}

const rowOf = async (returnGid: string) => (await viewReturns(await bookingContext(), { filter: "all", page: 1 })).rows.find((entry) => entry.id === returnGid);

describe("the return label in the box used for a return", () => {
  it("GIVEN an order shipped with a return label in its box WHEN the customer returns an item of that parcel THEN Returns offers that label first; using it sends it to Shopify as the reverse delivery (the customer emailed the same link) once, and a return of another parcel is not offered it", async () => {
    const { order, label } = await parcelWithBoxLabel();
    const made = await approvedReturnOf(order);
    const other = aRequestedReturn(store, { items: 1, approved: true });
    await returns.refreshReturn(await shopContext(), other.returnGid);

    expect(await rowOf(made.returnGid)).toMatchObject({ step: "get_label", boxLabel: { shipmentId: label.id, trackingNumber: label.trackingNumber } });
    expect(await rowOf(other.returnGid)).toMatchObject({ step: "get_label", boxLabel: null });
    expect(await box.useBoxLabel(await shopContext(), other.returnGid, label.id)).toMatchObject({
      ok: false,
      message: expect.stringContaining("Get a new label"),
    });

    // A new label quoted first (from another page, say) and never booked goes when the box's label is chosen.
    expect(await labels.quoteReturnLabel(await bookingContext(), made.returnGid)).toMatchObject({ ok: true });
    const emailsBefore = store.listCustomerEmails(order.orderId).length;
    expect(await box.useBoxLabel(await shopContext(), made.returnGid, label.id)).toEqual({ ok: true, trackingNumber: label.trackingNumber });
    expect(await prisma.shipment.count({ where: { returnId: made.returnGid, bookingStatus: { not: "BOOKED" } } })).toBe(0);
    await processJobs().drained(attach.returnAttachJob, { shop: SHOP });
    const used = await prisma.shipment.findUniqueOrThrow({ where: { id: label.id } });
    expect(used).toMatchObject({ returnId: made.returnGid, fulfillmentStatus: "FULFILLED", fulfillmentAttempts: 1, trackingState: "ACTIVE" });
    const deliveries = deliveriesOf(made.returnId);
    expect(deliveries).toHaveLength(1);
    expect(used.fulfillmentId).toBe(toGid("ReverseDelivery", deliveries[0]!.id));
    const link = `https://consign.example/returns/label/${label.labelToken}`;
    expect(deliveries[0]).toMatchObject({ tracking_number: label.trackingNumber, label_url: link });
    expect(store.listCustomerEmails(order.orderId).slice(emailsBefore)).toEqual([expect.objectContaining({ label_url: link })]);
    expect(await rowOf(made.returnGid)).toMatchObject({
      step: "waiting",
      boxLabel: null,
      labels: [expect.objectContaining({ trackingNumber: label.trackingNumber })],
    });

    // The same choice again (a second click) changes nothing.
    expect(await box.useBoxLabel(await shopContext(), made.returnGid, label.id)).toEqual({ ok: true, trackingNumber: label.trackingNumber });
    await processJobs().drained(attach.returnAttachJob, { shop: SHOP });
    expect(deliveries).toHaveLength(1);
    expect(deliveriesOf(made.returnId)).toHaveLength(1);
  }, 120_000);

  it("GIVEN two returns of one parcel both offered its label WHEN both use it at once THEN one takes it and the other is told to get a new label, and only the winner's return gets a reverse delivery", async () => {
    const { order, label } = await parcelWithBoxLabel();
    const first = await approvedReturnOf(order);
    const second = await approvedReturnOf(order);
    expect((await rowOf(first.returnGid))?.boxLabel?.shipmentId).toBe(label.id);
    expect((await rowOf(second.returnGid))?.boxLabel?.shipmentId).toBe(label.id);

    const outcomes = await Promise.all([first, second].map(async (made) => box.useBoxLabel(await shopContext(), made.returnGid, label.id)));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    const [winner, loser] = outcomes[0]!.ok ? [first, second] : [second, first];
    expect(outcomes.find((outcome) => !outcome.ok)).toMatchObject({ message: expect.stringContaining(`Get a new label`) });
    await processJobs().drained(attach.returnAttachJob, { shop: SHOP });
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: label.id } })).toMatchObject({ returnId: winner.returnGid, fulfillmentStatus: "FULFILLED" });
    expect(deliveriesOf(winner.returnId)).toEqual([expect.objectContaining({ tracking_number: label.trackingNumber })]);
    expect(deliveriesOf(loser.returnId)).toEqual([]);
    expect(await rowOf(loser.returnGid)).toMatchObject({ step: "get_label", boxLabel: null });
  }, 120_000);
});
