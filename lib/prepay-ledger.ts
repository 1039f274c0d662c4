/**
 * The prepay ledger's rules, pure: given an account's balance and settings, plan the entries a charge writes.
 * The Shipping API service books by them (it appends the entries and the new balance in the same transaction
 * as the booking, so the balance always equals the last entry's `balanceAfterCents`), and the app projects a
 * booking's effect on the balance by the same rules before the merchant spends anything.
 */

export interface PrepayAccount {
  balanceCents: number;
  minimumBalanceCents: number;
  rechargeAmountCents: number;
}

export interface LedgerEntryPlan {
  /** A refund credits a voided label's charge back. */
  kind: "recharge" | "charge" | "refund";
  amountCents: number;
  balanceAfterCents: number;
  reference: string;
}

export type ChargePlan = { ok: true; entries: LedgerEntryPlan[]; balanceAfterCents: number } | { ok: false; shortfallCents: number };

/** The opening entry of a new customer: `rechargeAmount` is billed on creation. */
export function openingEntries(rechargeAmountCents: number): LedgerEntryPlan[] {
  return [{ kind: "recharge", amountCents: rechargeAmountCents, balanceAfterCents: rechargeAmountCents, reference: "account opened" }];
}

/**
 * Plans charging `costCents` for `reference` (a book number).
 *
 * - Cost above the balance: refused, unless `approveRecharge`, which recharges by `rechargeAmount` as many
 *   times as needed first (recharges only ever come in units of the customer's chosen amount).
 * - After the charge, while the balance is below `minimumBalance`, recharge by `rechargeAmount`.
 * A zero recharge amount can never lift a balance, so it only ever refuses.
 */
export function planCharge(account: PrepayAccount, costCents: number, reference: string, approveRecharge: boolean): ChargePlan {
  const entries: LedgerEntryPlan[] = [];
  let balance = account.balanceCents;
  const recharge = (why: string) => {
    balance += account.rechargeAmountCents;
    entries.push({ kind: "recharge", amountCents: account.rechargeAmountCents, balanceAfterCents: balance, reference: why });
  };
  if (costCents > balance) {
    if (!approveRecharge || account.rechargeAmountCents <= 0) return { ok: false, shortfallCents: costCents - balance };
    const times = Math.ceil((costCents - balance) / account.rechargeAmountCents);
    for (let i = 0; i < times; i++) recharge(`approved recharge for ${reference}`);
  }
  balance -= costCents;
  entries.push({ kind: "charge", amountCents: -costCents, balanceAfterCents: balance, reference });
  if (account.rechargeAmountCents > 0 && balance < account.minimumBalanceCents) {
    const times = Math.ceil((account.minimumBalanceCents - balance) / account.rechargeAmountCents);
    for (let i = 0; i < times; i++) recharge("balance below minimum");
  }
  return { ok: true, entries, balanceAfterCents: balance };
}

/**
 * Plans crediting `amountCents` back for `reference` (the book number of a voided label): one refund entry. A
 * refund only raises the balance, so it never triggers a recharge.
 */
export function planRefund(account: PrepayAccount, amountCents: number, reference: string): { entries: LedgerEntryPlan[]; balanceAfterCents: number } {
  const balanceAfterCents = account.balanceCents + amountCents;
  return { entries: [{ kind: "refund", amountCents, balanceAfterCents, reference }], balanceAfterCents };
}
