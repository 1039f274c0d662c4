import { afterAll, describe, expect, it } from "vitest";
import { toGid } from "../../devstore/gid";
import { aRequestedReturn } from "../factories/returns";
import { contextOf, shippingContext } from "../factories/context";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";

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
const { trackingPageUrl } = await import("../../app/fulfillment/tracking-link.server");

const store = harness.admin.store;
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
  await prisma.shipment.update({ where: { id: shipmentId }, data: { nextTrackAt: serviceTime() } });
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

    // The voided label's link is dead; the new one serves the label.
    expect(await loadReturnLabel(await shopContext(), voided.labelToken!)).toEqual({ kind: "not_found" });
    expect(await loadReturnLabel(await shopContext(), fresh.labelToken!)).toMatchObject({ kind: "found" });

    // The page follows the new label; attaching again changes nothing.
    expect((await viewReturns(ctx, { filter: "on_the_way", page: 1 })).rows.find((entry) => entry.id === made.returnGid)).toMatchObject({
      step: "waiting",
      label: { trackingNumber: fresh.trackingNumber },
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
