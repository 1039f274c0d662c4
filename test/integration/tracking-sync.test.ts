import { afterAll, describe, expect, it } from "vitest";
import { parseGid } from "../../devstore/gid";
import { parseServiceTimestamp } from "../../app/shipping/context.server";
import { POLL_INTERVAL_MS, RETRY_AFTER_MS } from "../../app/tracking/schedule";
import { stopTracking } from "../../app/tracking/following.server";
import { SHOPIFY_STATUS, statusChanges } from "../../app/tracking/status";
import type { EventStatus } from "../../shipping-api/contract";
import { transitDays } from "../../app/tracking/transit-times";
import { signedWebhook } from "../support/webhooks";
import { createBookedShipments } from "../factories/booked-shipments";
import { makeDue, shipmentWithSchedule } from "../support/tracking-schedule";
import { HOUR, startTrackingStack } from "../support/tracking-stack";
import { API_SECRET, SHOP } from "../support/devstore-harness";

// Tracking sync on real parts: the Shipping API service's timelines revealed by its clock (moved by hand here,
// and given to the app as its clock too), the local admin on the real Admin schema over HTTP at its default
// throttle, the real write-back to create the fulfillments, and the app's SQLite database.
const stack = await startTrackingStack({ orders: 60, env: { SHOPIFY_APP_URL: "https://consign.example" } });
const { service, harness, prisma, booking, store, now, context, bookAndFulfil, pass, runFor, shopifyEvents, fulfillmentCancelledWebhook } = stack;
const views = await import("../../app/tracking/tracking-views.server");
const { orderShipmentsView } = await import("../../app/extension/order-shipments.server");
const { shippingOverview } = await import("../../app/overview/overview.server");
const { NO_NAMES } = await import("../../app/shipping/service-names");
const { formatDateTime } = await import("../../app/locale/shop-time");
const { action: appWebhook } = await import("../../app/routes/webhooks.app");
const { processJobs: jobs } = await import("../../app/context.server");

async function timeline(bookNumber: string) {
  const tracked = await booking.trackShipment({ bookNumber });
  if (!tracked.ok) throw new Error(JSON.stringify(tracked.error));
  return tracked.value;
}

afterAll(async () => {
  await harness.close();
  await service.close();
});

