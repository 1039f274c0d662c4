import { describe, expect, it } from "vitest";
import { Store } from "../store/store.js";
import { seedStore } from "../seed/seed.js";
import { matchesTimeSearch, parseSearch, searchOrders } from "./order-search.js";

describe("orders search syntax", () => {
  it.each([
    ["status:open", { kind: "term", field: "status", op: ":", value: "open" }],
    ["created_at:>2026-01-01", { kind: "term", field: "created_at", op: ">", value: "2026-01-01" }],
    ["updated_at:>='2026-11-01T10:00:00Z'", { kind: "term", field: "updated_at", op: ">=", value: "2026-11-01T10:00:00Z" }],
    ['tag:"needs review"', { kind: "term", field: "tag", op: ":", value: "needs review" }],
    ["-tag:gift", { kind: "not", part: { kind: "term", field: "tag", op: ":", value: "gift" } }],
    ["Müller", { kind: "term", field: null, op: ":", value: "Müller" }],
  ])("GIVEN %s WHEN parsed THEN one term", (query, expected) => {
    expect(parseSearch(query)).toEqual(expected);
  });

  it("GIVEN implicit AND, OR, NOT and parentheses WHEN parsed THEN OR binds looser than AND", () => {
    expect(parseSearch("status:open (tag:a OR tag:b) NOT tag:c")).toEqual({
      kind: "and",
      parts: [
        { kind: "term", field: "status", op: ":", value: "open" },
        {
          kind: "or",
          parts: [
            { kind: "term", field: "tag", op: ":", value: "a" },
            { kind: "term", field: "tag", op: ":", value: "b" },
          ],
        },
        { kind: "not", part: { kind: "term", field: "tag", op: ":", value: "c" } },
      ],
    });
  });

  it("GIVEN a seeded store WHEN combining filters THEN the SQL agrees with the parts", () => {
    const store = new Store(":memory:", () => Date.parse("2026-11-20T12:00:00Z"));
    seedStore(store, { orders: 40 });
    const ids = (q: string) => searchOrders(store.db, q, "ID").rows.map((r) => r.id);
    const open = ids("status:open");
    const partial = ids("fulfillment_status:partial");
    expect(ids("status:open fulfillment_status:partial")).toEqual(partial.filter((id) => open.includes(id)));
    expect(ids("fulfillment_status:partial OR status:cancelled").length).toBe(partial.length + ids("status:cancelled").length);
    expect(ids("sku:MUG-MID")).toContain(1004);
    // the first seeded order is created 50 days before the clock: 2026-10-01
    expect(ids("created_at:2026-10-01")).toContain(1001);
    expect(ids("created_at:2020-01-01")).toEqual([]);
    expect(() => ids("created_at:>yesterdayish")).toThrow(/Invalid date/);
    expect(searchOrders(store.db, "fulfillment_status:sideways", "ID").warnings).toEqual([
      { field: "fulfillment_status", message: "Invalid value 'sideways' for fulfillment_status." },
    ]);
    store.close();
  });
});

describe("Order.fulfillments(query:) time filters", () => {
  const times = { created_at: "2026-11-20T12:00:00Z", updated_at: "2026-11-21T08:30:00Z" };

  it.each([
    [null, true],
    ["created_at:>='2026-11-20T12:00:00Z'", true],
    ["created_at:>'2026-11-20T12:00:00Z'", false],
    ["created_at:>=2026-11-21", false],
    ["created_at:<2026-11-21", true],
    ["created_at:2026-11-20", true],
    ["updated_at:2026-11-20", false],
    ["created_at:>2026-11-19 updated_at:<2026-11-21", false],
    ["created_at:>2026-11-21 OR updated_at:>2026-11-21", true],
    ["-created_at:2026-11-20", false],
    ["status:success", true],
  ])("GIVEN the query %j THEN a fulfillment created at noon on 2026-11-20 matches: %s", (query, expected) => {
    expect(matchesTimeSearch(query, times)).toBe(expected);
  });
});
