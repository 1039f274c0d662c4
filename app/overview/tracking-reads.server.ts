import type { LatestTrackingReader } from "../extension/order-shipments.server";
import type { DeliveredShipmentsReader } from "./overview.server";

/**
 * The two reads of tracking data the order-details block and the overview need: the carrier's latest event
 * per shipment, and delivered shipments with their pickup and delivery times. They read the columns tracking
 * sync keeps on Shipment (carrierStatus, lastEventPlace, lastEventAt, inTransitAt, deliveredAt; see the
 * tracking decision record). `db` is typed by those columns alone, so this module compiles before and after
 * they exist; callers pass the app's Prisma client once the schema has them:
 *   orderShipmentsView(prisma, shop, orderId, latestTrackingReader(prisma))
 *   shippingOverview(prisma, shop, days, now, deliveredShipmentsReader(prisma))
 */

interface TrackedRow {
  id: string;
  carrierCode: string | null;
  serviceCode: string | null;
  selectedQuoteId: number | null;
  bookedAt: Date | null;
  carrierStatus: string | null;
  lastEventPlace: string | null;
  lastEventAt: Date | null;
  inTransitAt: Date | null;
  deliveredAt: Date | null;
}

export interface TrackingDb {
  shipment: {
    findMany(args: {
      where: { shop: string; id?: { in: string[] }; deliveredAt?: { gte: Date; lte: Date } };
      select: { [K in keyof TrackedRow]?: true };
    }): Promise<Array<Partial<TrackedRow>>>;
  };
  quote: {
    findMany(args: { where: { shop: string; quoteId: { in: number[] } }; select: { quoteId: true; serviceDescription: true } }): Promise<Array<{ quoteId: number; serviceDescription: string }>>;
  };
}

export function latestTrackingReader(db: TrackingDb): LatestTrackingReader {
  return async (shop, shipmentIds) => {
    const rows = await db.shipment.findMany({
      where: { shop, id: { in: [...shipmentIds] } },
      select: { id: true, carrierStatus: true, lastEventPlace: true, lastEventAt: true },
    });
    return new Map(
      rows.flatMap((row) => (row.id && row.carrierStatus && row.lastEventAt ? [[row.id, { status: row.carrierStatus, place: row.lastEventPlace ?? null, at: row.lastEventAt.toISOString() }] as const] : [])),
    );
  };
}

export function deliveredShipmentsReader(db: TrackingDb): DeliveredShipmentsReader {
  return async (shop, from, to) => {
    const rows = await db.shipment.findMany({
      where: { shop, deliveredAt: { gte: from, lte: to } },
      select: { carrierCode: true, serviceCode: true, selectedQuoteId: true, bookedAt: true, inTransitAt: true, deliveredAt: true },
    });
    const quoteIds = rows.flatMap((row) => (typeof row.selectedQuoteId === "number" ? [row.selectedQuoteId] : []));
    const names = new Map((await db.quote.findMany({ where: { shop, quoteId: { in: quoteIds } }, select: { quoteId: true, serviceDescription: true } })).map((quote) => [quote.quoteId, quote.serviceDescription]));
    return rows.flatMap((row) =>
      row.carrierCode && row.serviceCode && row.bookedAt && row.deliveredAt
        ? [
            {
              carrierCode: row.carrierCode,
              serviceCode: row.serviceCode,
              serviceDescription: typeof row.selectedQuoteId === "number" ? (names.get(row.selectedQuoteId) ?? null) : null,
              bookedAt: row.bookedAt,
              inTransitAt: row.inTransitAt ?? null,
              deliveredAt: row.deliveredAt,
            },
          ]
        : [],
    );
  };
}
