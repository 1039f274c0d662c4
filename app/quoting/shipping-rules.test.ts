import { describe, expect, it } from "vitest";
import { buildAddress, buildFulfillmentOrder, buildLine, buildOrder } from "../../test/factories/orders";
import { serviceNamesOf } from "../shipping/service-names";
import type { RateCandidate } from "./rate-rule";
import {
  checkConditions,
  conditionsHold,
  describeQuoteChanges,
  orderFacts,
  pickRateByRules,
  quoteChanges,
  RuleConditions,
  ShippingRuleSchema,
  type OrderFacts,
  type ShippingRule,
} from "./shipping-rules";

const US = { senderCountry: "US", packagingWeight: { value: 4, unit: "oz" as const } };

function facts(overrides: Partial<OrderFacts> = {}): OrderFacts {
  return {
    country: "US",
    state: "US-NY",
    domestic: true,
    weight: 453_592_370_000n * 2n, // 2 lb
    value: "40.00",
    currency: "USD",
    items: 2,
    tags: ["vip"],
    products: ["mug-01", "ceramic mug"],
    shippingLine: { title: "Standard Shipping" },
    ...overrides,
  };
}

function rule(name: string, data: { conditions?: Record<string, unknown>; actions: Record<string, unknown> }): ShippingRule {
  return { id: name.toLowerCase().replace(/\W+/g, "-"), ...ShippingRuleSchema.parse({ name, ...data }) };
}

let nextQuoteId = 500;
function rate(carrierCode: string, serviceCode: string, serviceDescription: string, totalAmount: string): RateCandidate {
  return { quoteId: ++nextQuoteId, carrierCode, serviceCode, serviceDescription, totalAmount, currency: "USD" };
}
const ground = rate("NPS", "NPS_GROUND_ADVANTAGE", "Ground Advantage", "9.40");
const priority = rate("NPS", "NPS_PRIORITY", "Priority Mail", "12.85");
const mrxExpress = rate("MRX", "MRX_EXPRESS", "Express", "28.00");
const mrxEconomy = rate("MRX", "MRX_ECONOMY", "Economy", "19.00");
const rates = [ground, priority, mrxExpress, mrxEconomy];
const names = serviceNamesOf([
  { carrierCode: "MRX", carrierLabel: "MRX", serviceCode: "MRX_EXPRESS", serviceLabel: "Express" },
  { carrierCode: "NPS", carrierLabel: "National Postal Service", serviceCode: "NPS_PRIORITY", serviceLabel: "Priority Mail" },
]);

describe("a rule's conditions: all of them must hold", () => {
  const conditions = (input: Record<string, unknown>) => RuleConditions.parse(input);
  it.each<[string, Record<string, unknown>, Partial<OrderFacts>, boolean]>([
    ["no conditions: every order", {}, {}, true],
    ["domestic, shipped within the US", { destination: "domestic" }, {}, true],
    ["international, shipped within the US", { destination: "international" }, {}, false],
    ["international, to Germany", { destination: "international" }, { country: "DE", domestic: false, state: "" }, true],
    ["to Germany or France, going to France", { countries: ["de", "FR"] }, { country: "FR", domestic: false }, true],
    ["to Germany or France, going to the US", { countries: ["DE", "FR"] }, {}, false],
    ["to New York, going to New York", { states: ["us-ny"] }, {}, true],
    ["to Ontario, going to New York", { states: ["CA-ON"] }, {}, false],
    ["over 1 lb, 2 lb", { weight: { min: "1", unit: "lb" } }, {}, true],
    ["from 5 lb, 2 lb", { weight: { min: "5", unit: "lb" } }, {}, false],
    ["up to 2 lb, exactly 2 lb (both ends included)", { weight: { max: "2", unit: "lb" } }, {}, true],
    ["up to 900 g, 2 lb", { weight: { max: "900", unit: "g" } }, {}, false],
    ["worth from $100, $40", { value: { min: "100" } }, {}, false],
    ["worth from $100, $100.00", { value: { min: "100" } }, { value: "100.00" }, true],
    ["worth $10–$50, $40", { value: { min: "10", max: "50" } }, {}, true],
    ["1–1 items, 2 items", { items: { min: "1", max: "1" } }, {}, false],
    ["from 2 items, 2 items", { items: { min: 2 } }, {}, true],
    ["tagged VIP or wholesale (any case), tagged vip", { tags: ["VIP", "wholesale"] }, {}, true],
    ["tagged wholesale, tagged vip", { tags: ["wholesale"] }, {}, false],
    ["with SKU MUG-01", { products: ["MUG-01"] }, {}, true],
    ["with product Ceramic mug", { products: ["Ceramic Mug"] }, {}, true],
    ["with product Lamp", { products: ["Lamp"] }, {}, false],
    ["customer chose a title with 'express', chose Standard", { shippingTitle: "express" }, {}, false],
    ["customer chose a title with 'standard'", { shippingTitle: "standard" }, {}, true],
    ["customer chose express speed, chose Express Shipping", { shippingSpeed: "express" }, { shippingLine: { title: "Express Shipping" } }, true],
    ["customer chose express speed, no shipping line", { shippingSpeed: "express" }, { shippingLine: null }, false],
    ["domestic AND over 5 lb: only one holds", { destination: "domestic", weight: { min: "5", unit: "lb" } }, {}, false],
  ])("%s → %s", (_, input, overrides, holds) => {
    expect(conditionsHold(conditions(input), facts(overrides))).toBe(holds);
  });

  it("says why each condition holds or not, for Test on an order", () => {
    const checks = checkConditions(conditions({ countries: ["DE"], weight: { min: "5", unit: "lb" }, tags: ["vip"] }), facts());
    expect(checks).toEqual([
      { holds: false, why: "goes to United States" },
      { holds: false, why: "weighs 2.000 lb" },
      { holds: true, why: "is tagged vip" },
    ]);
  });
});

