import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_ORDER_TAGS } from "../../app/settings/settings";
import { flowSignature } from "../../app/flow/flow-signature";
import { contextOf } from "../factories/context";
import { domesticOrders, WEIGHTLESS_PRODUCT } from "../factories/mirrored-orders";
import { API_SECRET, SHOP } from "../support/devstore-harness";
import { syncOrderMirror } from "../support/mirror-sync";
import { flowActionRequest as flowRequest, orderTagsIn, receivedTriggers, runFlowAction as runAction, turnOnWorkflows } from "../support/order-automation";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { storedQuotes } from "../../app/shipping/stored-rates";
import type { BatchQuoteShipment, Quote } from "../../shipping-api/contract";

vi.setConfig({ testTimeout: 60_000 });

// Order tags and Shopify Flow (issue 25 §3, §4; docs/decisions/043) through the real parts: the local admin (its
// tagsAdd / tagsRemove held to the granted scopes, its flowTriggerReceive checking each payload against the app's
// trigger extensions, its signing of Flow's action requests, its Flow page turning workflows on through the app's
// trigger lifecycle callback), the Shipping API service booking the labels, and the app's database. A trigger is sent
// only to a shop whose workflow uses it (docs/decisions/047; the callback's route: flow-lifecycle.test.ts). The
// order-signals work killed at its crash points: crash-automation.test.ts.
const { harness, close } = await startServiceAndAdmin({
  orders: 40,
  scope: "read_orders,write_fulfillments",
  settings: { orderTags: { ...DEFAULT_ORDER_TAGS, enabled: true } },
});
const { default: prisma } = await import("../../app/db/db.server");
const { unauthenticated } = await import("../../app/shopify.server");
const { runOrderSignals } = await import("../../app/signals/signals.server");
const { orderSignalsSettled } = await import("../../app/signals/order-signals-job");
const { MAY_NOT_EDIT_ORDERS } = await import("../../app/signals/order-tags.server");
const { orderSignalsView } = await import("../../app/signals/signal-views.server");
const { saveShippingRule, deleteShippingRule } = await import("../../app/quoting/shipping-rules.server");
const { ShippingRuleSchema } = await import("../../app/quoting/shipping-rules");
const { speedClass } = await import("../../app/quoting/rate-rule");
const { compareAmounts } = await import("../../app/shipping/money");

const orderTags = (orderId: string) => orderTagsIn(harness.admin.store, orderId);
const triggers = (handle: string) => receivedTriggers(harness, handle);

