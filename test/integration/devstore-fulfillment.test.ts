import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock, readDoc, startHarness, type Harness } from "../support/devstore-harness.js";

interface FoLine {
  id: string;
  sku: string;
  remainingQuantity: number;
  totalQuantity: number;
}
interface Fo {
  id: string;
  status: string;
  supportedActions: { action: string }[];
  assignedLocation: { name: string };
  lineItems: { nodes: FoLine[] };
}
interface OrderState {
  displayFulfillmentStatus: string;
  fulfillmentOrders: { nodes: Fo[] };
  fulfillments: { id: string; name: string; status: string; displayStatus: string }[];
}
interface UserErrors {
  userErrors: { field: string[] | null; message: string }[];
}

const ORDER_STATE = `query($id: ID!) { order(id: $id) {
  displayFulfillmentStatus
  fulfillmentOrders(first: 10) { nodes { id status supportedActions { action } assignedLocation { name } lineItems(first: 20) { nodes { id sku remainingQuantity totalQuantity } } } }
  fulfillments(first: 10) { id name status displayStatus }
} }`;

describe("local admin fulfillment semantics", () => {
  let h: Harness;
  const clock = manualClock();
  beforeAll(async () => {
    h = await startHarness({ clock, orders: 30 });
  });
  afterAll(async () => {
    await h.close();
  });

  async function order(n: number): Promise<OrderState> {
    clock.advance(5000);
    const res = await h.gql<{ order: OrderState }>(ORDER_STATE, { id: `gid://shopify/Order/${n}` });
    expect(res.body.errors).toBeUndefined();
    if (!res.body.data) throw new Error("no data");
    return res.body.data.order;
  }

  async function fulfill(
    groups: { fulfillmentOrderId: string; fulfillmentOrderLineItems?: { id: string; quantity: number }[] }[],
    tracking?: Record<string, unknown>,
  ) {
    clock.advance(5000);
    const res = await h.gql<{
      fulfillmentCreate: UserErrors & {
        fulfillment: { id: string; name: string; status: string; trackingInfo: { company: string; number: string; url: string }[] } | null;
      };
    }>(readDoc("04"), { fulfillment: { notifyCustomer: false, lineItemsByFulfillmentOrder: groups, ...(tracking ? { trackingInfo: tracking } : {}) } });
    expect(res.body.errors).toBeUndefined();
    if (!res.body.data) throw new Error("no data");
    return res.body.data.fulfillmentCreate;
  }

  it("GIVEN a multi-line order WHEN part of one line ships THEN the FO is IN_PROGRESS, remaining drops and the order is PARTIALLY_FULFILLED", async () => {
    const before = await order(1002);
    expect(before.displayFulfillmentStatus).toBe("UNFULFILLED");
    const fo = before.fulfillmentOrders.nodes[0] as Fo;
    const mugs = fo.lineItems.nodes.find((l) => l.sku === "MUG-SPK") as FoLine;
    expect(mugs.remainingQuantity).toBe(6);
    const result = await fulfill([{ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: [{ id: mugs.id, quantity: 2 }] }], {
      company: "UPS",
      number: "1Z999AA10123456784",
    });
    expect(result.userErrors).toEqual([]);
    expect(result.fulfillment).toMatchObject({
      name: "#1002.1",
      status: "SUCCESS",
      trackingInfo: [{ company: "UPS", number: "1Z999AA10123456784", url: "https://www.ups.com/track?tracknum=1Z999AA10123456784" }],
    });
    const after = await order(1002);
    expect(after.displayFulfillmentStatus).toBe("PARTIALLY_FULFILLED");
    const foAfter = after.fulfillmentOrders.nodes[0] as Fo;
    expect(foAfter.status).toBe("IN_PROGRESS");
    expect(foAfter.lineItems.nodes.find((l) => l.sku === "MUG-SPK")).toMatchObject({ remainingQuantity: 4, totalQuantity: 6 });
    expect(foAfter.supportedActions.map((a) => a.action)).toContain("CREATE_FULFILLMENT");
  });

  it("GIVEN 4 units remaining WHEN 5 are requested THEN Shopify's userError and nothing changes", async () => {
    const fo = (await order(1002)).fulfillmentOrders.nodes[0] as Fo;
    const mugs = fo.lineItems.nodes.find((l) => l.sku === "MUG-SPK") as FoLine;
    const result = await fulfill([{ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: [{ id: mugs.id, quantity: 5 }] }]);
    expect(result).toEqual({
      fulfillment: null,
      userErrors: [{ field: ["fulfillment", "lineItemsByFulfillmentOrder", "0"], message: "Invalid fulfillment order line item quantity requested." }],
    });
    const again = (await order(1002)).fulfillmentOrders.nodes[0] as Fo;
    expect(again.lineItems.nodes.find((l) => l.sku === "MUG-SPK")?.remainingQuantity).toBe(4);
  });

  it("GIVEN an omitted line-item list WHEN fulfilling THEN every remaining unit ships, the FO closes and the order is FULFILLED", async () => {
    const fo = (await order(1002)).fulfillmentOrders.nodes[0] as Fo;
    const result = await fulfill([{ fulfillmentOrderId: fo.id }], { company: "FedEx", numbers: ["794600000001", "794600000002"] });
    expect(result.userErrors).toEqual([]);
    expect(result.fulfillment?.name).toBe("#1002.2");
    expect(result.fulfillment?.trackingInfo.map((t) => t.number)).toEqual(["794600000001", "794600000002"]);
    const after = await order(1002);
    expect(after.displayFulfillmentStatus).toBe("FULFILLED");
    const closed = after.fulfillmentOrders.nodes[0] as Fo;
    expect(closed.status).toBe("CLOSED");
    expect(closed.supportedActions).toEqual([]);
    expect(closed.lineItems.nodes.every((l) => l.remainingQuantity === 0)).toBe(true);
    // a retry of the same request now hits the closed FO
    const retry = await fulfill([{ fulfillmentOrderId: fo.id }]);
    expect(retry.userErrors[0]?.message).toBe(`Fulfillment order ${fo.id} has an unfulfillable status= closed.`);
  });

  it("GIVEN a fulfillment WHEN it is cancelled THEN its units return to an open FO and the order is partially fulfilled again", async () => {
    const state = await order(1002);
    const second = state.fulfillments.find((f) => f.name === "#1002.2");
    clock.advance(5000);
    const res = await h.gql<{ fulfillmentCancel: UserErrors & { fulfillment: { id: string; status: string } } }>(readDoc("08"), { id: second?.id });
    expect(res.body.data?.fulfillmentCancel).toEqual({ fulfillment: { id: second?.id, status: "CANCELLED" }, userErrors: [] });
    const after = await order(1002);
    expect(after.displayFulfillmentStatus).toBe("PARTIALLY_FULFILLED");
    expect(after.fulfillments.find((f) => f.name === "#1002.2")).toMatchObject({ status: "CANCELLED", displayStatus: "CANCELED" });
    const reopened = after.fulfillmentOrders.nodes.find((fo) => fo.status === "OPEN") as Fo;
    expect(reopened).toBeDefined();
    expect(Object.fromEntries(reopened.lineItems.nodes.map((l) => [l.sku, l.remainingQuantity]))).toEqual({ "MUG-SPK": 4, "POUR-SET": 2, "COFFEE-WB": 4 });
    const twice = await h.gql<{ fulfillmentCancel: UserErrors }>(readDoc("08"), { id: second?.id });
    expect(twice.body.data?.fulfillmentCancel.userErrors[0]?.message).toBe("Fulfillment has already been cancelled.");
  });

  it("GIVEN an FO on hold WHEN fulfilling it THEN it is refused", async () => {
    const held = (await order(1014)).fulfillmentOrders.nodes[0] as Fo;
    expect(held.status).toBe("ON_HOLD");
    expect(held.supportedActions.map((a) => a.action)).toContain("RELEASE_HOLD");
    const result = await fulfill([{ fulfillmentOrderId: held.id }]);
    expect(result.fulfillment).toBeNull();
    expect(result.userErrors[0]?.message).toBe(`Fulfillment order ${held.id} has an unfulfillable status= on_hold.`);
  });

  it("GIVEN FOs of two different orders WHEN fulfilled together THEN they are refused", async () => {
    const a = (await order(1001)).fulfillmentOrders.nodes[0] as Fo;
    const b = (await order(1003)).fulfillmentOrders.nodes[0] as Fo;
    const result = await fulfill([{ fulfillmentOrderId: a.id }, { fulfillmentOrderId: b.id }]);
    expect(result.userErrors).toEqual([
      { field: ["fulfillment", "lineItemsByFulfillmentOrder", "1", "fulfillmentOrderId"], message: "All fulfillment orders must belong to the same order." },
    ]);
    expect((await order(1001)).displayFulfillmentStatus).toBe("UNFULFILLED");
  });

  it("GIVEN an FO assigned to a fulfillment service WHEN the merchant app fulfils it THEN it is refused (the service ships it)", async () => {
    const state = await order(1015);
    const fo = state.fulfillmentOrders.nodes[0] as Fo;
    expect(fo.assignedLocation.name).toBe("ParcelPro Fulfillment");
    expect(state.displayFulfillmentStatus).toBe("IN_PROGRESS");
    const result = await fulfill([{ fulfillmentOrderId: fo.id }]);
    expect(result.userErrors[0]?.message).toMatch(/fulfillment service/);
  });

  it("GIVEN carrier events WHEN recorded out of order THEN displayStatus follows the latest one and inTransitAt/deliveredAt are set", async () => {
    const fo = (await order(1001)).fulfillmentOrders.nodes[0] as Fo;
    const created = await fulfill([{ fulfillmentOrderId: fo.id }], { company: "USPS", number: "9400111899223197428490" });
    const fulfillmentId = created.fulfillment?.id;
    const event = async (status: string, happenedAt: string) => {
      const res = await h.gql<{ fulfillmentEventCreate: UserErrors & { fulfillmentEvent: { status: string } } }>(readDoc("07"), {
        fulfillmentEvent: { fulfillmentId, status, happenedAt },
      });
      expect(res.body.data?.fulfillmentEventCreate.userErrors).toEqual([]);
    };
    await event("CONFIRMED", "2026-11-17T12:00:00Z");
    await event("OUT_FOR_DELIVERY", "2026-11-20T08:00:00Z");
    const beforePickupScan = await h.gql<{ fulfillment: { displayStatus: string; inTransitAt: string | null } }>(readDoc("09b"), { fulfillmentId });
    // Shopify's inTransitAt is the first event in transit or later, whichever status it has.
    expect(beforePickupScan.body.data?.fulfillment).toMatchObject({ displayStatus: "OUT_FOR_DELIVERY", inTransitAt: "2026-11-20T08:00:00Z" });
    await event("IN_TRANSIT", "2026-11-18T09:00:00Z");
    await event("DELIVERED", "2026-11-20T15:30:00Z");
    const res = await h.gql<{ fulfillment: { displayStatus: string; inTransitAt: string; deliveredAt: string; events: { nodes: { status: string }[] } } }>(
      readDoc("09b"),
      { fulfillmentId },
    );
    expect(res.body.data?.fulfillment).toMatchObject({ displayStatus: "DELIVERED", inTransitAt: "2026-11-18T09:00:00Z", deliveredAt: "2026-11-20T15:30:00Z" });
    expect(res.body.data?.fulfillment.events.nodes.map((e) => e.status)).toEqual(["DELIVERED", "OUT_FOR_DELIVERY", "IN_TRANSIT", "CONFIRMED"]);
    const bad = await h.gql(readDoc("07"), { fulfillmentEvent: { fulfillmentId, status: "PICKED_UP" } });
    expect((bad.body.errors as { extensions?: Record<string, unknown> }[])[0]?.extensions?.code).toBe("INVALID_VARIABLE");
  });

  it("GIVEN an open FO WHEN held, released by hold id and moved THEN status, holds and location follow", async () => {
    const fo = (await order(1004)).fulfillmentOrders.nodes[0] as Fo;
    const hold = await h.gql<{
      fulfillmentOrderHold: UserErrors & {
        fulfillmentHold: { id: string; reason: string; heldByRequestingApp: boolean };
        fulfillmentOrder: { status: string };
      };
    }>(
      `mutation($id: ID!, $h: FulfillmentOrderHoldInput!) { fulfillmentOrderHold(id: $id, fulfillmentHold: $h) { fulfillmentHold { id reason heldByRequestingApp } fulfillmentOrder { status } userErrors { field message } } }`,
      { id: fo.id, h: { reason: "INCORRECT_ADDRESS", reasonNotes: "Check the unit number", handle: "consign-address" } },
    );
    const held = hold.body.data?.fulfillmentOrderHold;
    expect(held).toMatchObject({
      fulfillmentHold: { reason: "INCORRECT_ADDRESS", heldByRequestingApp: true },
      fulfillmentOrder: { status: "ON_HOLD" },
      userErrors: [],
    });
    expect((await order(1004)).displayFulfillmentStatus).toBe("ON_HOLD");
    const release = await h.gql<{ fulfillmentOrderReleaseHold: UserErrors & { fulfillmentOrder: { status: string } } }>(
      `mutation($id: ID!, $holdIds: [ID!]) { fulfillmentOrderReleaseHold(id: $id, holdIds: $holdIds) { fulfillmentOrder { status } userErrors { field message } } }`,
      { id: fo.id, holdIds: [held?.fulfillmentHold.id] },
    );
    expect(release.body.data?.fulfillmentOrderReleaseHold).toEqual({ fulfillmentOrder: { status: "OPEN" }, userErrors: [] });
    const move = await h.gql<{ fulfillmentOrderMove: UserErrors & { movedFulfillmentOrder: { id: string; assignedLocation: { name: string } } } }>(
      `mutation($id: ID!, $loc: ID!) { fulfillmentOrderMove(id: $id, newLocationId: $loc) { movedFulfillmentOrder { id assignedLocation { name } } userErrors { field message } } }`,
      { id: fo.id, loc: "gid://shopify/Location/2" },
    );
    expect(move.body.data?.fulfillmentOrderMove).toEqual({
      movedFulfillmentOrder: { id: fo.id, assignedLocation: { name: "Oakland Studio" } },
      userErrors: [],
    });
  });

  it("GIVEN a scheduled pre-order WHEN fulfilled THEN refused; WHEN marked open THEN it can ship", async () => {
    const state = await order(1024);
    expect(state.displayFulfillmentStatus).toBe("SCHEDULED");
    const fo = state.fulfillmentOrders.nodes[0] as Fo;
    expect(fo.supportedActions.map((a) => a.action)).toContain("MARK_AS_OPEN");
    expect((await fulfill([{ fulfillmentOrderId: fo.id }])).userErrors[0]?.message).toBe(`Fulfillment order ${fo.id} has an unfulfillable status= scheduled.`);
    const open = await h.gql<{ fulfillmentOrderOpen: UserErrors & { fulfillmentOrder: { status: string } } }>(
      `mutation($id: ID!) { fulfillmentOrderOpen(id: $id) { fulfillmentOrder { status } userErrors { field message } } }`,
      { id: fo.id },
    );
    expect(open.body.data?.fulfillmentOrderOpen).toEqual({ fulfillmentOrder: { status: "OPEN" }, userErrors: [] });
    expect((await fulfill([{ fulfillmentOrderId: fo.id }])).userErrors).toEqual([]);
  });

  it("GIVEN an unfulfilled order WHEN cancelled THEN it closes with its FOs; a fulfilled one cannot be cancelled", async () => {
    const cancel = (n: number) =>
      h.gql<{ orderCancel: { orderCancelUserErrors: { message: string; code: string }[]; job: { done: boolean } | null } }>(
        `mutation($id: ID!) { orderCancel(orderId: $id, reason: CUSTOMER, restock: true, refund: false) { job { done } orderCancelUserErrors { message code } } }`,
        { id: `gid://shopify/Order/${n}` },
      );
    const ok = await cancel(1005);
    expect(ok.body.data?.orderCancel).toEqual({ job: { done: true }, orderCancelUserErrors: [] });
    const res = await h.gql<{ order: { cancelledAt: string | null; closed: boolean; fulfillmentOrders: { nodes: { status: string }[] } } }>(
      `{ order(id: "gid://shopify/Order/1005") { cancelledAt closed fulfillmentOrders(first: 5) { nodes { status } } } }`,
    );
    expect(res.body.data?.order.cancelledAt).not.toBeNull();
    expect(res.body.data?.order.closed).toBe(true);
    expect(res.body.data?.order.fulfillmentOrders.nodes.map((f) => f.status)).toEqual(["CLOSED"]);
    const refused = await cancel(1013);
    expect(refused.body.data?.orderCancel.orderCancelUserErrors[0]?.code).toBe("INVALID");
  });
});
