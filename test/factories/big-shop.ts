import type { Prisma, PrismaClient } from "@prisma/client";
import type { ShippingClient } from "../../shipping-api/client";
import { chunksOf, writeByIds } from "../../app/db/id-lists.server";
import { timeOrderedId } from "../../app/db/ids";
import { loadMirroredOrders } from "../../app/orders/mirror.server";
import { orderToShipments } from "../../app/orders/shipment-mapping";
import { quotedShipments, realMapping } from "./shipments";

/**
 * A busy shop's data for `npm run bench:ui` and the paging browser tests, written straight into the app's
 * database (they measure pages, not quoting or tracking): a rates run over the shop's mirrored orders, quoted
 * by the real service, an open batch of its rates created on the service, and a history of tracked shipments.
 * Rows go in with createMany in bounded slices, so seeding 50,000 shipments takes seconds.
 */

/** Orders quoted and stored per slice: one Batch Quote chunking of the client's and one bounded id list each. */
const ORDERS_PER_SLICE = 500;
/** Rows per createMany. */
const ROWS_PER_INSERT = 1_000;

export interface SeededRun {
  runId: string;
  orders: number;
  shipments: number;
  blockedOrders: number;
}

/**
 * A completed rates run over `orderIds` (mirrored orders): each order that maps is quoted with every enabled
 * service and its rule's pick stored (test/factories/shipments.ts, as quoting stores them); each that does not
 * is a blocked order with its reasons, as a run records them.
 */
export async function seedRatesRun(options: {
  db: PrismaClient;
  shop: string;
  client: ShippingClient;
  orderIds: readonly string[];
  now: Date;
}): Promise<SeededRun> {
  const { db, shop, now } = options;
  const mapping = await realMapping(options.client, now);
  const run = await db.quoteRun.create({
    data: { shop, status: "RUNNING", orderIds: JSON.stringify(options.orderIds), startedAt: now },
  });
  let shipments = 0;
  let blocked = 0;
  for (const slice of chunksOf(options.orderIds, ORDERS_PER_SLICE)) {
    const orders = await loadMirroredOrders({ db, shop }, slice);
    const mapped = orders.map((order) => ({ order, result: orderToShipments(order, mapping) }));
    const quotable = mapped.flatMap(({ order, result }) => (result.ok ? [order] : []));
    const quoted = await quotedShipments({ db, shop, client: options.client, mapping, now, orders: quotable, keepFailures: true });
    await writeByIds(
      { db },
      quoted.map((row) => row.id),
      (ids) => db.shipment.updateMany({ where: { id: { in: ids } }, data: { runId: run.id } }),
    );
    const refused = mapped.flatMap(({ order, result }) =>
      result.ok ? [] : [{ runId: run.id, orderId: order.id, orderName: order.name, issues: JSON.stringify(result.issues) }],
    );
    if (refused.length > 0) await db.blockedOrder.createMany({ data: refused });
    shipments += quoted.length;
    blocked += refused.length;
  }
  await db.quoteRun.update({ where: { id: run.id }, data: { status: "COMPLETED", shipmentsTotal: shipments, shipmentsDone: shipments, finishedAt: now } });
  return { runId: run.id, orders: options.orderIds.length, shipments, blockedOrders: blocked };
}

