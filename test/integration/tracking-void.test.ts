import { afterAll, describe, expect, it } from "vitest";
import { parseGid } from "../../devstore/gid";
import { VOID_CHECK_AFTER_MS } from "../../app/tracking/schedule";
import { HOUR, startTrackingStack } from "../support/tracking-stack";
import { shipmentWithSchedule } from "../support/tracking-schedule";

// Labels voided at the provider, on real parts: the Shipping API service (its portal's void, its clock moved by
// hand and given to the app as its clock too), the local admin on the real Admin schema, the real write-back and
// tracking passes, and the app's database.
const stack = await startTrackingStack({ orders: 20, env: { SHOPIFY_APP_URL: "https://consign.example" } });
const { service, harness, customer, prisma, now, context, pass, runFor, nextDayAt, shopifyEvents, fulfillmentCancelledWebhook } = stack;
const views = await import("../../app/tracking/tracking-views.server");
const { processJobs: jobs } = await import("../../app/context.server");

/** Books and writes back one shipment at the service's current time. */
async function bookAndFulfil() {
  const [shipment] = await stack.bookAndFulfil(1);
  return shipment!;
}

/** The provider's portal: the customer voids the label there, outside the Shipping API. */
async function voidAtProvider(bookNumber: string) {
  const answer = await service.fetch(`/portal/customers/${customer.customerId}/shipments/${bookNumber}/void`, {
    method: "POST",
    authorization: `Basic ${Buffer.from(`${customer.email}:${customer.password}`).toString("base64")}`,
  });
  expect(answer).toMatchObject({ status: 200, body: { bookNumber, voided: true } });
}

afterAll(async () => {
  await harness.close();
  await service.close();
});

describe("labels voided at the provider", () => {
  it("GIVEN a fulfilled label voided in the provider's portal WHEN a pass runs past the bound THEN tracking stops as VOIDED, nothing is written to Shopify, it is not polled again, and Needs attention says what to do until the fulfillment is cancelled", async () => {
    const shipment = await bookAndFulfil();
    expect(shipment).toMatchObject({ trackingState: "ACTIVE", voidCheckedAt: null });
    await voidAtProvider(shipment.bookNumber!);

    service.clock.advance(VOID_CHECK_AFTER_MS + HOUR);
    expect(await pass()).toMatchObject({ polled: 1, stopped: 1, written: 0 });
    const stopped = await shipmentWithSchedule(prisma, shipment.id);
    expect(stopped).toMatchObject({
      trackingState: "STOPPED",
      trackingStopReason: "VOIDED",
      voidCheckedAt: now(),
      schedule: { nextTrackAt: null, lastTrackedAt: now() },
    });
    expect(shopifyEvents(shipment.fulfillmentId!)).toEqual([]);

    // Never polled again, and still nothing in Shopify.
    await runFor(3 * 24, 6);
    expect((await shipmentWithSchedule(prisma, shipment.id)).schedule!.lastTrackedAt).toEqual(stopped.schedule!.lastTrackedAt);
    expect(shopifyEvents(shipment.fulfillmentId!)).toEqual([]);

    // The merchant sees it, with the next step and the order in Shopify.
    const ctx = await context();
    const attention = await views.needsAttention(ctx);
    const listed = attention.rows.find((row) => row.shipmentId === shipment.id);
    expect(listed).toMatchObject({
      orderName: shipment.orderName,
      status: "Label voided",
      state: "STOPPED",
      note: "The label was voided at the Shipping API; cancel the fulfillment in Shopify so the customer isn't told it shipped, or book the order again.",
      shopifyOrderUrl: `shopify://admin/orders/${parseGid(shipment.orderId)!.id}`,
    });
    const dashboard = await views.trackingDashboard(ctx, { filter: "attention", q: shipment.orderName });
    expect(dashboard.rows.map((row) => row.shipmentId)).toContain(shipment.id);

    // Once the fulfillment is cancelled in Shopify, it no longer needs the merchant; the dashboard still says why it stopped.
    await harness.gql(`mutation($id: ID!) { fulfillmentCancel(id: $id) { userErrors { message } } }`, { id: shipment.fulfillmentId });
    const response = await fulfillmentCancelledWebhook(shipment);
    expect(response.status).toBe(200);
    await jobs().idle();
    const after = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
    expect(after).toMatchObject({ trackingState: "STOPPED", trackingStopReason: "VOIDED" });
    expect(after.fulfillmentCancelledAt).not.toBeNull();
    expect((await views.needsAttention(ctx)).rows.map((row) => row.shipmentId)).not.toContain(shipment.id);
    const all = await views.trackingDashboard(ctx, { filter: "all", q: shipment.orderName });
    expect(all.rows.find((row) => row.shipmentId === shipment.id)).toMatchObject({
      status: "Label voided",
      note: "The label was voided at the Shipping API and the fulfillment was cancelled in Shopify. Book the order again if it still needs to ship.",
      shopifyOrderUrl: null,
    });
  }, 120_000);

  it("GIVEN a label that is not voided and waits for pickup past the bound THEN Search is asked once in that bound, and it keeps being tracked to delivery", async () => {
    // Booked just after midnight: the carrier picks it up the evening after next, about 41 hours later.
    nextDayAt(0, 5);
    const shipment = await bookAndFulfil();
    const checks = new Set<number>();
    let pickedUp = false;
    const look = async () => {
      const row = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
      if (row.voidCheckedAt) checks.add(row.voidCheckedAt.getTime());
      if (row.carrierStatus && row.carrierStatus !== "Info Received" && !pickedUp) {
        pickedUp = true;
        // The one check came once the label was past the bound, and none in the bound after it.
        expect(checks.size).toBe(1);
      }
    };
    // Every poll before pickup is seen (they come every two hours), then on to delivery.
    await runFor(2 * 24, 1, look);
    await runFor(8 * 24, 6, look);
    expect(pickedUp).toBe(true);
    expect(checks.size).toBe(1);
    const [checkedAt] = [...checks];
    expect(checkedAt! - shipment.bookedAt!.getTime()).toBeGreaterThanOrEqual(VOID_CHECK_AFTER_MS);
    expect(checkedAt! - shipment.bookedAt!.getTime()).toBeLessThan(VOID_CHECK_AFTER_MS + 3 * HOUR);
    const delivered = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
    expect(delivered).toMatchObject({ trackingState: "DELIVERED", trackingStopReason: null, shopifyStatus: "DELIVERED" });
    expect(shopifyEvents(shipment.fulfillmentId!).at(-1)?.status).toBe("DELIVERED");
  }, 180_000);

  it("GIVEN a label the carrier picks up within the bound THEN Search is never asked for it", async () => {
    // Booked in the evening: picked up the next evening, within the bound.
    nextDayAt(20, 0);
    const shipment = await bookAndFulfil();
    await runFor(10 * 24, 3, async () => {
      expect((await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).voidCheckedAt).toBeNull();
    });
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ trackingState: "DELIVERED", voidCheckedAt: null });
  }, 180_000);
});