describe("order tags and Shopify Flow", () => {
  let ctx: ReturnType<typeof contextOf>;
  /** Open domestic orders whose every line has a weight: each can be booked. */
  let bookable: Array<{ id: string; number: number }>;

  beforeAll(async () => {
    const { admin, session } = await unauthenticated.admin(SHOP);
    ctx = contextOf({ admin, shop: session.shop }, prisma);
    await syncOrderMirror({ admin, shop: session.shop }, prisma, 40);
    bookable = (await domesticOrders(prisma, SHOP, (titles) => !titles.includes(WEIGHTLESS_PRODUCT))).map((order) => ({
      id: order.id,
      number: Number(order.id.split("/").pop()),
    }));
    if (bookable.length < 4) throw new Error("the seed has fewer than four bookable domestic orders");
  });

  afterAll(() => close());

  it("GIVEN a request with a wrong signature WHEN Flow's action is called THEN it is refused with 401 before anything is recorded", async () => {
    const refused = await runAction(flowRequest(bookable[0]!.number, "run-forged", { signature: flowSignature("another body", API_SECRET) }));
    expect(refused.status).toBe(401);
    const unsigned = await runAction(flowRequest(bookable[0]!.number, "run-unsigned", { signature: "" }));
    expect(unsigned.status).toBe(401);
    expect(await prisma.flowActionRun.count()).toBe(0);
    expect(await prisma.shipment.count({ where: { orderId: bookable[0]!.id } })).toBe(0);
  });

  it("GIVEN a signed body without the order WHEN Flow's action is called THEN 400 names the field", async () => {
    const body = JSON.stringify({ shopify_domain: SHOP, action_run_id: "run-no-order", properties: {} });
    const refused = await runAction(flowRequest(0, "", { body }));
    expect(refused.status).toBe(400);
    expect(String(refused.body.message)).toMatch(/properties\.order_id (is required|must)/i);
    const notJson = await runAction(flowRequest(0, "", { body: "{not json" }));
    expect(notJson).toEqual({ status: 400, body: { message: "The body is not JSON." } });
  });

  it("GIVEN no workflow in Shopify Flow uses the triggers WHEN a label is bought THEN no trigger is sent, the signal is done at once and the order's page says why", async () => {
    const order = bookable[3]!;
    const bought = await runAction(flowRequest(order.number, "run-no-workflow"));
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    await orderSignalsSettled(ctx);
    const [signal] = await prisma.orderSignal.findMany({ where: { orderId: order.id } });
    expect(signal).toMatchObject({ kind: "LABEL_BOUGHT", flowStatus: "NO_WORKFLOW", flowError: null, doneAt: expect.any(Date) });
    // Nothing reached Flow: flowTriggerReceive's points were not spent.
    expect(await triggers("shipping-label-bought")).toEqual([]);
    const [view] = await orderSignalsView(ctx, order.id);
    expect(view!.flow).toEqual({ tone: "neutral", text: "Flow trigger “Shipping label bought” not sent: no workflow in Shopify Flow uses it", advice: null });
  });

  it("GIVEN tags on but write_orders declined WHEN the merchant turns on a workflow in Flow and Flow buys a label THEN it answers the tracking number, the trigger is sent and the tag write says Consign may not edit orders", async () => {
    // In the local admin's Flow: its signed lifecycle callback, answered 2xx by the app's route.
    await turnOnWorkflows(harness, ["shipping-label-bought"]);
    expect(await prisma.flowTriggerWorkflow.findMany({ where: { shop: SHOP } })).toEqual([
      expect.objectContaining({ handle: "shipping-label-bought", enabled: true }),
    ]);
    const order = bookable[0]!;
    const bought = await runAction(flowRequest(order.number, "run-1"));
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    const label = bought.body.return_value as { trackingNumber: string; carrier: string; service: string; cost: string };
    expect(label.trackingNumber).toMatch(/\S/);
    expect(label.carrier).toMatch(/\S/);
    const booked = await prisma.shipment.findMany({ where: { orderId: order.id, bookingStatus: "BOOKED" } });
    expect(booked.map((row) => row.trackingNumber)).toEqual([label.trackingNumber]);

    // The booking sent the shop's order-signals job.
    await orderSignalsSettled(ctx);
    const [signal] = await prisma.orderSignal.findMany({ where: { orderId: order.id } });
    expect(signal).toMatchObject({ kind: "LABEL_BOUGHT", tagStatus: "FAILED", tagError: MAY_NOT_EDIT_ORDERS, flowStatus: "SENT" });
    expect(orderTags(order.id)).not.toContain("label-bought");
    // The order's page says so, and what to do.
    expect(await orderSignalsView(ctx, order.id)).toEqual([
      expect.objectContaining({
        fact: "Label bought",
        tags: {
          tone: "critical",
          text: `Tags not written: ${MAY_NOT_EDIT_ORDERS}`,
          advice: "To put this order right now, add “label-bought” on the order in Shopify.",
        },
        flow: { tone: "success", text: "Flow trigger “Shipping label bought” sent", advice: null },
      }),
    ]);
    const sent = await triggers("shipping-label-bought");
    expect(sent.map((entry) => entry.payload)).toEqual([
      expect.objectContaining({ order_id: order.number, "Tracking number": label.trackingNumber, Carrier: label.carrier, Service: label.service }),
    ]);
  });

  it("GIVEN the same action run again WHEN Flow retries it THEN the answer is the same and nothing more is booked", async () => {
    const order = bookable[0]!;
    const first = await prisma.flowActionRun.findUniqueOrThrow({ where: { id: "run-1" } });
    const again = await runAction(flowRequest(order.number, "run-1"));
    expect(again.status).toBe(200);
    expect(again.body).toEqual((JSON.parse(first.answer!) as { body: unknown }).body);
    expect(await prisma.shipment.count({ where: { orderId: order.id, bookingStatus: "BOOKED" } })).toBe(1);
    // Another run for the order: it has its label, so Flow is told why nothing was bought.
    const other = await runAction(flowRequest(order.number, "run-2"));
    expect(other.status).toBe(422);
    expect(String(other.body.message)).toMatch(/already has a label/);
    expect(await prisma.shipment.count({ where: { orderId: order.id, bookingStatus: "BOOKED" } })).toBe(1);
  });

  it("GIVEN an order Shopify does not have WHEN Flow's action runs for it THEN Flow's error answer says why", async () => {
    const refused = await runAction(flowRequest(987654321, "run-missing"));
    expect(refused.status).toBe(422);
    expect(String(refused.body.message)).toMatch(/cannot ship/);
    expect(await prisma.flowActionRun.findUniqueOrThrow({ where: { id: "run-missing" } })).toMatchObject({ status: "REFUSED" });
  });

  it("GIVEN write_orders allowed and workflows on WHEN a label is bought, the parcel needs attention, recovers and is delivered THEN the tags follow and each trigger's payload matches its declared fields", async () => {
    harness.admin.grantOptionalScopes(["write_orders"]);
    await turnOnWorkflows(harness, ["delivery-exception", "shipment-delivered"]);
    const order = bookable[1]!;
    expect((await runAction(flowRequest(order.number, "run-3"))).status).toBe(200);
    await orderSignalsSettled(ctx);
    expect(orderTags(order.id)).toContain("label-bought");

    const shipment = await prisma.shipment.findFirstOrThrow({ where: { orderId: order.id, bookingStatus: "BOOKED" } });
    // What tracking's pass writes with a carrier exception, and then with the next events (the fact and signalsDueAt in one write).
    const at = new Date("2026-11-25T15:00:00Z");
    await prisma.shipment.update({
      where: { id: shipment.id },
      data: { attentionReason: "Incorrect address, delivery delayed", lastEventAt: at, signalsDueAt: at },
    });
    await runOrderSignals(ctx);
    expect(orderTags(order.id)).toEqual(expect.arrayContaining(["label-bought", "delivery-exception"]));
    const exceptions = await triggers("delivery-exception");
    expect(exceptions.map((entry) => entry.payload)).toEqual([
      expect.objectContaining({ order_id: order.number, Reason: "Incorrect address, delivery delayed" }),
    ]);

    await prisma.shipment.update({
      where: { id: shipment.id },
      data: { attentionReason: null, lastEventAt: new Date(at.getTime() + 3_600_000), signalsDueAt: new Date() },
    });
    await runOrderSignals(ctx);
    expect(orderTags(order.id)).not.toContain("delivery-exception");

    await prisma.shipment.update({ where: { id: shipment.id }, data: { trackingState: "DELIVERED", signalsDueAt: new Date() } });
    await runOrderSignals(ctx);
    expect(orderTags(order.id)).toEqual(expect.arrayContaining(["label-bought", "delivered"]));
    expect((await triggers("shipment-delivered")).map((entry) => entry.payload.order_id)).toEqual([order.number]);
    // Nothing due any more: running again records and sends nothing.
    expect(await runOrderSignals(ctx)).toEqual({ recorded: 0, worked: 0 });
    expect(
      (await prisma.orderSignal.findMany({ where: { orderId: order.id } })).map((signal) => [signal.kind, signal.tagStatus, signal.flowStatus]).sort(),
    ).toEqual(
      [
        ["DELIVERED", "DONE", "SENT"],
        ["EXCEPTION", "DONE", "SENT"],
        ["EXCEPTION_RESOLVED", "DONE", "NONE"],
        ["LABEL_BOUGHT", "DONE", "SENT"],
      ].sort(),
    );
  });

  it("GIVEN the merchant turns the workflow off in Flow WHEN the parcel needs attention again THEN its trigger is not sent", async () => {
    await turnOnWorkflows(harness, ["delivery-exception"], false);
    const order = bookable[1]!;
    const before = await triggers("delivery-exception");
    const shipment = await prisma.shipment.findFirstOrThrow({ where: { orderId: order.id, bookingStatus: "BOOKED" } });
    const at = new Date("2026-11-27T09:00:00Z");
    await prisma.shipment.update({ where: { id: shipment.id }, data: { attentionReason: "Damaged in transit", lastEventAt: at, signalsDueAt: at } });
    await runOrderSignals(ctx);
    expect(await prisma.orderSignal.findFirstOrThrow({ where: { shipmentId: shipment.id, kind: "EXCEPTION", occurrence: at.toISOString() } })).toMatchObject({
      flowStatus: "NO_WORKFLOW",
      doneAt: expect.any(Date),
    });
    expect(await triggers("delivery-exception")).toEqual(before);
    // The triggers Flow took before were each received with their workflow on.
    expect(before.map((entry) => entry.workflow_on)).toEqual(before.map(() => true));
  });

  it("GIVEN a trigger whose payload does not match the declared fields WHEN the local admin receives it THEN it refuses with userErrors", async () => {
    const { body } = await harness.gql<{ flowTriggerReceive: { userErrors: Array<{ field: string[]; message: string }> } }>(
      `mutation ($handle: String!, $payload: JSON!) { flowTriggerReceive(handle: $handle, payload: $payload) { userErrors { field message } } }`,
      { handle: "delivery-exception", payload: { order_id: bookable[0]!.number, "Tracking number": "1Z", Carrier: 5, Unknown: "x" } },
    );
    const fields = body.data!.flowTriggerReceive.userErrors.map((error) => error.field.join("."));
    expect(fields).toEqual(expect.arrayContaining(["payload.Carrier", "payload.Unknown", "payload.Reason", "payload.Service"]));
  });

  it("GIVEN a shipping rule picking the fastest rate for domestic orders WHEN Flow buys a label THEN the rule, not the shop-wide cheapest, decides the rate", async () => {
    const order = bookable[2]!;
    const rule = ShippingRuleSchema.parse({ name: "Domestic fastest", conditions: { destination: "domestic" }, actions: { rate: { kind: "fastest" } } });
    const saved = await saveShippingRule(ctx, null, rule);
    try {
      const bought = await runAction(flowRequest(order.number, "run-rule"));
      expect(bought.status, JSON.stringify(bought.body)).toBe(200);
      const shipment = await prisma.shipment.findFirstOrThrow({ where: { orderId: order.id, bookingStatus: "BOOKED" } });
      // A booked shipment keeps the rate it was booked at, its pick; what it was offered is asked of the service again.
      const [booked, ...others] = storedQuotes(shipment);
      expect(others).toEqual([]);
      expect(booked).toMatchObject({ quoteId: shipment.selectedQuoteId, serviceCode: shipment.serviceCode });
      const [offered] = await (await ctx.shipping()).quoteShipments([JSON.parse(shipment.request) as BatchQuoteShipment]);
      if (offered?.status !== "success") throw new Error(`quoting the booked request again failed: ${JSON.stringify(offered)}`);
      const rank = (quote: Quote) => speedClass(quote).rank;
      const fastest = Math.min(...offered.quotes.map(rank));
      const cheapest = [...offered.quotes].sort((a, b) => compareAmounts(a.totalAmount, b.totalAmount))[0]!;
      // The shop-wide rule (cheapest) would have picked a slower service: the rule made the difference.
      expect(rank(cheapest)).toBeGreaterThan(fastest);
      expect(rank(booked!)).toBe(fastest);
    } finally {
      await deleteShippingRule(ctx, saved!.id);
    }
  });
});