describe("tracking sync against the service and the local admin", () => {
  it("GIVEN booked, fulfilled shipments WHEN the service clock moves through their timelines THEN each fulfillment shows every change of status once, in order, ending Delivered, and polling stops", async () => {
    const shipments = await bookAndFulfil(4);
    for (const row of shipments) expect(row).toMatchObject({ trackingState: "ACTIVE" });

    const totals = await runFor(10 * 24);

    for (const before of shipments) {
      const row = await shipmentWithSchedule(prisma, before.id);
      const events = await timeline(row.bookNumber!);
      const carrier = events.map((e) => ({ carrierStatus: e.eventStatus, eventTime: parseServiceTimestamp(e.eventTime) }));
      const expected = statusChanges(null, carrier).map((index) => ({
        status: SHOPIFY_STATUS[events[index]!.eventStatus],
        at: parseServiceTimestamp(events[index]!.eventTime).toISOString(),
      }));
      const written = shopifyEvents(row.fulfillmentId!);
      expect(
        written.map((e) => ({ status: e.status, at: new Date(e.happened_at).toISOString() })),
        row.trackingNumber!,
      ).toEqual(expected);
      expect(written.at(-1)?.status).toBe("DELIVERED");
      // Each written event carries the carrier's words and place.
      expect(written.every((e) => e.message && e.country)).toBe(true);
      const fulfillment = store.getFulfillment(parseGid(row.fulfillmentId!)!.id)!;
      expect(fulfillment).toMatchObject({ display_status: "DELIVERED" });
      expect(new Date(fulfillment.delivered_at!).toISOString()).toBe(row.deliveredAt!.toISOString());
      expect(row).toMatchObject({ trackingState: "DELIVERED", carrierStatus: "Delivered", shopifyStatus: "DELIVERED", trackingError: null });
      expect(row.schedule).toMatchObject({ nextTrackAt: null });
      expect(row.inTransitAt).not.toBeNull();
    }
    const writes = shipments.reduce((sum, row) => sum + store.listFulfillmentEvents(parseGid(row.fulfillmentId!)!.id).length, 0);
    expect(totals.written).toBe(writes);

    // Delivered is final: nothing is polled any more.
    expect(await runFor(48, 6)).toEqual({ polled: 0, written: 0 });
  }, 180_000);

  it("GIVEN statuses already written WHEN the same events come again, and earlier in-transit scans arrive late THEN nothing is written", async () => {
    const [shipment] = await bookAndFulfil(1);
    // Into the delivery day: Info Received, pickup, hubs and Out for Delivery are visible and written.
    let row = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment!.id } });
    for (let hours = 0; row.shopifyStatus !== "OUT_FOR_DELIVERY" && hours < 8 * 24; hours++) {
      await runFor(1);
      row = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment!.id } });
    }
    expect(row.shopifyStatus).toBe("OUT_FOR_DELIVERY");
    const before = shopifyEvents(row.fulfillmentId!).length;
    expect(before).toBeGreaterThanOrEqual(3);

    // Duplicates: polled again with nothing new at the carrier (and an earlier poll's error still shown).
    await makeDue(prisma, row.id, now());
    await prisma.shipment.update({ where: { id: row.id }, data: { trackingError: "Track Shipment did not answer." } });
    const quiet = await shipmentWithSchedule(prisma, row.id);
    expect(await pass()).toMatchObject({ polled: 1, events: 0, written: 0 });
    // Only its schedule moves: next poll by its carrier status (no jitter at random 0.5), the error cleared.
    const rescheduled = await shipmentWithSchedule(prisma, row.id);
    expect(rescheduled).toEqual({
      ...quiet,
      schedule: {
        ...quiet.schedule,
        nextTrackAt: new Date(now().getTime() + POLL_INTERVAL_MS[quiet.carrierStatus as EventStatus]),
        lastTrackedAt: now(),
        answerDigest: expect.any(String),
      },
      trackingError: null,
      updatedAt: expect.any(Date),
    });
    expect(rescheduled.updatedAt.getTime()).toBeGreaterThanOrEqual(quiet.updatedAt.getTime());

    // The same answer as its last settled poll's: the poll neither reads nor compares its stored events, so events
    // gone behind its back (the in-transit scans) stay gone, and only its schedule moves.
    expect(rescheduled.schedule!.answerDigest).not.toBeNull();
    const { count } = await prisma.trackingEvent.deleteMany({ where: { shipmentId: row.id, carrierStatus: "In Transit" } });
    expect(count).toBeGreaterThan(0);
    await makeDue(prisma, row.id, now());
    expect(await pass()).toMatchObject({ polled: 1, events: 0, written: 0 });

    // Late and out of order: the in-transit scans reach Consign only now, after later statuses were written (the
    // answer it last settled did not have them).
    await makeDue(prisma, row.id, now(), { answerDigest: null });
    expect(await pass()).toMatchObject({ polled: 1, events: count, written: 0 });
    expect(shopifyEvents(row.fulfillmentId!)).toHaveLength(before);
    const late = await prisma.trackingEvent.findMany({ where: { shipmentId: row.id, carrierStatus: "In Transit" } });
    expect(late.every((event) => event.writeStatus === "SKIPPED")).toBe(true);
  }, 120_000);

  it("GIVEN a fulfillment cancelled in Shopify WHEN fulfillments/update arrives THEN its shipment stops and is never polled again", async () => {
    const [shipment] = await bookAndFulfil(1);
    await runFor(2);
    const cancelled = await harness.gql<{ fulfillmentCancel: { fulfillment: { status: string } } }>(
      `mutation($id: ID!) { fulfillmentCancel(id: $id) { fulfillment { id status } userErrors { message } } }`,
      { id: shipment!.fulfillmentId },
    );
    expect(cancelled.body.data?.fulfillmentCancel.fulfillment.status).toBe("CANCELLED");
    const response = await fulfillmentCancelledWebhook(shipment!);
    expect(response.status).toBe(200);
    await jobs().idle(); // the delivery's job acts on it after the answer
    const stopped = await shipmentWithSchedule(prisma, shipment!.id);
    expect(stopped).toMatchObject({ trackingState: "STOPPED", trackingStopReason: "FULFILLMENT_CANCELLED", schedule: { nextTrackAt: null } });
    const events = shopifyEvents(shipment!.fulfillmentId!).length;
    await runFor(4 * 24, 6);
    expect((await shipmentWithSchedule(prisma, shipment!.id)).schedule!.lastTrackedAt).toEqual(stopped.schedule!.lastTrackedAt);
    expect(shopifyEvents(shipment!.fulfillmentId!)).toHaveLength(events);
  }, 120_000);

  it("GIVEN the cancellation webhook never came WHEN the next change of status is refused by Shopify THEN the shipment stops by itself", async () => {
    const [shipment] = await bookAndFulfil(1);
    await runFor(1);
    await harness.gql(`mutation($id: ID!) { fulfillmentCancel(id: $id) { userErrors { message } } }`, { id: shipment!.fulfillmentId });
    await runFor(3 * 24, 3);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment!.id } })).toMatchObject({
      trackingState: "STOPPED",
      trackingStopReason: "FULFILLMENT_CANCELLED",
    });
  }, 120_000);

  it("GIVEN a due schedule whose shipment is no longer followed (a state written behind the app's back) WHEN a pass claims it THEN it is taken off the schedule, not polled", async () => {
    const [shipment] = await bookAndFulfil(1);
    await runFor(1);
    await prisma.shipment.update({ where: { id: shipment!.id }, data: { trackingState: "STOPPED", trackingStopReason: "ORDER_CANCELLED" } });
    const before = await makeDue(prisma, shipment!.id, now());
    await pass();
    const after = await shipmentWithSchedule(prisma, shipment!.id);
    expect(after.trackingState).toBe("STOPPED");
    expect(after.schedule).toEqual({ ...before, nextTrackAt: null });
  }, 120_000);

  it("GIVEN Track Shipment refusing a shipment's poll THEN the poll is retried in half an hour and its error shown in words; THEN the next good poll clears the error", async () => {
    const [shipment] = await bookAndFulfil(1);
    await runFor(1);
    const bookNumber = shipment!.bookNumber!;
    // A book number the service does not know: Track Shipment answers with an error.
    await prisma.shipment.update({ where: { id: shipment!.id }, data: { bookNumber: `${bookNumber}-UNKNOWN` } });
    await makeDue(prisma, shipment!.id, now());
    expect(await pass()).toMatchObject({ polled: 1, errors: 1 });
    const failed = await shipmentWithSchedule(prisma, shipment!.id);
    expect(failed.trackingError).toMatch(/^Track Shipment did not answer \(.+\); Consign tries again in about half an hour\.$/);
    expect(failed.schedule).toMatchObject({ nextTrackAt: new Date(now().getTime() + RETRY_AFTER_MS), lastTrackedAt: now() });

    await prisma.shipment.update({ where: { id: shipment!.id }, data: { bookNumber } });
    await makeDue(prisma, shipment!.id, now());
    expect(await pass()).toMatchObject({ polled: 1, errors: 0 });
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: shipment!.id } })).trackingError).toBeNull();
    // Out of the later tests' counts.
    await stopTracking(await context(), { shipmentId: shipment!.id }, "ORDER_CANCELLED");
  }, 120_000);

  it("GIVEN five deliveries of one service to one zone THEN observed transit times give its median, usual range and sample size; the dashboard counts them delivered", async () => {
    const rows = [];
    // One fulfillment order per booking, so each is booked with the same (first) service.
    for (let i = 0; i < 5; i++)
      rows.push(...(await createBookedShipments({ db: prisma, shop: SHOP, client: booking, fulfillmentOrders: stack.take(1), bookedAt: now() })));
    expect(await stack.writeBack(await context())).toEqual({ fulfilled: 5, failed: 0 });
    await runFor(10 * 24, 2);
    const delivered = await prisma.shipment.findMany({ where: { id: { in: rows.map((row) => row.id) } } });
    expect(delivered.every((row) => row.trackingState === "DELIVERED")).toBe(true);
    const stats = (await views.observedTransitTimes({ db: prisma, shop: SHOP })).find(
      (entry) => entry.serviceCode === delivered[0]!.serviceCode && entry.zone === delivered[0]!.zone,
    );
    // Every delivery of that service and zone counts, earlier tests' too.
    const sample = await prisma.shipment.findMany({
      where: { shop: SHOP, trackingState: "DELIVERED", serviceCode: delivered[0]!.serviceCode, zone: delivered[0]!.zone },
    });
    expect(sample.length).toBeGreaterThanOrEqual(5);
    expect(stats?.sampleSize).toBe(sample.length);
    const days = sample.map((row) => Math.max(1, Math.round((row.deliveredAt!.getTime() - row.inTransitAt!.getTime()) / (24 * HOUR)))).sort((a, b) => a - b);
    const at = (q: number) => days[Math.ceil(q * days.length) - 1];
    expect(stats).toMatchObject({ carrierCode: delivered[0]!.carrierCode, lowDays: at(0.25), highDays: at(0.75) });
    expect(stats!.medianDays).toBeGreaterThanOrEqual(days[0]!);
    expect(stats!.medianDays).toBeLessThanOrEqual(days.at(-1)!);
    const lookup = await views.observedTransitLookup({ db: prisma, shop: SHOP });
    expect(lookup({ carrierCode: delivered[0]!.carrierCode!, serviceCode: delivered[0]!.serviceCode!, zone: delivered[0]!.zone })).toEqual(stats);

    const dashboard = await views.trackingDashboard({ db: prisma, shop: SHOP, now }, { filter: "delivered", q: delivered[0]!.orderName });
    expect(dashboard.rows.map((row) => row.orderName)).toContain(delivered[0]!.orderName);
    expect(dashboard.rows[0]).toMatchObject({ status: "Delivered", tone: "success" });
    expect(dashboard.counts.delivered).toBeGreaterThanOrEqual(5);
    const timeline = await views.orderTimeline({ db: prisma, shop: SHOP, now }, delivered[0]!.orderId);
    expect(timeline[0]!.events[0]).toMatchObject({ carrierStatus: "Delivered", inShopify: true });
  }, 180_000);

  it("GIVEN tracked deliveries THEN the order-details block shows each shipment's latest carrier event and the overview's carrier performance counts them, in the rates page's whole days", async () => {
    const delivered = await prisma.shipment.findMany({
      where: { shop: SHOP, trackingState: "DELIVERED", inTransitAt: { not: null } },
      orderBy: { deliveredAt: "asc" },
    });
    expect(delivered.length).toBeGreaterThanOrEqual(5);

    const row = delivered[0]!;
    const block = await orderShipmentsView({ db: prisma, shop: SHOP }, row.orderId, { names: NO_NAMES, timeZone: "America/Chicago" });
    const shown = block?.shipments.find((shipment) => shipment.id === row.id);
    expect(shown?.tracking).toEqual({
      status: "Delivered",
      place: "NEW YORK, United States",
      at: row.lastEventAt!.toISOString(),
      atText: formatDateTime(row.lastEventAt!, "America/Chicago"),
    });
    // Kept as the carrier wrote it, shown in words: the state's and the country's codes named, the city (New York's
    // own name again) once.
    expect(row.lastEventPlace).toBe("NEW YORK, NY, US");
    expect(shown?.tracking?.place).toBe("NEW YORK, United States");

    const overview = await shippingOverview({ db: prisma, shop: SHOP, now }, 365);
    for (const carrier of new Set(delivered.map((entry) => entry.carrierCode!))) {
      const mine = delivered.filter((entry) => entry.carrierCode === carrier);
      const days = mine.map((entry) => transitDays({ inTransitAt: entry.inTransitAt!, deliveredAt: entry.deliveredAt! }));
      expect(overview.performance.find((entry) => entry.carrierCode === carrier)).toMatchObject({
        delivered: mine.length,
        averageTransitDays: Math.round((days.reduce((sum, value) => sum + value, 0) / days.length) * 10) / 10,
      });
    }
  });

  it("GIVEN app/uninstalled THEN the shop's active shipments stop", async () => {
    const [shipment] = await bookAndFulfil(1);
    const response = await appWebhook({
      request: signedWebhook({ path: "/webhooks/app", topic: "app/uninstalled", shop: SHOP, secret: API_SECRET, payload: { id: 1 } }),
      params: {},
      context: {},
    });
    expect(response.status).toBe(200);
    // Answered on receipt; the delivery's job stops tracking.
    await jobs().idle();
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment!.id } })).toMatchObject({
      trackingState: "STOPPED",
      trackingStopReason: "SHOP_UNINSTALLED",
    });
  });
});
