import { afterAll, describe, expect, it } from "vitest";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments";
import { buildFulfillmentOrder, buildMirroredOrder } from "../factories/orders";
import { EXTENSION_ORIGIN, appRequest, callRoute, forgedSessionToken } from "../support/route-call";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";

// The order-details block's data route as Shopify's admin calls it from the extension: a Bearer session
// token the local admin signed (validated and exchanged by the library), a cross-origin request with CORS,
// the real service for the bookings and a real SQLite app database.
const { service, harness, customer, close } = await startServiceAndAdmin({ orders: 4 });
afterAll(close);
const { default: prisma } = await import("../../app/db/db.server");
const { saveMirroredOrders } = await import("../../app/orders/mirror-store.server");
const route = await import("../../app/routes/api.order-shipments.$id");
const { OrderShipmentsView } = await import("../../app/extension/order-shipments-view");

const [booked] = await createBookedShipments({
  db: prisma,
  shop: SHOP,
  client: service.clientFor(customer),
  fulfillmentOrders: shippableFulfillmentOrders(harness.admin.store, 1),
});
const bookedNumber = booked!.orderId.split("/").pop()!;

const onHold = buildMirroredOrder({
  id: "gid://shopify/Order/7001",
  name: "#7001",
  fulfillmentOrders: [
    buildFulfillmentOrder({
      status: "ON_HOLD",
      holds: [{ reason: "AWAITING_PAYMENT", reasonNotes: "Waiting for the bank transfer" }],
      supportedActions: ["RELEASE_HOLD"],
    }),
  ],
});
const unbooked = buildMirroredOrder({ id: "gid://shopify/Order/7002", name: "#7002" });
const weightless = buildMirroredOrder({ id: "gid://shopify/Order/7004", name: "#7004" });
await saveMirroredOrders({ db: prisma, shop: SHOP, now: () => new Date() }, [onHold, unbooked, weightless]);
// Its last quote run could not quote it, and said why.
await prisma.quoteRun.create({
  data: {
    shop: SHOP,
    status: "COMPLETED",
    orderIds: JSON.stringify([weightless.id]),
    startedAt: new Date(),
    blockedOrders: {
      create: {
        orderId: weightless.id,
        orderName: "#7004",
        issues: JSON.stringify([{ code: "ZERO_WEIGHT", message: "Mug has no weight. Add it to the product in Shopify." }]),
      },
    },
  },
});
await saveMirroredOrders({ db: prisma, shop: "another-shop.myshopify.com", now: () => new Date() }, [
  buildMirroredOrder({ id: "gid://shopify/Order/7003", name: "#7003" }),
]);

async function get(number: string, headers: Record<string, string> = { origin: EXTENSION_ORIGIN }) {
  return callRoute(route.loader, await appRequest(harness.admin, `/api/order-shipments/${number}`, { headers }), { id: number });
}

describe("/api/order-shipments/:id", () => {
  it("GIVEN a booked order THEN its shipment with service, cost, label status, tracking number and a reprint link, with CORS for the extension", async () => {
    const answer = await get(bookedNumber);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    const view = OrderShipmentsView.parse(answer.body);
    expect(view.blockers).toEqual([]);
    expect(view.bookPath).toBe(`/app/orders/${bookedNumber}/book`);
    expect(view.shipments).toEqual([
      expect.objectContaining({
        id: booked!.id,
        carrier: "National Postal Service",
        service: "Ground Advantage",
        trackingNumber: booked!.trackingNumber,
        trackingNumbers: [booked!.trackingNumber],
        labelStatus: "Label bought · fulfillment pending",
        tone: "success",
        labelPath: `/app/orders/${bookedNumber}/label?shipment=${booked!.id}`,
      }),
    ]);
  });

  it("GIVEN an order without shipments THEN no shipments and the path that quotes it; GIVEN it on hold, or its last quote blocked THEN the reasons", async () => {
    const free = OrderShipmentsView.parse((await get("7002")).body);
    expect(free).toMatchObject({
      order: { id: unbooked.id, name: "#7002" },
      shipments: [],
      blockers: [],
      createLabelPath: "/app/quotes/new?id=gid%3A%2F%2Fshopify%2FOrder%2F7002",
    });
    const held = OrderShipmentsView.parse((await get("7001")).body);
    expect(held.shipments).toEqual([]);
    expect(held.blockers).toEqual(["On hold (Waiting for the bank transfer). Release the hold in Shopify to ship it."]);
    expect(OrderShipmentsView.parse((await get("7004")).body).blockers).toEqual(["Mug has no weight. Add it to the product in Shopify."]);
  });

  it("GIVEN another shop's order or an id that is no number THEN refused (404, 400) without its data", async () => {
    const other = await get("7003");
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: `Consign has not seen order 7003 of ${SHOP}. Open Consign once so it reads your orders, then reload this page.` });
    expect(other.headers.get("access-control-allow-origin")).toBe("*");
    expect(await get("abc")).toMatchObject({ status: 400, body: { error: "The order id must be the order's number in its admin URL, e.g. 1001" } });
  });

  it("GIVEN no session token, or one signed with another secret THEN refused without data", async () => {
    const bare = await callRoute(
      route.loader,
      new Request(`http://localhost:3000/api/order-shipments/${bookedNumber}`, { headers: { origin: EXTENSION_ORIGIN } }),
      { id: bookedNumber },
    );
    expect(bare.status).toBeGreaterThanOrEqual(300);
    expect(JSON.stringify(bare.body)).not.toContain(booked!.trackingNumber!);
    const forged = await forgedSessionToken();
    const request = new Request(`http://localhost:3000/api/order-shipments/${bookedNumber}`, {
      headers: { origin: EXTENSION_ORIGIN, authorization: `Bearer ${forged}` },
    });
    const answer = await callRoute(route.loader, request, { id: bookedNumber });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("GIVEN a POST with a body THEN 405 naming GET, with the body read so the client's connection stays usable", async () => {
    const request = await appRequest(harness.admin, `/api/order-shipments/${bookedNumber}`, {
      method: "POST",
      headers: { origin: EXTENSION_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ pad: "x".repeat(200_000) }),
    });
    const answer = await callRoute(route.action, request, { id: bookedNumber });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET, OPTIONS");
    expect(request.bodyUsed).toBe(true);
  });

  it("GIVEN the browser's preflight THEN 204 allowing the Authorization header", async () => {
    const answer = await callRoute(
      route.action,
      new Request(`http://localhost:3000/api/order-shipments/${bookedNumber}`, {
        method: "OPTIONS",
        headers: { origin: EXTENSION_ORIGIN, "access-control-request-headers": "authorization" },
      }),
      { id: bookedNumber },
    );
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-headers")).toContain("Authorization");
  });
});
