import type { BookedShipment } from "../../shipping-api/contract";
import { parseServiceTimestamp } from "./context.server";

/** What a label cost, as a Search Shipments record of it says. */
export interface LabelCharge {
  /** What was charged; "0.00" for a scan-based return label not scanned yet. */
  shippingCost: string;
  /** When a scan-based return label was charged (its first scan); null while it is unscanned, and for any other label. */
  chargedAt: Date | null;
}

/**
 * What a booked label cost by its Search Shipments record (service/README.md, scan-based return labels): a
 * scan-based return label costs nothing until the carrier first scans it, then `totalShippingCost`, charged at
 * `chargedAt`; any other label was charged `totalShippingCost` when booked. Reading a booking back and tracking's
 * charge read (app/tracking/pass.server.ts) both record this.
 */
export function chargeOf(record: Pick<BookedShipment, "scanBasedReturnLabel" | "chargedAt" | "totalShippingCost">): LabelCharge {
  if (!record.scanBasedReturnLabel) return { shippingCost: record.totalShippingCost, chargedAt: null };
  if (!record.chargedAt) return { shippingCost: "0.00", chargedAt: null };
  return { shippingCost: record.totalShippingCost, chargedAt: parseServiceTimestamp(record.chargedAt) };
}
