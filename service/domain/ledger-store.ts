import type { LedgerEntryPlan, PrepayAccount } from "../../lib/prepay-ledger";
import type { DomainContext } from "./context";

/** Appends planned entries and moves the customer's balance to the last one (same transaction as the caller). */
export function insertLedgerEntries(ctx: DomainContext, customerId: string, entries: readonly LedgerEntryPlan[], at: string): void {
  const insert = ctx.store.statement(
    `INSERT INTO LedgerEntry (customerId, kind, amountCents, balanceAfterCents, reference, createdAt) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  for (const entry of entries) insert.run(customerId, entry.kind, entry.amountCents, entry.balanceAfterCents, entry.reference, at);
  const last = entries.at(-1);
  if (last) ctx.store.statement(`UPDATE Customer SET balanceCents = ? WHERE id = ?`).run(last.balanceAfterCents, customerId);
}

export function prepayAccountOf(ctx: DomainContext, customerId: string): PrepayAccount {
  const row = ctx.store.statement(`SELECT balanceCents, minimumBalanceCents, rechargeAmountCents FROM Customer WHERE id = ?`).get(customerId) as
    PrepayAccount | undefined;
  if (!row) throw new Error(`Customer ${customerId} vanished during a booking`);
  return row;
}