describe("a rule refused on its field", () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ["no name", { name: " ", actions: { rate: { kind: "cheapest" } } }, "name", "is required"],
    ["nothing to do", { name: "Idle", actions: {} }, "actions.rate", "choose what the rule does"],
    [
      "a weight range upside down",
      { name: "W", conditions: { weight: { min: "5", max: "1" } }, actions: { insure: true } },
      "conditions.weight.max",
      "must not be less than the minimum",
    ],
    [
      "a country that is not a code",
      { name: "C", conditions: { countries: ["Germany"] }, actions: { insure: true } },
      "conditions.countries.0",
      "two-letter country codes",
    ],
    [
      "a state that is not US or Canadian",
      { name: "S", conditions: { states: ["DE-BY"] }, actions: { insure: true } },
      "conditions.states.0",
      "US or Canadian states",
    ],
    ["a negative ceiling", { name: "P", actions: { rate: { kind: "match", maxAmount: "-3" } } }, "actions.rate.maxAmount", "must be more than 0"],
  ])("%s", (_, input, path, message) => {
    const parsed = ShippingRuleSchema.safeParse(input);
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues.find((entry) => entry.path.join(".") === path);
    expect(issue?.message).toContain(message);
  });
});

describe("the rules in order: the first rule whose conditions hold and whose action can be met picks, the shop-wide rule last", () => {
  const heavyEu = rule("Heavy to EU", {
    conditions: { countries: ["DE", "FR"], weight: { min: "5", unit: "lb" } },
    actions: { rate: { kind: "cheapest", carriers: ["MRX"] } },
  });
  const vipFast = rule("VIP fast", { conditions: { tags: ["vip"] }, actions: { rate: { kind: "fastest" } } });
  const capped = rule("Capped express", {
    conditions: {},
    actions: { rate: { kind: "service", service: { carrierCode: "MRX", serviceCode: "MRX_EXPRESS" }, maxAmount: "20" } },
  });
  const notQuoted = rule("Blue Line", { conditions: {}, actions: { rate: { kind: "service", service: { carrierCode: "BLP", serviceCode: "BLP_GROUND" } } } });
  const insureOnly = rule("Insure", { conditions: {}, actions: { insure: true } });
  const heavyGermany = facts({ country: "DE", state: "", domestic: false, weight: 453_592_370_000n * 6n, tags: [] });

  it.each<[string, ShippingRule[], OrderFacts, RateCandidate, string]>([
    [
      "the first matching rule picks",
      [heavyEu, vipFast],
      heavyGermany,
      mrxEconomy,
      "Rule 'Heavy to EU' (to Germany or France, from 5 lb): MRX Economy, cheapest of 2 rates",
    ],
    [
      "a rule whose conditions do not hold is passed over",
      [heavyEu, vipFast],
      facts(),
      mrxExpress,
      "Rule 'VIP fast' (tagged vip): MRX Express, fastest of 4 rates (express)",
    ],
    [
      "order matters: the earlier of two matching rules",
      [vipFast, heavyEu],
      facts({ ...heavyGermany, tags: ["vip"] }),
      mrxExpress,
      "Rule 'VIP fast' (tagged vip)",
    ],
    [
      "all over the ceiling: falls through to the next",
      [capped, vipFast],
      facts(),
      mrxExpress,
      "Rule 'VIP fast' (tagged vip): MRX Express, fastest of 4 rates (express) (rule 'Capped express' skipped: every rate is over its $20.00 ceiling)",
    ],
    ["no such service quoted: falls through", [notQuoted, vipFast], facts(), mrxExpress, "rule 'Blue Line' skipped: its service was not quoted"],
    ["a rule that picks no rate does not decide", [insureOnly], facts(), ground, "No rule matched; shop-wide rule: cheapest of 4 rates"],
    ["nothing matches: the shop-wide rule, last", [heavyEu], facts(), ground, "No rule matched; shop-wide rule: cheapest of 4 rates"],
    [
      "no rule can pick: the shop-wide rule says why",
      [notQuoted],
      facts(),
      ground,
      "No rule could pick (rule 'Blue Line' skipped: its service was not quoted); shop-wide rule: cheapest of 4 rates",
    ],
  ])("%s", (_, rules, orderFacts, picked, reason) => {
    const pick = pickRateByRules(rates, rules, orderFacts, { kind: "cheapest" }, { names });
    expect(pick?.quoteId).toBe(picked.quoteId);
    expect(pick?.reason).toContain(reason);
  });

  it("without rules the shop-wide rule's own reason stands, and no rate is no pick", () => {
    expect(pickRateByRules(rates, [], facts(), { kind: "cheapest" })).toEqual({ quoteId: ground.quoteId, reason: "Cheapest of 4 rates", ruleId: null });
    expect(pickRateByRules([], [vipFast], facts(), { kind: "cheapest" })).toBeNull();
  });

  it("an order not in the mirror (no facts) gets the shop-wide rule", () => {
    expect(pickRateByRules(rates, [vipFast], null, { kind: "cheapest" })?.quoteId).toBe(ground.quoteId);
  });

  it("match the customer's choice falls through without a shipping line, and follows it with one", () => {
    const match = rule("Match", { actions: { rate: { kind: "match" } } });
    expect(pickRateByRules(rates, [match], facts(), { kind: "cheapest" }, { names, paid: null })?.reason).toContain(
      "rule 'Match' skipped: the order has no shipping line to match",
    );
    const paid = { title: "Priority", amount: "12.00", currency: "USD" };
    const pick = pickRateByRules(rates, [match], facts(), { kind: "cheapest" }, { names, paid });
    expect(pick?.quoteId).toBe(priority.quoteId);
    expect(pick?.ruleId).toBe("match");
  });
});

