import { describe, expect, it } from "vitest";
import { filterCounts, isFiltered, matchesFilter, RatesFilter, type OrderFacts } from "./rates-filter";

const domesticNps: OrderFacts = { orderId: "1", attention: false, international: false, carriers: ["NPS"] };
const abroadGpc: OrderFacts = { orderId: "2", attention: false, international: true, carriers: ["GPC"] };
const blocked: OrderFacts = { orderId: "3", attention: true, international: false, carriers: [] };
const splitAbroad: OrderFacts = { orderId: "4", attention: true, international: true, carriers: ["GPC", "MRX"] };
const all = [domesticNps, abroadGpc, blocked, splitAbroad];

describe("the rates page's filters", () => {
  it.each([
    ["no filter", {}, ["1", "2", "3", "4"]],
    ["needs attention", { attention: "1" }, ["3", "4"]],
    ["international", { international: "1" }, ["2", "4"]],
    ["carrier GPC", { carrier: "GPC" }, ["2", "4"]],
    ["carrier MRX (one of an order's shipments)", { carrier: "MRX" }, ["4"]],
    ["international and needs attention", { attention: "1", international: "1" }, ["4"]],
    ["international with NPS", { international: "1", carrier: "NPS" }, []],
  ] as const)("GIVEN %s THEN the orders shown are %j", (_, query, expected) => {
    const filter = RatesFilter.parse(query);
    expect(all.filter((facts) => matchesFilter(facts, filter)).map((facts) => facts.orderId)).toEqual(expected);
  });

  it.each([
    ["an unknown attention value", { attention: "yes" }, {}],
    ["a carrier with markup", { carrier: "<b>" }, {}],
    ["a carrier with spaces around it", { carrier: " NPS " }, { carrier: "NPS" }],
    ["a page number and other parameters", { page: "3", international: "1" }, { international: "1" }],
  ])("GIVEN %s in the query THEN it is read as %j (a link never fails)", (_, query, expected) => {
    expect(JSON.parse(JSON.stringify(RatesFilter.parse(query)))).toEqual(expected);
  });

  it("GIVEN filters THEN isFiltered says whether any is set", () => {
    expect(isFiltered({})).toBe(false);
    expect(isFiltered({ carrier: "NPS" })).toBe(true);
  });

  it("GIVEN orders THEN each filter's count is the orders it would show, carriers by code", () => {
    expect(filterCounts(all)).toEqual({
      all: 4,
      attention: 2,
      international: 2,
      carriers: [
        { carrierCode: "GPC", orders: 2 },
        { carrierCode: "MRX", orders: 1 },
        { carrierCode: "NPS", orders: 1 },
      ],
    });
  });
});
