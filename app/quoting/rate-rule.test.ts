import { describe, expect, it } from "vitest";
import type { RateRule } from "../settings/settings";
import { serviceNamesOf } from "../shipping/service-names";
import { describeRule, pickRate, sameServiceRate, speedClass, type RateCandidate } from "./rate-rule";

let nextQuoteId = 100;
function rate(carrierCode: string, serviceCode: string, serviceDescription: string, totalAmount: string, currency = "USD"): RateCandidate {
  return { quoteId: ++nextQuoteId, carrierCode, serviceCode, serviceDescription, totalAmount, currency };
}

// Six domestic rates named as the local service's catalog names them.
const ground = rate("NPS", "NPS_GROUND_ADVANTAGE", "Ground Advantage", "9.40");
const priority = rate("NPS", "NPS_PRIORITY", "Priority Mail", "12.85");
const express = rate("NPS", "NPS_PRIORITY_EXPRESS", "Priority Mail Express", "31.20");
const threeDay = rate("BLP", "BLP_3_DAY_SELECT", "3 Day Select", "24.10");
const nextDay = rate("BLP", "BLP_NEXT_DAY_AIR", "Next Day Air", "44.75");
const overnight = rate("MRX", "MRX_PRIORITY_OVERNIGHT", "Priority Overnight", "47.02");
const twoDay = rate("MRX", "MRX_2DAY", "2Day", "27.64");
const six = [ground, priority, express, threeDay, nextDay, twoDay];
// As text "10.00" < "9.5"; as amounts it is the other way round.
const tenFlat = rate("A", "A_GROUND", "Ground", "10.00");
const nineFifty = rate("B", "B_GROUND", "Ground", "9.5");