/** An open batch of `size` of the run's picked rates, created on the service (Create Batch) as a batch's job creates it. */
export async function seedOpenBatch(options: {
  db: PrismaClient;
  shop: string;
  client: ShippingClient;
  runId: string;
  size: number;
  name: string;
}): Promise<{ batchId: string; lines: number }> {
  const { db, shop } = options;
  const members = await db.shipment.findMany({
    where: { shop, runId: options.runId, quoteStatus: "QUOTED", selectedQuoteId: { not: null }, batchId: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: options.size,
    select: { id: true, selectedQuoteId: true },
  });
  const created = await options.client.createBatch({ body: { name: options.name, quoteIds: members.map((member) => member.selectedQuoteId!) } });
  if (!created.ok) throw new Error(`Create Batch failed: ${JSON.stringify(created.error)}`);
  const batch = await db.batch.create({ data: { shop, name: options.name, status: "OPEN", remoteBatchId: created.value.batchId } });
  await db.shipment.updateMany({ where: { id: { in: members.map((member) => member.id) } }, data: { batchId: batch.id } });
  return { batchId: batch.id, lines: members.length };
}

const PLACES = ["MEMPHIS, TN, US", "LOUISVILLE, KY, US", "COLUMBUS, OH, US", "DALLAS, TX, US", "RENO, NV, US", "NEWARK, NJ, US"];

/**
 * `count` shipments booked, written back and tracked over the last 90 days, with the mix a busy shop's Shipments
 * page shows: most delivered, many in transit, some out for delivery, a few failed attempts and parcels gone quiet.
 * Carriers and services are the account's own (List Services), so names and the overview's charts are real.
 */
export async function seedTrackedShipments(options: { db: PrismaClient; shop: string; client: ShippingClient; count: number; now: Date }): Promise<void> {
  const services = await options.client.listServices();
  if (!services.ok) throw new Error(`List Services failed: ${JSON.stringify(services.error)}`);
  const outbound = services.value.services.filter((service) => !service.inbound);
  const day = 86_400_000;
  const row = (index: number): { shipment: Prisma.ShipmentCreateManyInput; schedule: Prisma.TrackingScheduleCreateManyInput } => {
    const service = outbound[index % outbound.length]!;
    const bookedAt = new Date(options.now.getTime() - ((index * 7919) % (90 * day)) - day);
    const inTransitAt = new Date(bookedAt.getTime() + day / 2);
    const kind = index % 100;
    const tracking =
      kind < 60
        ? { trackingState: "DELIVERED", carrierStatus: "Delivered", deliveredAt: new Date(inTransitAt.getTime() + (1 + (index % 5)) * day) }
        : kind < 90
          ? { trackingState: "ACTIVE", carrierStatus: "In Transit", nextTrackAt: new Date(options.now.getTime() + (index % 360) * 60_000) }
          : kind < 95
            ? { trackingState: "ACTIVE", carrierStatus: "Out for Delivery", nextTrackAt: new Date(options.now.getTime() + 3_600_000) }
            : kind < 98
              ? {
                  trackingState: "ACTIVE",
                  carrierStatus: "Failed Attempt",
                  attentionReason: "Customer not available or business closed",
                  attentionAction: "Delivery will be attempted again the next business day",
                  nextTrackAt: new Date(options.now.getTime() + 3_600_000),
                }
              : { trackingState: "STALE", carrierStatus: "In Transit" };
    const lastEventAt = "deliveredAt" in tracking && tracking.deliveredAt ? tracking.deliveredAt : new Date(inTransitAt.getTime() + day);
    const id = timeOrderedId();
    const { nextTrackAt = null, ...state } = tracking as typeof tracking & { nextTrackAt?: Date };
    const shipment: Prisma.ShipmentCreateManyInput = {
      id,
      shop: options.shop,
      orderId: `gid://shopify/Order/${800_000 + index}`,
      orderName: `#H${100_000 + index}`,
      fulfillmentOrderId: `gid://shopify/FulfillmentOrder/${800_000 + index}`,
      lines: "[]",
      request: "{}",
      quoteStatus: "QUOTED",
      bookingStatus: "BOOKED",
      bookNumber: `BN${String(index).padStart(8, "0")}`,
      trackingNumber: `1Z${String(900_000_000 + index)}`,
      carrierCode: service.carrierCode,
      serviceCode: service.serviceCode,
      shippingCost: (6 + (index % 40) + (index % 100) / 100).toFixed(2),
      currency: "USD",
      zone: String(1 + (index % 8)),
      bookedAt,
      fulfillmentStatus: "FULFILLED",
      fulfillmentId: `gid://shopify/Fulfillment/${800_000 + index}`,
      fulfilledAt: new Date(bookedAt.getTime() + 60_000),
      lastEventText: tracking.carrierStatus,
      lastEventPlace: PLACES[index % PLACES.length]!,
      lastEventAt,
      inTransitAt,
      shopifyStatus: tracking.trackingState === "DELIVERED" ? "DELIVERED" : "IN_TRANSIT",
      shopifyStatusAt: lastEventAt,
      createdAt: bookedAt,
      ...state,
    };
    return { shipment, schedule: { id, shop: options.shop, nextTrackAt, lastTrackedAt: lastEventAt } };
  };
  for (let start = 0; start < options.count; start += ROWS_PER_INSERT) {
    const size = Math.min(ROWS_PER_INSERT, options.count - start);
    const rows = Array.from({ length: size }, (_, offset) => row(start + offset));
    await options.db.$transaction([
      options.db.shipment.createMany({ data: rows.map((entry) => entry.shipment) }),
      options.db.trackingSchedule.createMany({ data: rows.map((entry) => entry.schedule) }),
    ]);
  }
}
