import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_ORDER_TAGS } from "../../app/settings/settings";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments";
import { expectKilledAtCrashPoint, expectRanToEnd, runAppProcess } from "../support/app-process";
import { SHOP } from "../support/devstore-harness";
import { orderTagsIn, receivedTriggers, turnOnWorkflows } from "../support/order-automation";
import { startServiceAndAdmin } from "../support/service-and-admin";

// The order-signals work killed at its crash points (docs/decisions/043): its processes alone take the jobs (on
// PostgreSQL too: pg-boss workers do not run in this test's process), with the local admin taking the tags under
// write_orders and the Flow triggers, and a label booked on the Shipping API service.
process.env.CONSIGN_TEST_JOBS_IN_CHILDREN = "1";
vi.setConfig({ testTimeout: 60_000 });

const { harness, close, appProcessEnv, service, customer } = await startServiceAndAdmin({
  orders: 40,
  scope: "read_orders,write_fulfillments",
  settings: { orderTags: { ...DEFAULT_ORDER_TAGS, enabled: true } },
});
const { default: prisma } = await import("../../app/db/db.server");
const { orderSignalsView } = await import("../../app/signals/signal-views.server");

const orderTags = (orderId: string) => orderTagsIn(harness.admin.store, orderId);
const triggers = (handle: string) => receivedTriggers(harness, handle);
/** The shop's order signals worked in a process of its own (test/support/order-signals-worker.ts). */
const work = (crashAt?: string) => runAppProcess("order-signals-worker.ts", ["run", SHOP], appProcessEnv(crashAt));

describe("order signals across crashes", () => {
  let order: { id: string; number: number };

  beforeAll(async () => {
    harness.admin.grantOptionalScopes(["write_orders"]);
    // Workflows in the local admin's Flow use the triggers (the app's lifecycle callback, answered in this process).
    await turnOnWorkflows(harness, ["shipping-label-bought", "delivery-exception", "shipment-delivered"]);
    const [booked] = await createBookedShipments({
      db: prisma,
      shop: SHOP,
      client: service.clientFor(customer),
      fulfillmentOrders: shippableFulfillmentOrders(harness.admin.store, 1),
    });
    // What recordBooked writes with the booking: its signals are due.
    await prisma.shipment.update({ where: { id: booked!.id }, data: { signalsDueAt: new Date() } });
    order = { id: booked!.orderId, number: Number(booked!.orderId.split("/").pop()) };
  });

  afterAll(() => close());

  it("GIVEN the signals' process killed after Shopify took the tag and after Flow took the trigger WHEN it runs again THEN the tag is on the order once and the trigger was received once", async () => {
    // The label's signal, worked to its end.
    expectRanToEnd(await work());
    expect(orderTags(order.id)).toContain("label-bought");
    const shipment = await prisma.shipment.findFirstOrThrow({ where: { orderId: order.id, bookingStatus: "BOOKED" } });
    const at = new Date("2026-11-26T10:00:00Z");
    // An exception as tracking's pass writes it (the fact and signalsDueAt in one write); no job is sent here.
    await prisma.shipment.update({
      where: { id: shipment.id },
      data: { attentionReason: "Delivery attempted, recipient not available", lastEventAt: at, signalsDueAt: at },
    });
    const before = (await triggers("delivery-exception")).length;
    expectKilledAtCrashPoint(await work("order-tags:after-call"));
    expect(orderTags(order.id)).toContain("delivery-exception");
    expect(await prisma.orderSignal.findFirstOrThrow({ where: { orderId: order.id, kind: "EXCEPTION" } })).toMatchObject({
      tagStatus: "WRITING",
      flowStatus: "PENDING",
    });
    expectKilledAtCrashPoint(await work("flow-trigger:after-call"));
    expect((await triggers("delivery-exception")).length).toBe(before + 1);
    expectRanToEnd(await work());
    expect(orderTags(order.id).filter((tag) => tag === "delivery-exception")).toEqual(["delivery-exception"]);
    expect((await triggers("delivery-exception")).length).toBe(before + 1);
    expect(await prisma.orderSignal.findFirstOrThrow({ where: { orderId: order.id, kind: "EXCEPTION" } })).toMatchObject({
      tagStatus: "DONE",
      flowStatus: "UNCONFIRMED",
    });
    // The order's page says the trigger may not have reached Flow, and what to do.
    const [exception] = await orderSignalsView({ db: prisma, shop: SHOP }, order.id);
    expect(exception).toMatchObject({
      fact: "Delivery needs attention",
      tags: { tone: "success", text: "Tag “delivery-exception” added" },
      flow: { tone: "warning", advice: expect.stringContaining("Shopify Flow's run history") },
    });
  });

  it("GIVEN the signals' process killed before the tag's call WHEN it runs again THEN the tag is written then, once", async () => {
    const shipment = await prisma.shipment.findFirstOrThrow({ where: { orderId: order.id, bookingStatus: "BOOKED" } });
    await prisma.shipment.update({ where: { id: shipment.id }, data: { trackingState: "DELIVERED", attentionReason: null, signalsDueAt: new Date() } });
    expectKilledAtCrashPoint(await work("order-tags:before-call"));
    expect(orderTags(order.id)).not.toContain("delivered");
    expectRanToEnd(await work());
    expect(orderTags(order.id)).toEqual(expect.arrayContaining(["label-bought", "delivered"]));
    expect(orderTags(order.id)).not.toContain("delivery-exception");
    expect((await triggers("shipment-delivered")).filter((entry) => entry.payload.order_id === order.number)).toHaveLength(1);
  });
});
