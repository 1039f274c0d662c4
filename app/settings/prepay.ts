import { planCharge } from "../../lib/prepay-ledger";
import { formatMoney, sumAmounts } from "../shipping/money";

/**
 * What a booking will do to the merchant's prepay balance, before anything is spent. The Shipping API reports
 * the balance only after a booking (and an account Consign created starts at the recharge billed on creation),
 * so the app keeps the last report and projects from it by the ledger's own rules (lib/prepay-ledger.ts): each
 * label is charged in turn; a label above the balance fails; below the minimum, the account recharges by its
 * recharge amount. Balances and charges are in USD.
 */

/** What the app knows of the account's prepay (ShippingAccount): null where it knows nothing yet. */
export interface PrepayOnFile {
  balance: string | null;
  /** When the Shipping API last reported `balance` (ISO). */
  reportedAt: string | null;
  /** Known for accounts Consign created; a connected account's settings are the merchant's own. */
  minimumBalance: string | null;
  rechargeAmount: string | null;
}

export type PrepayOutlook =
  /** No balance on file yet: the Shipping API tells it after the first booking. */
  | { kind: "unknown"; total: string }
  /** Some cost is not in USD: the service converts at booking, so no projection is offered. */
  | { kind: "other-currency"; total: string; balance: string; reportedAt: string }
  | {
      kind: "projected";
      total: string;
      balance: string;
      reportedAt: string;
      /** The balance once every label that fits is booked. */
      after: string;
      /** Recharges the account's settings will bill on the way (count and sum); null when its settings are unknown. */
      recharges: { count: number; amount: string } | null;
      /** Labels the balance will not cover (each fails with "insufficient funds"). */
      uncovered: number;
    };

const cents = (amount: string): number => Math.round(Number(amount) * 100);
const amountOf = (value: number): string => (value / 100).toFixed(2);

/** The outlook for booking labels that cost `costs` (each `{amount, currency}`), in booking order. */
export function prepayOutlook(onFile: PrepayOnFile, costs: ReadonlyArray<{ amount: string; currency: string }>): PrepayOutlook {
  const total = sumAmounts(costs.map((cost) => cost.amount));
  if (onFile.balance === null || onFile.reportedAt === null) return { kind: "unknown", total };
  const known = { total, balance: onFile.balance, reportedAt: onFile.reportedAt };
  if (costs.some((cost) => cost.currency !== "USD")) return { kind: "other-currency", ...known };

  // A connected account's recharge settings are unknown: project without recharges, and say so.
  const settingsKnown = onFile.minimumBalance !== null && onFile.rechargeAmount !== null;
  let account = {
    balanceCents: cents(onFile.balance),
    minimumBalanceCents: settingsKnown ? cents(onFile.minimumBalance!) : 0,
    rechargeAmountCents: settingsKnown ? cents(onFile.rechargeAmount!) : 0,
  };
  let recharged = 0;
  let uncovered = 0;
  costs.forEach((cost, index) => {
    const plan = planCharge(account, cents(cost.amount), `label ${index + 1}`, false);
    if (!plan.ok) {
      uncovered++;
      return;
    }
    recharged += plan.entries.filter((entry) => entry.kind === "recharge").length;
    account = { ...account, balanceCents: plan.balanceAfterCents };
  });
  return {
    kind: "projected",
    ...known,
    after: amountOf(account.balanceCents),
    recharges: settingsKnown ? { count: recharged, amount: amountOf(recharged * account.rechargeAmountCents) } : null,
    uncovered,
  };
}

/** Balances and charges are in USD. */
export const usd = (amount: string) => formatMoney(amount, "USD");

/** One sentence for the confirmation: what the merchant is about to spend, and where the balance ends up. */
export function prepaySentence(outlook: PrepayOutlook, labels: number): string {
  const spend = `${labels} ${labels === 1 ? "label" : "labels"} for ${usd(outlook.total)}`;
  switch (outlook.kind) {
    case "unknown":
      return `Book ${spend}? Your prepay balance is not known yet: the Shipping API reports it after your first booking.`;
    case "other-currency":
      return `Book ${spend}? Your prepay balance was ${usd(outlook.balance)}; labels priced in other currencies are converted to USD when booked.`;
    case "projected": {
      const recharge =
        outlook.recharges === null
          ? " (before any recharge your account's settings make)"
          : outlook.recharges.count > 0
            ? `, after ${outlook.recharges.count} ${outlook.recharges.count === 1 ? "recharge" : "recharges"} of your account totalling ${usd(outlook.recharges.amount)}`
            : "";
      const uncovered =
        outlook.uncovered > 0 ? ` ${outlook.uncovered} ${outlook.uncovered === 1 ? "label is" : "labels are"} not covered and will fail: add funds first.` : "";
      return `Book ${spend}? Prepay balance ${usd(outlook.balance)} → ${usd(outlook.after)}${recharge}.${uncovered}`;
    }
  }
}
