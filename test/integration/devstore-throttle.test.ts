import { afterEach, describe, expect, it } from "vitest";
import { manualClock, readDoc, startHarness, type Harness } from "../support/devstore-harness.js";

/**
 * Cost figures are computed by hand from Shopify's published rules: scalars/enums 0, objects 1,
 * connections 2 + first × node cost, sized lists × first, nodes(ids) × ids, mutations 10.
 */
describe("local admin throttling", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const ids = (type: string, n: number, from = 1) => Array.from({ length: n }, (_, i) => `gid://shopify/${type}/${from + i}`);

  it("GIVEN the shared documents WHEN sent THEN requestedQueryCost matches the hand-computed figures", async () => {
    const clock = manualClock();
    h = await startHarness({ clock, throttle: { bucketSize: 100_000, restoreRate: 100_000 } });
    const cost = async (query: string, variables?: Record<string, unknown>) => {
      clock.advance(1000);
      const res = await h!.gql(query, variables);
      return res.body.extensions?.cost?.requestedQueryCost;
    };
    // shop 1 + shopAddress 1; locations(first: 20): 2 + 20 × (Location 1 + address 1)
    expect(await cost(readDoc("03"))).toBe(2 + 2 + 20 * 2);
    // per order: Order 1, shippingLine 1, shippingAddress 1, fulfillmentOrders(first: 3) 2 + 3 × (FO 1 + assignedLocation 1),
    // fulfillments(first: 3) 3 × (Fulfillment 1 + trackingInfo(first: 1) 1 × 1) = 17
    expect(await cost(readDoc("01a"), { ids: ids("Order", 50, 1001) })).toBe(50 * 17);
    // per FO: FO 1, supportedActions 1, fulfillmentHolds 1, deliveryMethod 1, assignedLocation 1 + location 1,
    // lineItems(first: 20) 2 + 20 × (line 1 + weight 1 + lineItem 1 + originalUnitPriceSet 1 + shopMoney 1) = 108
    expect(await cost(readDoc("01b"), { foIds: ids("FulfillmentOrder", 9) })).toBe(9 * 108);
    // per item: InventoryItem 1 + measurement 1 + weight 1 + countryHarmonizedSystemCodes(first: 3) 2 + 3 × 1 = 8
    expect(await cost(readDoc("02"), { ids: ids("InventoryItem", 100) })).toBe(800);
    // mutation 10; fulfillment 1 + trackingInfo(first: 10) 10 + fulfillmentLineItems(first: 50) 2 + 50 × 2; userErrors 1
    expect(await cost(readDoc("04"), { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: "gid://shopify/FulfillmentOrder/999999" }] } })).toBe(
      10 + 1 + 10 + 2 + 50 * 2 + 1,
    );
    // mutation 10; fulfillment 1 + trackingInfo(first: 10) 10; userErrors 1
    expect(await cost(readDoc("06"), { fulfillmentId: "gid://shopify/Fulfillment/999999", trackingInfoInput: { number: "1" } })).toBe(22);
    // order 1 + fulfillments(first: 20) 20 × (1 + trackingInfo(first: 10) 10) = 221 (the domain notes' figure)
    expect(await cost(readDoc("09"), { orderId: "gid://shopify/Order/1001" })).toBe(221);
    // fulfillment 1 + events(first: 50) 2 + 50 × 1
    expect(await cost(readDoc("09b"), { fulfillmentId: "gid://shopify/Fulfillment/1" })).toBe(53);
    expect(await cost(readDoc("12"), { id: "gid://shopify/BulkOperation/1" })).toBe(1);
    // an interface field costs the most expensive possibility: Order here (1 + shippingAddress 1), not Location (1)
    expect(await cost(`{ node(id: "gid://shopify/Order/1001") { ... on Order { shippingAddress { zip } } ... on Location { name } } }`)).toBe(2);
  });

  it("GIVEN a small bucket WHEN queries drain it THEN THROTTLED comes inside an HTTP 200 and points restore on the injected clock", async () => {
    const clock = manualClock();
    h = await startHarness({ clock, throttle: { bucketSize: 100, restoreRate: 10 } });
    const doc = readDoc("03");
    // requested 44; actual 10 = shop 1 + shopAddress 1 + locations 2 + 3 seeded locations × (1 + address 1)
    const expected = [90, 80, 70, 60, 50];
    for (const available of expected) {
      const res = await h.gql(doc);
      expect(res.status).toBe(200);
      expect(res.body.extensions?.cost).toEqual({
        requestedQueryCost: 44,
        actualQueryCost: 10,
        throttleStatus: { maximumAvailable: 100, currentlyAvailable: available, restoreRate: 10 },
      });
    }
    await h.gql(doc); // 50 → 40
    const throttled = await h.gql(doc);
    expect(throttled.status).toBe(200);
    expect(throttled.body.data).toBeUndefined();
    expect(throttled.body.errors).toEqual([
      { message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } },
    ]);
    expect(throttled.body.extensions?.cost).toEqual({
      requestedQueryCost: 44,
      actualQueryCost: null,
      throttleStatus: { maximumAvailable: 100, currentlyAvailable: 40, restoreRate: 10 },
    });
    clock.advance(400); // + 0.4 s × 10 = 4 points → 44 available
    const after = await h.gql(doc);
    expect(after.body.errors).toBeUndefined();
    expect(after.body.extensions?.cost?.throttleStatus.currentlyAvailable).toBe(34);
    clock.advance(3_600_000);
    const full = await h.gql(`{ shop { name } }`);
    expect(full.body.extensions?.cost?.throttleStatus.currentlyAvailable).toBe(99);
  });

  it("GIVEN a query whose requested cost exceeds 1,000 WHEN sent THEN MAX_COST_EXCEEDED and nothing is charged", async () => {
    const clock = manualClock();
    h = await startHarness({ clock });
    const res = await h.gql(readDoc("01a"), { ids: ids("Order", 59, 1001) });
    expect(res.status).toBe(200);
    const errors = res.body.errors as { message: string; extensions: Record<string, unknown> }[];
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/^Query cost is 1003, which exceeds the single query max cost limit \(1000\)\./);
    expect(errors[0]?.extensions.code).toBe("MAX_COST_EXCEEDED");
    expect(res.body.extensions?.cost).toMatchObject({ requestedQueryCost: 1003, actualQueryCost: null, throttleStatus: { currentlyAvailable: 1000 } });
  });

  it("GIVEN a mutation that only returns userErrors WHEN executed THEN it is refunded to its actual cost", async () => {
    const clock = manualClock();
    h = await startHarness({ clock });
    const res = await h.gql(readDoc("04"), { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: "gid://shopify/FulfillmentOrder/999999" }] } });
    // 10 for the mutation + one UserError object
    expect(res.body.extensions?.cost).toMatchObject({ requestedQueryCost: 124, actualQueryCost: 11, throttleStatus: { currentlyAvailable: 989 } });
  });
});
