import { describe, expect, it } from "vitest";
import { openingEntries, planCharge, planRefund } from "./prepay-ledger";

const account = { balanceCents: 10_000, minimumBalanceCents: 5_000, rechargeAmountCents: 20_000 };

describe("prepay ledger", () => {
  it("bills the recharge amount on opening", () => {
    expect(openingEntries(50_000)).toEqual([{ kind: "recharge", amountCents: 50_000, balanceAfterCents: 50_000, reference: "account opened" }]);
  });

  it("GIVEN a charge that keeps the balance above the minimum THEN one charge entry", () => {
    expect(planCharge(account, 2_500, "CN1", false)).toEqual({
      ok: true,
      balanceAfterCents: 7_500,
      entries: [{ kind: "charge", amountCents: -2_500, balanceAfterCents: 7_500, reference: "CN1" }],
    });
  });

  it("GIVEN a charge that drops the balance below the minimum THEN a recharge follows", () => {
    const plan = planCharge(account, 6_000, "CN2", false);
    expect(plan).toMatchObject({ ok: true, balanceAfterCents: 24_000 });
    if (plan.ok)
      expect(plan.entries.map((entry) => [entry.kind, entry.amountCents, entry.balanceAfterCents])).toEqual([
        ["charge", -6_000, 4_000],
        ["recharge", 20_000, 24_000],
      ]);
  });

  it("GIVEN a cost above the balance THEN it is refused with the shortfall", () => {
    expect(planCharge(account, 12_500, "CN3", false)).toEqual({ ok: false, shortfallCents: 2_500 });
  });

  it("GIVEN a cost above the balance with recharge approved THEN recharges come first, in whole recharge amounts", () => {
    const plan = planCharge(account, 45_000, "CN4", true);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    // 10,000 + 2 × 20,000 = 50,000 ≥ 45,000; after the charge 5,000 is not below the minimum.
    expect(plan.entries.map((entry) => entry.kind)).toEqual(["recharge", "recharge", "charge"]);
    expect(plan.balanceAfterCents).toBe(5_000);
  });

  it("keeps the balance equal to the running sum of entries", () => {
    let balance = account.balanceCents;
    let state = { ...account };
    for (const cost of [3_000, 9_999, 1, 25_000, 7_777]) {
      const plan = planCharge(state, cost, "CN", true);
      if (!plan.ok) throw new Error("approved charges cannot be refused");
      for (const entry of plan.entries) {
        balance += entry.amountCents;
        expect(entry.balanceAfterCents).toBe(balance);
      }
      expect(balance).toBeGreaterThanOrEqual(state.minimumBalanceCents);
      state = { ...state, balanceCents: plan.balanceAfterCents };
    }
  });

  it("GIVEN a voided label's charge THEN one refund entry credits it back, with no recharge even below the minimum", () => {
    expect(planRefund({ ...account, balanceCents: 1_000 }, 2_500, "CN5")).toEqual({
      balanceAfterCents: 3_500,
      entries: [{ kind: "refund", amountCents: 2_500, balanceAfterCents: 3_500, reference: "CN5" }],
    });
  });
});
