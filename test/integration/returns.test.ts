import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { toGid } from "../../devstore/gid";
import { aCustomerAddress, aRequestedReturn } from "../factories/returns";
import { contextOf, shippingContext } from "../factories/context";
import { API_SECRET, SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { signedWebhook } from "../support/webhooks";
import { receivedTriggers, turnOnWorkflows } from "../support/order-automation";

// Returns on real parts (docs/decisions/041): the local admin's returns on the real 2026-10 schema, the Shipping API
// service's inbound services, the app's database. The local admin's own webhooks go nowhere here: each test signs
// the delivery Shopify would send to /webhooks/returns.
const { service, harness, close } = await startServiceAndAdmin({
  orders: 4,
  env: { SHOPIFY_APP_URL: "https://consign.example" },
  scope: "read_orders,write_fulfillments,read_returns,write_returns",
});
afterAll(close);

const { default: prisma } = await import("../../app/db/db.server");
const { action: returnsWebhook } = await import("../../app/routes/webhooks.returns");
const { loader: labelRoute } = await import("../../app/routes/returns.label.$token");
const { webhookDeliveryJob } = await import("../../app/webhooks/webhooks.server");
const { processJobs } = await import("../../app/context.server");
const returns = await import("../../app/returns/returns.server");
const labels = await import("../../app/returns/return-label.server");
const attach = await import("../../app/returns/return-attach.server");
const { viewReturns } = await import("../../app/returns/returns-page.server");
const { saveSettings, loadSettings } = await import("../../app/settings/account.server");
const { unauthenticated } = await import("../../app/shopify.server");
const { syncDueTracking } = await import("../../app/tracking/pass.server");
const { orderSignalsJob } = await import("../../app/signals/order-signals-job");
const { needsAttention } = await import("../../app/tracking/tracking-views.server");

const store = harness.admin.store;
// Workflows in the local admin's Flow use the label triggers (docs/decisions/047): "Return label bought" is sent for a
// return's label, and "Shipping label bought" would be, were a return's label taken for the order's.
await turnOnWorkflows(harness, ["return-label-bought", "shipping-label-bought"]);

async function shopContext(now: Date | (() => Date) = () => new Date()) {
  const { admin } = await unauthenticated.admin(SHOP);
  return contextOf({ admin, shop: SHOP }, prisma, now);
}
/** SHOP's context with the Shipping API open, on the process's clock unless the test gives the service's. */
async function bookingContext(now: () => Date = () => new Date()) {
  const { admin } = await unauthenticated.admin(SHOP);
  return shippingContext(prisma, SHOP, now, async () => ({ admin, shop: SHOP }));
}

/** Answers a signed returns delivery with the route and waits for the shop's delivery job. */
async function deliver(topic: string, payload: unknown, webhookId?: string): Promise<number> {
  const request = signedWebhook({ path: "/webhooks/returns", topic, shop: SHOP, payload, secret: API_SECRET, webhookId });
  let status: number;
  try {
    status = (await returnsWebhook({ request, params: {}, context: {} })).status;
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    status = thrown.status;
  }
  await processJobs().drained(webhookDeliveryJob, { shop: SHOP });
  return status;
}

const payloadOf = (returnId: number) => ({ id: returnId, admin_graphql_api_id: toGid("Return", returnId), status: "requested" });

/** A customer's requested return of two items, known to Consign through returns/request. */
async function requestedReturn(options: Parameters<typeof aRequestedReturn>[1] = {}) {
  const made = aRequestedReturn(store, { items: 2, ...options });
  expect(await deliver("returns/request", payloadOf(made.returnId))).toBe(200);
  return made;
}

/** A requested return approved from Consign. */
async function approvedReturn(options: Parameters<typeof aRequestedReturn>[1] = {}) {
  const made = await requestedReturn(options);
  const decided = await returns.decideReturn(await shopContext(), made.returnGid, "approve");
  expect(decided).toEqual({ ok: true, status: "OPEN" });
  return made;
}

async function labelOf(returnGid: string) {
  return prisma.shipment.findFirstOrThrow({ where: { shop: SHOP, kind: "RETURN", returnId: returnGid }, orderBy: { createdAt: "desc" } });
}

describe("the returns webhooks", () => {
  it("GIVEN a customer requests a return of two items WHEN returns/request arrives THEN Consign keeps the return with its items, quantities, reasons and weights; the same delivery again changes nothing", async () => {
    const made = aRequestedReturn(store, { items: 2, customerNote: "Too tight across the shoulders." });
    const webhookId = "returns-request-1";
    expect(await deliver("returns/request", payloadOf(made.returnId), webhookId)).toBe(200);
    const row = await prisma.shopReturn.findUniqueOrThrow({ where: { id: made.returnGid } });
    expect(row).toMatchObject({ shop: SHOP, orderId: made.orderGid, orderName: made.orderName, status: "REQUESTED", customerName: "Rosa Diaz" });
    const lines = JSON.parse(row.lines) as Array<{ quantity: number; reason: string | null; weight: unknown }>;
    expect(lines.reduce((sum, line) => sum + line.quantity, 0)).toBe(2);
    expect(lines.every((line) => line.reason && line.weight)).toBe(true);
    expect(row.customerNote).toBe("Too tight across the shoulders.");

    expect(await deliver("returns/request", payloadOf(made.returnId), webhookId)).toBe(200);
    expect(await prisma.webhookDelivery.count({ where: { shop: SHOP, webhookId } })).toBe(1);
  });

  it("GIVEN returns/approve, returns/decline and returns/cancel THEN each return is read again and shows Shopify's status", async () => {
    const approved = aRequestedReturn(store, { items: 2, approved: true });
    expect(await deliver("returns/approve", payloadOf(approved.returnId))).toBe(200);
    expect(await prisma.shopReturn.findUniqueOrThrow({ where: { id: approved.returnGid } })).toMatchObject({
      status: "OPEN",
      reverseFulfillmentOrderId: expect.stringContaining("ReverseFulfillmentOrder"),
    });

    const declined = await requestedReturn();
    const gql = await harness.gql(`mutation { returnDeclineRequest(input: { id: "${declined.returnGid}", declineReason: OTHER }) { userErrors { message } } }`);
    expect(gql.body.errors).toBeUndefined();
    expect(await deliver("returns/decline", { id: declined.returnId, admin_graphql_api_id: declined.returnGid, status: "declined" })).toBe(200);
    expect((await prisma.shopReturn.findUniqueOrThrow({ where: { id: declined.returnGid } })).status).toBe("DECLINED");

    const cancelled = aRequestedReturn(store, { items: 2, approved: true });
    await harness.gql(`mutation { returnCancel(id: "${cancelled.returnGid}") { userErrors { message } } }`);
    expect(await deliver("returns/cancel", { id: cancelled.returnId, admin_graphql_api_id: cancelled.returnGid, status: "canceled" })).toBe(200);
    expect((await prisma.shopReturn.findUniqueOrThrow({ where: { id: cancelled.returnGid } })).status).toBe("CANCELED");
  });

  it("GIVEN a returns delivery without a return's id THEN it is refused with 400 naming the field, and nothing is recorded", async () => {
    const before = await prisma.webhookDelivery.count({ where: { shop: SHOP } });
    expect(await deliver("returns/request", { id: "not-a-return" })).toBe(400);
    expect(await prisma.webhookDelivery.count({ where: { shop: SHOP } })).toBe(before);
  });
});

describe("approving, declining and the reconcile", () => {
  it("GIVEN a requested return WHEN the merchant approves it in Consign THEN Shopify's return is open; declining another declines it; deciding twice is refused in words", async () => {
    const approved = await requestedReturn();
    const ctx = await shopContext();
    expect(await returns.decideReturn(ctx, approved.returnGid, "approve")).toEqual({ ok: true, status: "OPEN" });
    expect(store.getReturn(approved.returnId)!.status).toBe("OPEN");
    const again = await returns.decideReturn(ctx, approved.returnGid, "approve");
    expect(again.ok).toBe(false);
    expect(!again.ok && again.message).toMatch(/not waiting for a decision/);

    const declined = await requestedReturn();
    expect(await returns.decideReturn(ctx, declined.returnGid, "decline")).toEqual({ ok: true, status: "DECLINED" });
    expect(store.getReturn(declined.returnId)!.status).toBe("DECLINED");
  });

  it("GIVEN a return whose webhook was lost WHEN the merchant checks Shopify for returns THEN the reconcile reads it in", async () => {
    const lost = aRequestedReturn(store, { items: 2 });
    expect(await prisma.shopReturn.count({ where: { id: lost.returnGid } })).toBe(0);
    const { read } = await returns.reconcileReturns(await shopContext());
    expect(read).toBeGreaterThan(0);
    expect((await prisma.shopReturn.findUniqueOrThrow({ where: { id: lost.returnGid } })).status).toBe("REQUESTED");
  });
});

describe("a return label", () => {
  it("GIVEN an approved return of two items WHEN Consign gets, books and attaches its label THEN Shopify's return has a reverse delivery with the tracking number and the label's link, which serves the PDF", async () => {
    const made = await approvedReturn();
    const ctx = await bookingContext();
    const quoted = await labels.quoteReturnLabel(ctx, made.returnGid);
    expect(quoted).toMatchObject({ ok: true, reason: expect.any(String) });
    if (!quoted.ok) return;
    const shipment = await labelOf(made.returnGid);
    const request = JSON.parse(shipment.request) as { sender: { city: string }; receiver: { city: string } };
    expect(request.sender.city).toBe("Brooklyn");
    expect(request.receiver.city).toBe((await loadSettings(ctx)).sender!.city);

    const booked = await labels.bookReturnLabel(ctx, quoted.shipmentId);
    expect(booked).toMatchObject({ ok: true, trackingNumber: expect.any(String) });
    // Booking sent the attach job; a second attacher meanwhile finds the label taken, or already attached.
    await attach.attachReturnLabels(await shopContext());
    await processJobs().drained(attach.returnAttachJob, { shop: SHOP });
    const row = await labelOf(made.returnGid);
    expect(row).toMatchObject({ bookingStatus: "BOOKED", fulfillmentStatus: "FULFILLED", trackingState: "ACTIVE", fulfillmentAttempts: 1 });

    const rfo = store.listReverseFulfillmentOrders(made.returnId)[0]!;
    const deliveries = store.listReverseDeliveries(rfo.id);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ tracking_number: row.trackingNumber, label_url: `https://consign.example/returns/label/${row.labelToken}` });

    const response = await labelRoute({
      request: new Request(`https://consign.example/returns/label/${row.labelToken}`),
      params: { token: row.labelToken! },
      context: {},
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await response.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    // Attaching again finds nothing left to do: one reverse delivery.
    await attach.attachReturnLabels(await shopContext());
    expect(store.listReverseDeliveries(rfo.id)).toHaveLength(1);

    // Flow's "Return label bought" (docs/decisions/043), once, with the label's facts; not the outbound label's trigger, and no tag.
    await processJobs().drained(orderSignalsJob, { shop: SHOP });
    expect(await prisma.orderSignal.findMany({ where: { shipmentId: row.id }, select: { kind: true, tagStatus: true, flowStatus: true } })).toEqual([
      { kind: "RETURN_LABEL_BOUGHT", tagStatus: "SKIPPED", flowStatus: "SENT" },
    ]);
    const orderNumber = Number(row.orderId.split("/").pop());
    const returned = (await receivedTriggers(harness, "return-label-bought")).filter((entry) => entry.payload.order_id === orderNumber);
    expect(returned.map((entry) => entry.payload)).toEqual([
      expect.objectContaining({ "Tracking number": row.trackingNumber, Carrier: expect.stringMatching(/\S/) }),
    ]);
    expect((await receivedTriggers(harness, "shipping-label-bought")).filter((entry) => entry.payload.order_id === orderNumber)).toEqual([]);
  });

  it("GIVEN an unknown, malformed or expired label token THEN the label route answers 404", async () => {
    const call = async (token: string) =>
      (await labelRoute({ request: new Request(`https://consign.example/returns/label/${token}`), params: { token }, context: {} })).status;
    expect(await call("A".repeat(32))).toBe(404);
    expect(await call("../../etc/passwd")).toBe(404);
    const made = await approvedReturn();
    const ctx = await bookingContext();
    const quoted = await labels.quoteReturnLabel(ctx, made.returnGid);
    if (!quoted.ok) throw new Error(quoted.message);
    expect((await labels.bookReturnLabel(ctx, quoted.shipmentId)).ok).toBe(true);
    const row = await labelOf(made.returnGid);
    expect(await call(row.labelToken!)).toBe(200);
    await prisma.shipment.update({ where: { id: row.id }, data: { labelTokenExpiresAt: new Date(Date.now() - 1000) } });
    expect(await call(row.labelToken!)).toBe(404);
  });

  it("GIVEN the rule prefers scan-based labels THEN a domestic return is booked scan-based, shown as unused and as costing nothing", async () => {
    const ctx = await bookingContext();
    const settings = await loadSettings(ctx);
    await saveSettings(ctx, { ...settings, returnRule: { kind: "scan-based" } });
    try {
      const made = await approvedReturn();
      const quoted = await labels.quoteReturnLabel(ctx, made.returnGid);
      expect(quoted).toMatchObject({ ok: true, scanBased: true, reason: "Scan-based: it costs nothing unless the customer sends the parcel" });
      if (!quoted.ok) return;
      expect((await labels.bookReturnLabel(ctx, quoted.shipmentId)).ok).toBe(true);
      expect(await labelOf(made.returnGid)).toMatchObject({ scanBased: true, shippingCost: "0.00", carrierCode: "NPS" });
      const page = await viewReturns(ctx, { filter: "all", page: 1 });
      expect(page.rows.find((row) => row.id === made.returnGid)?.labels[0]).toMatchObject({ scanBased: true, unused: true });
    } finally {
      await saveSettings(ctx, settings);
    }
  });

  it("GIVEN several returns WHEN the merchant gets their labels and books them together THEN the page's checkpoint names the spend and one job books each once", async () => {
    const ctx = await bookingContext();
    const settings = await loadSettings(ctx);
    // A carrier whose return labels are charged when booked, so the checkpoint has something to spend.
    await saveSettings(ctx, { ...settings, returnRule: { kind: "preferred", carrierCode: "BLP" } });
    onTestFinished(() => saveSettings(ctx, settings));
    const made = [await approvedReturn(), await approvedReturn()];
    const quoted = await labels.quoteReturnLabels(
      ctx,
      made.map((entry) => entry.returnGid),
    );
    expect(quoted.every((entry) => entry.outcome.ok)).toBe(true);
    const page = await viewReturns(ctx, { filter: "needs_label", page: 1 });
    expect(page.checkpoint?.sentence).toMatch(/^Book 2 labels for \$\d+\.\d\d\? Prepay balance \$[\d,.]+ → \$[\d,.]+/);
    const ids = page.checkpoint!.shipmentIds.filter((id) => quoted.some((entry) => entry.outcome.ok && entry.outcome.shipmentId === id));
    expect(ids).toHaveLength(2);
    await labels.startReturnBooking(ctx, ids);
    await processJobs().drained(labels.returnLabelsJob, { shop: SHOP, shipmentIds: [] });
    for (const entry of made) expect((await labelOf(entry.returnGid)).bookingStatus).toBe("BOOKED");
    // Booked and not yet back: On the way, no longer Need a label.
    const [onTheWay, needsLabel] = await Promise.all([
      viewReturns(ctx, { filter: "on_the_way", page: 1 }),
      viewReturns(ctx, { filter: "needs_label", page: 1 }),
    ]);
    for (const entry of made) {
      expect(onTheWay.rows.map((row) => row.id)).toContain(entry.returnGid);
      expect(needsLabel.rows.map((row) => row.id)).not.toContain(entry.returnGid);
    }
    expect(onTheWay.counts.on_the_way).toBe(onTheWay.rows.length);
    const search = await ctx.client.searchShipments({ body: { keyword: made[0]!.orderName } });
    expect(search.ok && search.value.shipments.filter((record) => record.shipperReference2 === ids[0] || record.shipperReference2 === ids[1]).length).toBe(1);
  });
});

describe("tracking a return parcel", () => {
  it("GIVEN a return label attached to Shopify WHEN the service's clock moves the parcel back to the shop THEN tracking follows it to Delivered without writing fulfillment events, and Returns and Needs attention say it arrived with a link to the order", async () => {
    const serviceTime = () => service.clock.now();
    const made = await approvedReturn();
    const ctx = await bookingContext(serviceTime);
    const quoted = await labels.quoteReturnLabel(ctx, made.returnGid);
    if (!quoted.ok) throw new Error(quoted.message);
    expect((await labels.bookReturnLabel(ctx, quoted.shipmentId)).ok).toBe(true);
    await processJobs().drained(attach.returnAttachJob, { shop: SHOP });
    // The attach job ran on the process's clock; the pass runs on the service's, so the first poll is made due now.
    await prisma.trackingSchedule.updateMany({ where: { shipment: { returnId: made.returnGid } }, data: { nextTrackAt: serviceTime() } });
    const attached = await labelOf(made.returnGid);
    expect(attached).toMatchObject({ fulfillmentStatus: "FULFILLED", trackingState: "ACTIVE" });
    const eventsInShopify = () => store.sql("SELECT count(*) AS n FROM fulfillment_events").get() as { n: number };
    const before = eventsInShopify().n;

    for (let hour = 0; hour < 10 * 24; hour++) {
      service.clock.advance(3_600_000);
      await syncDueTracking(await shopContext(serviceTime), { random: () => 0.5 });
      if ((await labelOf(made.returnGid)).trackingState === "DELIVERED") break;
    }
    const delivered = await labelOf(made.returnGid);
    expect(delivered).toMatchObject({ trackingState: "DELIVERED", carrierStatus: "Delivered", shopifyStatus: null });
    expect(await prisma.trackingSchedule.findUniqueOrThrow({ where: { id: delivered.id } })).toMatchObject({ nextTrackAt: null });
    expect(await prisma.trackingEvent.count({ where: { shipmentId: delivered.id, writeStatus: { not: "SKIPPED" } } })).toBe(0);
    expect(await prisma.trackingEvent.count({ where: { shipmentId: delivered.id } })).toBeGreaterThan(1);
    expect(eventsInShopify().n).toBe(before);
    // The return's delivery is not the order's: no "Shipment delivered" trigger, no tag.
    await processJobs().drained(orderSignalsJob, { shop: SHOP });
    expect((await prisma.orderSignal.findMany({ where: { shipmentId: delivered.id } })).map((signal) => signal.kind)).toEqual(["RETURN_LABEL_BOUGHT"]);

    const page = await viewReturns(ctx, { filter: "arrived", page: 1 });
    expect(page.rows.find((row) => row.id === made.returnGid)).toMatchObject({
      step: "arrived",
      todo: "Arrived — inspect and restock in Shopify",
      orderUrl: `shopify://admin/orders/${made.orderId}`,
    });
    // In Arrived alone of the open tabs, and every tab counted as its rows are found.
    for (const filter of ["needs_label", "on_the_way"] as const)
      expect((await viewReturns(ctx, { filter, page: 1 })).rows.map((row) => row.id)).not.toContain(made.returnGid);
    expect(page.counts.arrived).toBe(page.rows.length);
    expect(page.counts.all).toBe(await prisma.shopReturn.count({ where: { shop: SHOP } }));
    const attention = await needsAttention(ctx);
    expect(attention.rows.find((row) => row.shipmentId === delivered.id)).toMatchObject({
      note: "Return: Arrived — inspect and restock in Shopify.",
      shopifyOrderUrl: `shopify://admin/orders/${made.orderId}`,
    });
  }, 120_000);
});

describe("refusals name what to fix and write nothing", () => {
  it("GIVEN a return still waiting for approval THEN its label is refused until it is approved", async () => {
    const made = await requestedReturn();
    const quoted = await labels.quoteReturnLabel(await bookingContext(), made.returnGid);
    expect(quoted).toMatchObject({ ok: false, message: expect.stringMatching(/waiting for approval\. Approve it first/) });
    expect(await prisma.shipment.count({ where: { returnId: made.returnGid } })).toBe(0);
  });

  it("GIVEN a customer in a country no return service picks up in THEN the refusal names the country", async () => {
    const made = await approvedReturn({
      shippingAddress: aCustomerAddress({ country: "Cuba", countryCode: "CU", province: null, provinceCode: null, city: "Havana", zip: "10400" }),
    });
    const quoted = await labels.quoteReturnLabel(await bookingContext(), made.returnGid);
    expect(quoted).toMatchObject({ ok: false, message: expect.stringContaining("picks up in Cuba") });
    expect(await prisma.shipment.count({ where: { returnId: made.returnGid } })).toBe(0);
  });

  it("GIVEN no return address and no sender address THEN the refusal sends the merchant to Settings", async () => {
    const ctx = await bookingContext();
    const settings = await loadSettings(ctx);
    await saveSettings(ctx, { ...settings, sender: null, returnAddress: null });
    try {
      const made = await approvedReturn();
      expect(await labels.quoteReturnLabel(ctx, made.returnGid)).toMatchObject({ ok: false, message: expect.stringContaining("in Settings") });
      expect(await prisma.shipment.count({ where: { returnId: made.returnGid } })).toBe(0);
    } finally {
      await saveSettings(ctx, settings);
    }
  });

  it("GIVEN a returned item with no weight THEN the refusal names the item", async () => {
    const made = await approvedReturn();
    const row = await prisma.shopReturn.findUniqueOrThrow({ where: { id: made.returnGid } });
    const lines = JSON.parse(row.lines) as Array<{ title: string; weight: unknown }>;
    lines[0]!.weight = null;
    await prisma.shopReturn.update({ where: { id: row.id }, data: { lines: JSON.stringify(lines) } });
    const quoted = await labels.quoteReturnLabel(await bookingContext(), made.returnGid);
    expect(quoted).toMatchObject({ ok: false, message: expect.stringContaining(`No weight for ${lines[0]!.title}`) });
    expect(await prisma.shipment.count({ where: { returnId: made.returnGid } })).toBe(0);
  });
});
