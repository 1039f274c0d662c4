import { afterAll, describe, expect, it } from "vitest";
import { useAppEnvironment } from "../support/app-env";
import { appRequest, callRoute } from "../support/route-call";
import { API_KEY, API_SECRET, SHOP, startHarness } from "../support/devstore-harness";

// The overview's routes as the embedded app calls them (a session token the local admin signed): the page's
// data and the CSV export, and a period they do not offer refused naming the field.
const harness = await startHarness({ orders: 1 });
useAppEnvironment({ LOCAL_ADMIN_URL: harness.url, SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET });
const { default: prisma } = await import("../../app/db/db.server");
const page = await import("../../app/routes/app.overview");
const exported = await import("../../app/routes/app.overview.export");

afterAll(async () => {
  await prisma.$disconnect();
  await harness.close();
});

await prisma.shipment.create({
  data: {
    shop: SHOP,
    orderId: "gid://shopify/Order/1",
    orderName: "#1",
    fulfillmentOrderId: "gid://shopify/FulfillmentOrder/1",
    lines: "[]",
    request: JSON.stringify({ receiver: { country: "US" } }),
    bookingStatus: "BOOKED",
    carrierCode: "BLP",
    serviceCode: "BLP_GROUND",
    shippingCost: "12.50",
    currency: "USD",
    bookedAt: new Date(),
  },
});

describe("/app/overview and its export", () => {
  it("GIVEN a period THEN the page's figures; GIVEN a period not offered THEN 400 naming it", async () => {
    const answer = await callRoute(page.loader, await appRequest(harness.admin, "/app/overview?period=7"));
    expect(answer).toMatchObject({
      status: 200,
      body: { period: { days: 7 }, labelsBought: 1, totalSpend: "12.50", byCarrier: [{ key: "BLP", spend: "12.50" }] },
    });
    expect(await callRoute(page.loader, await appRequest(harness.admin, "/app/overview?period=2"))).toMatchObject({
      status: 400,
      body: "Period must be one of 7, 30, 90, 365 days",
    });
  });

  it("GIVEN the export THEN a CSV attachment named for the period; GIVEN a bad period THEN 400 in words", async () => {
    const answer = await callRoute(exported.loader, await appRequest(harness.admin, "/app/overview/export?period=90"));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename="consign-overview-90d-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(String(answer.body)).toContain("Spend by carrier,BLP,BLP,,,1,12.50,USD\r\n");
    expect(await callRoute(exported.loader, await appRequest(harness.admin, "/app/overview/export?period=abc"))).toMatchObject({
      status: 400,
      body: "Period must be one of 7, 30, 90, 365 days",
    });
  });
});
