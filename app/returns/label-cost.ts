import { formatDate } from "../locale/shop-time";
import { formatMoney } from "../shipping/money";

/** What the Returns page knows of a label's cost (app/returns/returns-page.server.ts `ReturnLabelView`). */
export interface LabelCostFacts {
  bookingStatus: string;
  amount: string | null;
  currency: string | null;
  scanBased: boolean;
  unused: boolean;
  carrierStatus: string | null;
  chargedAt: string | null;
}

/**
 * A return label's cost in the merchant's words, dates in the shop's `timeZone`: a booked scan-based label costs
 * nothing until the carrier first scans it, then what the Shipping API charged (read back by tracking,
 * docs/decisions/041); any other label, what it costs or cost. Null when there is no price to show.
 */
export function labelCostText(label: LabelCostFacts, timeZone: string): string | null {
  const currency = label.currency ?? "USD";
  if (label.unused) return "Unused — cost nothing";
  if (label.scanBased && label.bookingStatus === "BOOKED") {
    if (label.chargedAt && label.amount) return `Used — charged ${formatMoney(label.amount, currency)} on ${formatDate(label.chargedAt, timeZone)}`;
    return "Used — the charge shows here once the Shipping API reports it";
  }
  return label.amount ? formatMoney(label.amount, currency) : null;
}
