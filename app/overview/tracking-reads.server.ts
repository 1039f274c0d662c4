import type { DeliveredShipmentsReader } from "./overview.server";

/**
 * Where the order-details block and the overview get tracking data (docs/decisions/010). Both take it as a
 * reader, so they work, and say "no carrier scan yet" / "no deliveries tracked yet", until tracking sync's
 * columns on Shipment exist (carrierStatus, lastEventPlace, lastEventAt, inTransitAt, deliveredAt):
 * - the block's latest event per shipment is tracking's own `latestTracking(db, shop, ids)`
 *   (app/tracking/tracking-views.server.ts), adapted to LatestTrackingReader:
 *     (shop, ids) => latestTracking(prisma, shop, ids).then((views) => new Map(views.filter((v) => v.lastEventAt)
 *       .map((v) => [v.shipmentId, { status: v.status, place: v.lastEventPlace, at: v.lastEventAt! }])))
 * - the overview's deliveries are read here. `db` is typed by the columns it reads, so this module compiles
 *   before and after they exist; once they do, the overview's loader and export pass
 *   deliveredShipmentsReader(prisma) to shippingOverview, and the block's route passes the adapter above.
 */

interface TrackedRow {
  carrierCode: string | null;
  serviceCode: string | null;
  selectedQuoteId: number | null;
  bookedAt: Date | null;
  inTransitAt: Date | null;
  deliveredAt: Date | null;
}

export interface TrackingDb {
  shipment: {
    findMany(args: {
      where: { shop: string; deliveredAt: { gte: Date; lte: Date } };
      select: { [K in keyof TrackedRow]?: true };
    }): Promise<Array<Partial<TrackedRow>>>;
  };
  quote: {
    findMany(args: { where: { shop: string; quoteId: { in: number[] } }; select: { quoteId: true; serviceDescription: true } }): Promise<Array<{ quoteId: number; serviceDescription: string }>>;
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
