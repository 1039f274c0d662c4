import type { Shipment } from "@prisma/client";
import { describeError } from "../../shipping-api/client";
import type { Context } from "../context";
import { pieceCountOf, storedTrackingNumbers, trackingNumbersKnown, trackingNumbersOf } from "../shipping/tracking-numbers";

export type PieceNumbers = { ok: true; numbers: string[] } | { ok: false; message: string };

/**
 * Every piece's tracking number of a booked shipment, before anything uses them (its Shopify fulfillment carries
 * them all). Stored ones are used as they are, and so is a one-piece shipment's own number. A multi-piece
 * shipment booked in a batch has only its first (Batch Book and Get Batch answer one number per shipment): its
 * numbers are read once from Search Shipments (keyword: the book number, matched exactly in the answer) and
 * stored before they are returned, so later readers, a retry or another instance, read the same numbers.
 */
export async function pieceTrackingNumbers(
  ctx: Pick<Context, "db" | "shipping">,
  row: Pick<Shipment, "id" | "orderName" | "bookNumber" | "trackingNumber" | "trackingNumbers" | "request">,
): Promise<PieceNumbers> {
  if (trackingNumbersKnown(row) || pieceCountOf(row.request) <= 1 || !row.bookNumber || !row.trackingNumber) {
    return { ok: true, numbers: trackingNumbersOf(row) };
  }
  const client = await ctx.shipping();
  const found = await client.searchShipments({ body: { keyword: row.bookNumber } });
  if (!found.ok) {
    return {
      ok: false,
      message: `Consign could not read the tracking number of every box of ${row.orderName} from the Shipping API (${describeError(found.error)}); it tries again in a minute.`,
    };
  }
  const record = found.value.shipments.find((shipment) => shipment.bookNumber === row.bookNumber);
  const stored = storedTrackingNumbers(row.trackingNumber, record?.trackingNumbers ?? []);
  // Only where nothing was stored meanwhile: the first numbers stored are the ones every reader uses.
  await ctx.db.shipment.updateMany({ where: { id: row.id, trackingNumbers: null }, data: { trackingNumbers: stored } });
  const current = await ctx.db.shipment.findUniqueOrThrow({ where: { id: row.id }, select: { trackingNumber: true, trackingNumbers: true } });
  return { ok: true, numbers: trackingNumbersOf(current) };
}