describe("what the rules change before quoting: each setting from the first matching rule that sets it", () => {
  it("box, signature, insurance and residential, each from its own first rule", () => {
    const rules = [
      rule("Fragile", { conditions: { products: ["ceramic mug"] }, actions: { box: "Padded box", signatureOptionCode: "ADULT" } }),
      rule("Worth it", { conditions: { value: { min: "30" } }, actions: { insure: true, box: "Other box" } }),
      rule("Heavy", { conditions: { weight: { min: "50", unit: "lb" } }, actions: { residential: "commercial" } }),
    ];
    const changes = quoteChanges(rules, facts());
    expect(changes).toEqual({
      box: { name: "Padded box", rule: "Fragile" },
      signatureOptionCode: { code: "ADULT", rule: "Fragile" },
      insure: { insure: true, rule: "Worth it" },
    });
    expect(describeQuoteChanges(changes)).toBe("Rule 'Fragile': box Padded box, signature required; rule 'Worth it': insured");
    expect(describeQuoteChanges({})).toBeNull();
  });
});

describe("an order's facts", () => {
  it("come from its shippable lines, with packaging once, its tags and shipping line", () => {
    const order = {
      ...buildOrder({
        currencyCode: "USD",
        shippingAddress: buildAddress({ countryCode: "US", provinceCode: "NY" }),
        fulfillmentOrders: [
          buildFulfillmentOrder({
            lines: [
              buildLine({ sku: "MUG-01", productTitle: "Mug", remainingQuantity: 2, unitPrice: "18.00", weight: { unit: "POUNDS", value: 1 } }),
              buildLine({ sku: "CARD", productTitle: "Gift card", remainingQuantity: 1, unitPrice: "25.00", requiresShipping: false }),
            ],
          }),
          buildFulfillmentOrder({ status: "CLOSED", supportedActions: [], lines: [buildLine({ sku: "GONE", remainingQuantity: 3 })] }),
        ],
      }),
      tags: ["vip"],
      shippingLine: { title: "Express", amount: "9.00", currency: "USD" },
    };
    const result = orderFacts(order, US);
    expect(result).toMatchObject({
      country: "US",
      state: "US-NY",
      domestic: true,
      value: "36.00",
      items: 2,
      tags: ["vip"],
      shippingLine: { title: "Express" },
    });
    expect(result.products).toEqual(["mug-01", "mug"]);
    expect(result.weight).toBe(453_592_370_000n * 2n + 4n * 28_349_523_125n);
  });
});
