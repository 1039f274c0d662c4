import type { PrismaClient, Shipment } from "@prisma/client";
import { expect } from "vitest";
import type { Context } from "../../app/context";
import type { WriteBackSummary } from "../../app/fulfillment/write-back.server";
import type { ShopAdmin } from "../../app/shopify/gateway.server";
import type { TrackingPassSummary } from "../../app/tracking/pass.server";
import { parseGid } from "../../devstore/gid";
import type { Store } from "../../devstore/store/store";
import type { ShippingClient } from "../../shipping-api/client";
import { createBookedShipments, shippableFulfillmentOrders, type FulfillmentOrderToShip } from "../factories/booked-shipments";
import { contextOf } from "../factories/context";
import { API_SECRET, SHOP } from "./devstore-harness";
import { startServiceAndAdmin, type ServiceAndAdmin, type ServiceAndAdminOptions } from "./service-and-admin";
import { signedWebhook } from "./webhooks";

export const HOUR = 3_600_000;

export interface TrackingStack extends ServiceAndAdmin {
  /** The app's database client (app/db/db.server). */
  prisma: PrismaClient;
  /** The app's write-back. */
  writeBack(ctx: Context): Promise<WriteBackSummary>;
  /** The Shipping API client signed in as SHOP's account. */
  booking: ShippingClient;
  /** The local admin's store. */
  store: Store;
  /** The service's clock, which is the app's clock too. */
  now(): Date;
  /** Fulfillment orders no earlier call took. */
  take(count: number): FulfillmentOrderToShip[];
  /** SHOP's Admin API client as the app loads it from the offline session. */
  shopAdmin(): Promise<ShopAdmin>;
  /** The context of SHOP's work at the service's time. */
  context(): Promise<Context>;
  /** Books and writes back `count` shipments at the service's current time. */
  bookAndFulfil(count: number): Promise<Shipment[]>;
  /** One tracking pass as the scheduler runs it, at the service's time. */
  pass(): Promise<TrackingPassSummary>;
  /**
   * Moves both clocks on in steps, running a pass at each step, as a scheduler would; after each pass, `each`
   * looks at the database. Answers how many shipments the passes polled and how many events they wrote.
   */
  runFor(hours: number, stepHours?: number, each?: () => Promise<void>): Promise<{ polled: number; written: number }>;
  /** Moves the service clock forward to the next day's `hour`:`minute` UTC (bookings' pickup times depend on it). */
  nextDayAt(hour: number, minute: number): void;
  /** The local admin's events of a fulfillment, oldest first. */
  shopifyEvents(fulfillmentGid: string): ReturnType<Store["listFulfillmentEvents"]>;
  /** Shopify's fulfillments/update saying the shipment's fulfillment was cancelled, delivered to the app's route; its answer. */
  fulfillmentCancelledWebhook(shipment: Pick<Shipment, "fulfillmentId" | "orderId">): Promise<Response>;
}

/**
 * Tracking on real parts (startServiceAndAdmin): the service's timelines revealed by its clock, moved by hand
 * and given to the app as its clock too, the local admin over HTTP, the real write-back to create the
 * fulfillments and the real tracking pass, with the helpers the tracking tests share. The app's modules are
 * imported here once the environment is set; a test file awaits this at its top level and imports any other
 * app module after it. The test file closes the harness and the service after its tests.
 */
export async function startTrackingStack(options: Omit<ServiceAndAdminOptions, "scope">): Promise<TrackingStack> {
  const parts = await startServiceAndAdmin({ ...options, scope: "read_orders,write_fulfillments" });
  const { service, harness, customer } = parts;
  const { default: prisma } = await import("../../app/db/db.server");
  const { writeBack } = await import("../../app/fulfillment/write-back.server");
  const { syncDueTracking } = await import("../../app/tracking/pass.server");
  const { unauthenticated } = await import("../../app/shopify.server");
  const { action: fulfillmentsWebhook } = await import("../../app/routes/webhooks.fulfillments");
  const booking = service.clientFor(customer);
  const store = harness.admin.store;
  const available = shippableFulfillmentOrders(store);
  const now = () => service.clock.now();

  const take = (count: number) => available.splice(0, count);

  async function shopAdmin(): Promise<ShopAdmin> {
    const { admin } = await unauthenticated.admin(SHOP);
    return { admin, shop: SHOP };
  }

  const context = async () => contextOf(await shopAdmin(), prisma, now);

  async function bookAndFulfil(count: number) {
    const rows = await createBookedShipments({ db: prisma, shop: SHOP, client: booking, fulfillmentOrders: take(count), bookedAt: now() });
    expect(await writeBack(await context())).toEqual({ fulfilled: count, failed: 0 });
    return prisma.shipment.findMany({ where: { id: { in: rows.map((row) => row.id) } } });
  }

  async function pass() {
    return syncDueTracking(await context(), { random: () => 0.5 });
  }

  async function runFor(hours: number, stepHours = 1, each: () => Promise<void> = async () => {}) {
    const totals = { polled: 0, written: 0 };
    for (let elapsed = 0; elapsed < hours; elapsed += stepHours) {
      service.clock.advance(stepHours * HOUR);
      const summary = await pass();
      totals.polled += summary.polled;
      totals.written += summary.written;
      await each();
    }
    return totals;
  }

  function nextDayAt(hour: number, minute: number) {
    const current = now();
    service.clock.set(new Date(Date.UTC(current.getUTCFullYear(), current.getUTCMonth(), current.getUTCDate() + 1, hour, minute)));
  }

  function shopifyEvents(fulfillmentGid: string) {
    const id = parseGid(fulfillmentGid)!.id;
    return store.listFulfillmentEvents(id).sort((a, b) => a.happened_at.localeCompare(b.happened_at) || a.id - b.id);
  }

  function fulfillmentCancelledWebhook(shipment: Pick<Shipment, "fulfillmentId" | "orderId">) {
    const payload = {
      id: parseGid(shipment.fulfillmentId!)!.id,
      admin_graphql_api_id: shipment.fulfillmentId,
      order_id: parseGid(shipment.orderId)!.id,
      status: "cancelled",
    };
    return fulfillmentsWebhook({
      request: signedWebhook({ path: "/webhooks/fulfillments", topic: "fulfillments/update", shop: SHOP, secret: API_SECRET, payload }),
      params: {},
      context: {},
    });
  }

  return {
    ...parts,
    prisma,
    writeBack,
    booking,
    store,
    now,
    take,
    shopAdmin,
    context,
    bookAndFulfil,
    pass,
    runFor,
    nextDayAt,
    shopifyEvents,
    fulfillmentCancelledWebhook,
  };
}
