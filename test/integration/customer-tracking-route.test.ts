import { afterAll, describe, expect, it } from "vitest";
import { parseGid } from "../../devstore/gid";
import { callRoute, forgedSessionToken } from "../support/route-call";
import { startTrackingStack } from "../support/tracking-stack";
import { SHOP } from "../support/devstore-harness";

// The customer tracking extension's route as Shopify's customer accounts call it: a Bearer customer account
// session token the local admin signs (as Shopify does for the signed-in customer), the real service's tracking
// timelines followed by the real tracking pass, fulfillments the real write-back created, and the order mirrored
// by the app's own read of the order (which keeps whose order it is).
const stack = await startTrackingStack({ orders: 8 });
const { harness, prisma, store, bookAndFulfil, runFor, context } = stack;
const route = await import("../../app/routes/api.customer-tracking.$fulfillmentId");
const { refreshOrder } = await import("../../app/orders/mirror.server");
const { CustomerTrackingView } = await import("../../app/extension/customer-tracking-view");
afterAll(async () => {
  await harness.close();
  await stack.service.close();
});

const [delivered, unmirrored] = await bookAndFulfil(2);
await refreshOrder(await context(), delivered!.orderId);
// Ten days: the service's timeline for the label runs to delivery, and each pass records what it saw.
await runFor(10 * 24, 6);

const ownerOf = (orderId: string) => store.getOrder(parseGid(orderId)!.id)!.customer_id!;
const fulfillmentNumber = (gid: string | null) => String(parseGid(gid!)!.id);
const strangerId = store.customerForEmail("someone.else@example.com", { firstName: "Someone", lastName: "Else" });

async function get(fulfillment: string, token: string | null, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("origin", "https://extensions.shopifycdn.com");
  if (token !== null) headers.set("authorization", `Bearer ${token}`);
  const request = new Request(`http://localhost:3000/api/customer-tracking/${fulfillment}`, { ...init, headers });
  return callRoute(init.method && init.method !== "GET" ? route.action : route.loader, request, { fulfillmentId: fulfillment });
}

describe("/api/customer-tracking/:fulfillmentId", () => {
  it("GIVEN the customer who placed the order WHEN their order status page asks for a delivered parcel THEN the carrier by name, Delivered with what comes next, and the events newest first, places in words, with CORS", async () => {
    const answer = await get(fulfillmentNumber(delivered!.fulfillmentId), await harness.admin.mintCustomerSessionToken(ownerOf(delivered!.orderId)));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    const view = CustomerTrackingView.parse(answer.body);
    const row = await prisma.shipment.findUniqueOrThrow({ where: { id: delivered!.id }, include: { trackingEvents: true } });
    expect(row.trackingState).toBe("DELIVERED");
    expect(view).toMatchObject({
      carrier: "National Postal Service",
      service: "Ground Advantage",
      trackingNumbers: [row.trackingNumber],
      status: "Delivered",
      tone: "neutral",
      nextStep: "Your parcel was delivered. If you cannot find it, contact the shop.",
    });
    expect(view.events).toHaveLength(row.trackingEvents.length);
    expect(view.events[0]).toMatchObject({ status: "Delivered" });
    expect(view.latest).toEqual(view.events[0]);
    const times = view.events.map((event) => Date.parse(event.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(view.events.at(-1)!.status).toBe("Ready to ship");
    // Countries by name, never a bare code.
    const places = view.events.flatMap((event) => (event.place ? [event.place] : []));
    expect(places.length).toBeGreaterThan(0);
    for (const place of places) expect(place).not.toMatch(/, [A-Z]{2}$/);
  });

  it("GIVEN another customer of the shop WHEN they ask for that fulfillment THEN 404, saying nothing of the parcel", async () => {
    const answer = await get(fulfillmentNumber(delivered!.fulfillmentId), await harness.admin.mintCustomerSessionToken(strangerId));
    expect(answer.status).toBe(404);
    expect(JSON.stringify(answer.body)).not.toContain(delivered!.trackingNumber!);
    expect(answer.body).toEqual({ error: "There is no tracking for this shipment in your account." });
  });

  it("GIVEN an order the app has not mirrored with its customer, or a fulfillment Consign did not write THEN 404", async () => {
    const owner = await harness.admin.mintCustomerSessionToken(ownerOf(unmirrored!.orderId));
    expect((await get(fulfillmentNumber(unmirrored!.fulfillmentId), owner)).status).toBe(404);
    expect((await get("999999", owner)).status).toBe(404);
  });

  it("GIVEN a forged token, none, or the admin's session token (no customer) THEN 401", async () => {
    const number = fulfillmentNumber(delivered!.fulfillmentId);
    expect((await get(number, await forgedSessionToken())).status).toBe(401);
    expect((await get(number, null)).status).toBe(401);
    const admin = await get(number, await harness.admin.mintSessionToken());
    expect(admin.status).toBe(401);
    expect(admin.body).toEqual({ error: "Sign in to your customer account to see your parcel's tracking." });
  });

  it("GIVEN a fulfillment id that is not a number THEN 400 naming the field", async () => {
    const answer = await get("abc", await harness.admin.mintCustomerSessionToken(ownerOf(delivered!.orderId)));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: "Fulfillment must be the fulfillment's numeric id, e.g. 4001" });
  });

  it("GIVEN the extension's CORS preflight THEN it is answered; a POST is 405", async () => {
    const preflight = await get(fulfillmentNumber(delivered!.fulfillmentId), null, { method: "OPTIONS", headers: { "access-control-request-method": "GET" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    const post = await get(fulfillmentNumber(delivered!.fulfillmentId), await harness.admin.mintCustomerSessionToken(ownerOf(delivered!.orderId)), {
      method: "POST",
      body: "x=1",
    });
    expect(post.status).toBe(405);
  });

  it("GIVEN the mirror read the order THEN it keeps whose order it is", async () => {
    const mirrored = await prisma.mirrorOrder.findFirstOrThrow({ where: { shop: SHOP, id: delivered!.orderId } });
    expect(mirrored.customerId).toBe(`gid://shopify/Customer/${ownerOf(delivered!.orderId)}`);
  });
});
