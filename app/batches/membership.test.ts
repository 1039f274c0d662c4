import { describe, expect, it } from "vitest";
import { bookingBlockers, compareMembership, repairPlan, type Member, type RemoteQuote } from "./membership";

const now = new Date("2026-11-23T15:00:00Z");
const live = new Date("2026-12-20T15:00:00Z");
const past = new Date("2026-11-01T15:00:00Z");

const remote = (quoteId: number, overrides: Partial<RemoteQuote> = {}): RemoteQuote => ({ quoteId, status: "active", expiresAt: live, ...overrides });
const member = (shipmentId: string, selectedQuoteId: number | null, selectedQuoteExpiresAt: Date | null = live): Member => ({
  shipmentId,
  selectedQuoteId,
  selectedQuoteExpiresAt,
});

describe("compareMembership", () => {
  it("GIVEN every member's picked rate in the batch THEN nothing to repair and the batch can be booked", () => {
    const view = compareMembership(
      [remote(1), remote(2)],
      [member("a", 1), member("b", 2)],
      new Map([
        [1, "a"],
        [2, "b"],
      ]),
      now,
    );
    expect(view.members).toEqual([
      { shipmentId: "a", inBatch: remote(1), expired: false },
      { shipmentId: "b", inBatch: remote(2), expired: false },
    ]);
    expect(repairPlan(view, now)).toEqual({ remove: [], requote: [], add: [] });
    expect(bookingBlockers(view, now)).toEqual([]);
  });

  it("GIVEN a rate expired by the clock or by the service's status THEN those members are re-quoted", () => {
    const view = compareMembership([remote(1, { status: "expired" }), remote(2)], [member("a", 1), member("b", 2, past)], new Map(), now);
    expect(view.members.map((entry) => entry.expired)).toEqual([true, true]);
    expect(repairPlan(view, now)).toEqual({ remove: [1, 2], requote: ["a", "b"], add: [] });
    expect(bookingBlockers(view, now)).toEqual([expect.stringMatching(/^2 rates have expired\. Choose “Re-quote expired rates”/)]);
  });

  it("GIVEN a re-quote that stopped after new rates were picked THEN the old rates are removed and the new ones added", () => {
    // Quote 1 was a's old rate: its row went with the re-quote, so nothing ties it to a; it expired.
    // Quote 2 is b's previous pick, still on record; b now has 20.
    const view = compareMembership([remote(1, { status: "expired" }), remote(2)], [member("a", 10), member("b", 20)], new Map([[2, "b"]]), now);
    expect(view.superseded).toEqual([remote(2)]);
    expect(view.orphans).toEqual([remote(1, { status: "expired" })]);
    expect(repairPlan(view, now)).toEqual({ remove: [2, 1], requote: [], add: ["a", "b"] });
    expect(bookingBlockers(view, now)).toHaveLength(2);
  });

  it("GIVEN a live rate nobody in the batch owns THEN it is kept for the merchant to remove and blocks booking", () => {
    const view = compareMembership([remote(1), remote(7)], [member("a", 1)], new Map([[1, "a"]]), now);
    expect(view.orphans).toEqual([remote(7)]);
    expect(repairPlan(view, now).remove).toEqual([]);
    expect(bookingBlockers(view, now)).toEqual([expect.stringMatching(/1 rate Consign cannot tie to an order\. Remove it/)]);
  });

  it("GIVEN an empty batch THEN booking is refused with what to do", () => {
    expect(bookingBlockers(compareMembership([], [], new Map(), now), now)).toEqual(["The batch has no orders. Add orders first."]);
  });
});
