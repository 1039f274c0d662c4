import type { PrismaClient } from "@prisma/client";
import { storedQuotes, type StoredQuote } from "../../app/shipping/stored-rates";

/** A shipment's stored rates (its `rates` column, read as the app reads it), for tests that look at them. */
export async function ratesOf(db: PrismaClient, shipmentId: string): Promise<StoredQuote[]> {
  return storedQuotes(await db.shipment.findUniqueOrThrow({ where: { id: shipmentId }, select: { rates: true, quotedAt: true } }));
}

/** Every stored rate of the shipments `where` selects, with the id of the shipment each belongs to. */
export async function ratesWhere(db: PrismaClient, where: NonNullable<Parameters<PrismaClient["shipment"]["findMany"]>[0]>["where"]) {
  const shipments = await db.shipment.findMany({ where, select: { id: true, selectedQuoteId: true, rates: true, quotedAt: true } });
  return shipments.flatMap((shipment) =>
    storedQuotes(shipment).map((quote) => ({ ...quote, shipmentId: shipment.id, picked: quote.quoteId === shipment.selectedQuoteId })),
  );
}
