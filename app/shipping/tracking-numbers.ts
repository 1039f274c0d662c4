import type { Shipment } from "@prisma/client";
import { z } from "zod";

/**
 * Every piece's tracking number of a booked shipment, as `Shipment.trackingNumbers` stores them (JSON, piece
 * order, the first being the shipment's `trackingNumber`). A multi-piece shipment of the postal carrier has a
 * number per piece (Book Shipment's `pieces[]`, Search Shipments' `trackingNumbers`); others one for all.
 */
const StoredNumbers = z.array(z.string().min(1)).min(1);

function parsed(text: string | null): string[] | null {
  if (!text) return null;
  try {
    const result = StoredNumbers.safeParse(JSON.parse(text));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

/** The shipment's numbers as stored, or its one number while every piece's is not known (or it has none). */
export function trackingNumbersOf(row: Pick<Shipment, "trackingNumber" | "trackingNumbers">): string[] {
  return parsed(row.trackingNumbers) ?? (row.trackingNumber ? [row.trackingNumber] : []);
}

/** Whether every piece's number is stored (a batch's multi-piece booking has only its first until it is read). */
export function trackingNumbersKnown(row: Pick<Shipment, "trackingNumbers">): boolean {
  return parsed(row.trackingNumbers) !== null;
}

/** What `Shipment.trackingNumbers` stores: the shipment's number first, then each other piece's once. */
export function storedTrackingNumbers(trackingNumber: string, numbers: readonly string[] = []): string {
  return JSON.stringify([...new Set([trackingNumber, ...numbers.filter((number) => number.length > 0)])]);
}

/** How many pieces (boxes) a shipment's quote request holds: 1 when it cannot be read. */
export function pieceCountOf(request: string): number {
  try {
    const result = z.object({ pieces: z.array(z.unknown()).min(1) }).safeParse(JSON.parse(request));
    return result.success ? result.data.pieces.length : 1;
  } catch {
    return 1;
  }
}