describe("speed classes read from service names (a heuristic: the API has no transit times)", () => {
  it.each([
    ["MRX_PRIORITY_OVERNIGHT", "Priority Overnight", "overnight"],
    ["BLP_NEXT_DAY_AIR", "Next Day Air", "overnight"],
    ["NPS_PRIORITY_EXPRESS", "Priority Mail Express", "express"],
    ["MRX_2DAY", "2Day", "express"],
    ["X_SECOND_DAY", "Second-Day Air", "express"],
    ["BLP_3_DAY_SELECT", "3 Day Select", "3-day"],
    ["NPS_PRIORITY", "Priority Mail", "priority"],
    ["MRX_INTERNATIONAL_PRIORITY", "International Priority", "priority"],
    ["BLP_WORLDWIDE_EXPEDITED", "Worldwide Expedited", "priority"],
    ["GPC_ECOM_GROUND", "eCommerce Ground", "ground"],
    ["GPC_INTL_ECONOMY", "International Economy (DDU)", "ground"],
    ["ZZ_PARCEL", "Parcel", "ground"],
  ])("GIVEN %s (%s) THEN it is %s", (serviceCode, serviceDescription, label) => {
    expect(speedClass({ serviceCode, serviceDescription }).label).toBe(label);
  });

  it("GIVEN the classes THEN each is faster than the next", () => {
    const ranks = [overnight, twoDay, threeDay, priority, ground].map((candidate) => speedClass(candidate).rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(new Set(ranks).size).toBe(5);
  });
});

describe("the rate rule", () => {
  const cheapest: RateRule = { kind: "cheapest" };
  const fastest: RateRule = { kind: "fastest" };
  const preferMrx = (maxAmount: string): RateRule => ({ kind: "preferred", carrierCode: "MRX", maxAmount });

  it.each<[string, RateCandidate[], RateRule, RateCandidate, string]>([
    ["cheapest of six", six, cheapest, ground, "Cheapest of 6 rates"],
    ["cheapest of one", [express], cheapest, express, "The only rate offered"],
    ["cheapest compares amounts, not text", [tenFlat, nineFifty], cheapest, nineFifty, "Cheapest of 2 rates"],
    ["fastest: next day beats express and 3-day", six, fastest, nextDay, "Fastest of 6 rates (overnight)"],
    ["fastest: two overnight rates, the cheaper wins", [...six, overnight], fastest, nextDay, "Fastest of 7 rates (overnight; cheapest of 2 overnight)"],
    ["fastest of one", [ground], fastest, ground, "The only rate offered"],
    ["preferred within the ceiling", six, preferMrx("30"), twoDay, "Preferred carrier MRX, within your $30.00 ceiling"],
    [
      "preferred with several of its rates",
      [...six, overnight],
      preferMrx("50"),
      twoDay,
      "Preferred carrier MRX, cheapest of its 2 rates, within your $50.00 ceiling",
    ],
    ["preferred exactly at the ceiling", six, preferMrx("27.64"), twoDay, "Preferred carrier MRX, within your $27.64 ceiling"],
    ["preferred over the ceiling", six, preferMrx("25"), ground, "Preferred carrier MRX is over your $25.00 ceiling: cheapest instead"],
    [
      "preferred carrier not offered",
      [ground, priority, threeDay],
      preferMrx("25"),
      ground,
      "Preferred carrier MRX has no rate for this shipment: cheapest instead",
    ],
  ])("GIVEN %s WHEN the rule picks THEN it picks the expected rate and says why", (_case, rates, rule, expected, reason) => {
    expect(pickRate(rates, rule)).toEqual({ quoteId: expected.quoteId, reason });
  });

  it("GIVEN rates in pounds WHEN the ceiling is reported THEN it is in the shipment's currency", () => {
    const rates = [
      rate("MRX", "MRX_INTERNATIONAL_PRIORITY", "International Priority", "64.50", "GBP"),
      rate("GPC", "GPC_INTL_ECONOMY", "International Economy (DDU)", "12.90", "GBP"),
    ];
    expect(pickRate(rates, preferMrx("40"))?.reason).toBe("Preferred carrier MRX is over your £40.00 ceiling: cheapest instead");
  });

  it("GIVEN the account's carrier names WHEN the preferred rule says why THEN it names the carrier, not its code", () => {
    const names = serviceNamesOf([{ carrierCode: "MRX", carrierLabel: "Meridian Express", serviceCode: "MRX_2DAY", serviceLabel: "2Day" }]);
    expect(pickRate(six, preferMrx("30"), { names })?.reason).toBe("Preferred carrier Meridian Express, within your $30.00 ceiling");
    expect(pickRate(six, preferMrx("25"), { names })?.reason).toBe("Preferred carrier Meridian Express is over your $25.00 ceiling: cheapest instead");
  });

  it("GIVEN equal prices WHEN cheapest picks THEN the faster one wins, and the same rates always give the same pick", () => {
    const slow = rate("GPC", "GPC_ECOM_GROUND", "eCommerce Ground", "10.00");
    const quick = rate("GPC", "GPC_ECOM_EXPEDITED", "eCommerce Expedited", "10.00");
    expect(pickRate([slow, quick], cheapest)?.quoteId).toBe(quick.quoteId);
    expect(pickRate([quick, slow], cheapest)?.quoteId).toBe(quick.quoteId);
  });

  it("GIVEN rates tied on price and speed WHEN they come in any order THEN every rule picks the same one, by carrier, service and quote", () => {
    const tied = [
      rate("NPS", "NPS_GROUND", "Ground", "10.00"),
      rate("GPC", "GPC_GROUND", "Ground", "10.00"),
      rate("GPC", "GPC_ECOM", "eCommerce Ground", "10.00"),
      rate("GPC", "GPC_ECOM", "eCommerce Ground", "10.00"),
    ];
    const orders = (items: RateCandidate[]): RateCandidate[][] =>
      items.length <= 1
        ? [items]
        : items.flatMap((item, index) => orders([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]));
    for (const rule of [cheapest, { kind: "fastest" } as const]) {
      const picks = new Set(orders(tied).map((order) => pickRate(order, rule)?.quoteId));
      expect([...picks]).toEqual([tied[2]!.quoteId]);
    }
  });

  it("GIVEN no rates THEN there is no pick", () => {
    expect(pickRate([], cheapest)).toBeNull();
  });
});

describe("keeping the same service on a re-quote", () => {
  it("GIVEN the service is still offered THEN its rate is found; GIVEN it is not THEN null", () => {
    expect(sameServiceRate(six, { carrierCode: "MRX", serviceCode: "MRX_2DAY" })?.quoteId).toBe(twoDay.quoteId);
    expect(sameServiceRate(six, { carrierCode: "MRX", serviceCode: "MRX_PRIORITY_OVERNIGHT" })).toBeNull();
    expect(sameServiceRate(six, { carrierCode: "BLP", serviceCode: "MRX_2DAY" })).toBeNull();
  });
});

describe("the rule in words", () => {
  it.each<[RateRule, string]>([
    [{ kind: "cheapest" }, "cheapest rate"],
    [{ kind: "fastest" }, "fastest service (by observed delivery times where there are enough, else judged by its name)"],
    [{ kind: "preferred", carrierCode: "MRX", maxAmount: "25.00" }, "Meridian Express while it costs at most $25.00, else the cheapest"],
    [{ kind: "preferred", carrierCode: "ZZ", maxAmount: "7.5" }, "ZZ while it costs at most $7.50, else the cheapest"],
  ])("GIVEN %j THEN it reads “%s”", (rule, words) => {
    const names = serviceNamesOf([{ carrierCode: "MRX", carrierLabel: "Meridian Express", serviceCode: "MRX_2DAY", serviceLabel: "2Day" }]);
    expect(describeRule(rule, { names, currency: "USD" })).toBe(words);
  });

  it("GIVEN a ceiling and rates quoted in euros THEN the ceiling is in euros", () => {
    expect(describeRule({ kind: "preferred", carrierCode: "MRX", maxAmount: "25.00" }, { currency: "EUR" })).toBe(
      "MRX while it costs at most €25.00, else the cheapest",
    );
  });
});

describe("fastest with observed transit times", () => {
  const stats = (carrierCode: string, serviceCode: string, medianDays: number, lowDays: number, highDays: number, sampleSize: number) => ({
    carrierCode,
    serviceCode,
    zone: "5",
    medianDays,
    lowDays,
    highDays,
    sampleSize,
  });
  const observedOf =
    (...known: ReturnType<typeof stats>[]) =>
    (candidate: Pick<RateCandidate, "carrierCode" | "serviceCode">) =>
      known.find((entry) => entry.carrierCode === candidate.carrierCode && entry.serviceCode === candidate.serviceCode) ?? null;

  it("GIVEN the shop's deliveries show 3 Day Select arriving in 1 day and Next Day Air in 2 THEN the observed times win over the names", () => {
    const observed = observedOf(stats("BLP", "BLP_3_DAY_SELECT", 1, 1, 2, 41), stats("BLP", "BLP_NEXT_DAY_AIR", 2, 2, 2, 12));
    expect(pickRate(six, { kind: "fastest" }, { observed })).toEqual({
      quoteId: threeDay.quoteId,
      reason: "Fastest of 6 rates: usually 1–2 days (41 deliveries)",
    });
  });

  it("GIVEN observed ground at 4 days and an unobserved overnight service THEN the overnight service still wins by its name", () => {
    const observed = observedOf(stats("NPS", "NPS_GROUND_ADVANTAGE", 4, 3, 5, 30));
    expect(pickRate(six, { kind: "fastest" }, { observed })).toEqual({
      quoteId: nextDay.quoteId,
      reason: "Fastest of 6 rates (overnight, judged by its name)",
    });
  });

  it("GIVEN no observations THEN the name heuristic as before", () => {
    expect(pickRate(six, { kind: "fastest" }, { observed: () => null })).toEqual({ quoteId: nextDay.quoteId, reason: "Fastest of 6 rates (overnight)" });
  });
});

describe("match the customer's choice, with a ceiling", () => {
  const match = (maxAmount: string): RateRule => ({ kind: "match", maxAmount });
  const paid = (title: string, amount = "10.00") => ({ title, amount, currency: "USD" });

  it.each([
    [
      "UPS 2nd Day Air (express)",
      "100",
      twoDay,
      "Matches the customer's UPS 2nd Day Air (express): express, cheapest of 2 express rates, within your $100.00 ceiling",
    ],
    ["USPS Priority Mail (priority)", "100", priority, "Matches the customer's USPS Priority Mail (priority): priority, within your $100.00 ceiling"],
    ["Standard Shipping (ground)", "100", ground, "Matches the customer's Standard Shipping (ground): ground, within your $100.00 ceiling"],
    ["Next Day Delivery (overnight)", "100", nextDay, "Matches the customer's Next Day Delivery (overnight): overnight, within your $100.00 ceiling"],
    [
      "UPS 2nd Day Air with express over the ceiling",
      "25",
      threeDay,
      "Nothing as fast as the customer's UPS 2nd Day Air (express) within your $25.00 ceiling: fastest within it (3-day)",
    ],
    ["Next Day Delivery with everything over the ceiling", "5", ground, "Every rate is over your $5.00 ceiling: cheapest instead"],
  ])("GIVEN the customer paid for %s and a $%s ceiling THEN the nearest service is picked", (title, ceiling, expected, reason) => {
    const line = paid(title.replace(/ \(.*\)$| with .*$/, ""));
    expect(pickRate(six, match(ceiling), { paid: line })).toEqual({ quoteId: expected.quoteId, reason });
  });

  it("GIVEN a priority line and both Priority Mail and a dearer priority service THEN the cheaper priority one", () => {
    const otherPriority = rate("MRX", "MRX_INTERNATIONAL_PRIORITY", "International Priority", "14.00");
    expect(pickRate([...six, otherPriority], match("100"), { paid: paid("USPS Priority Mail") })?.quoteId).toBe(priority.quoteId);
  });

  it("GIVEN an order without a shipping line THEN the cheapest, saying why", () => {
    expect(pickRate(six, match("100"), { paid: null })).toEqual({
      quoteId: ground.quoteId,
      reason: "The order has no shipping line to match: cheapest instead",
    });
  });

  it("GIVEN the rule THEN it reads with its ceiling in the rates' currency", () => {
    expect(describeRule(match("40"), { currency: "USD" })).toBe("the service nearest the customer's choice at checkout, up to $40.00, else the cheapest");
  });
});
