import { afterAll, describe, expect, it } from "vitest";
import { parseGid } from "../../devstore/gid";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { startFaultProxy, type SeenRequest } from "../support/fault-proxy";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments";
import { SHOP } from "./devstore-harness";

// What happens when Shopify's answers are lost, cut off or refused while Consign writes tracking numbers back:
// the real local admin behind a forwarding proxy that breaks chosen exchanges, the app's real write-back job
// on the process's queue. Every order must end fulfilled exactly once, with no restart.
const proxy = await startFaultProxy();
const { service, harness, customer } = await startServiceAndAdmin({
  orders: 20,
  env: { SHOPIFY_APP_URL: "https://consign.example", LOCAL_ADMIN_URL: proxy.url },
  scope: "read_orders,write_fulfillments",
});
proxy.target = harness.url;
const { default: prisma } = await import("../../app/db.server");
const writeBack = await import("../../app/fulfillment/write-back.server");
const { syncOrderMirror } = await import("../support/mirror-sync");
const { unauthenticated } = await import("../../app/shopify.server");
const { loadShopSummary } = await import("../../app/settings/shop-profile.server");
const { contextOf } = await import("../factories/context");
afterAll(async () => {
  await harness.close();
  await service.close();
  await proxy.close();
});

const store = harness.admin.store;
const graphql = (operation: string) => (request: SeenRequest) => request.path.endsWith("/graphql.json") && request.body.includes(operation);

describe("GIVEN Shopify's answers to fulfillmentCreate are lost, refused and cut off", () => {
  it("WHEN the write-back runs THEN it reads before it writes again, and every order has exactly one fulfillment with its tracking number", async () => {
    await syncOrderMirror({ admin: (await unauthenticated.admin(SHOP)).admin, shop: SHOP }, prisma);
    const shipments = await createBookedShipments({
      db: prisma,
      shop: SHOP,
      client: service.clientFor(customer),
      fulfillmentOrders: shippableFulfillmentOrders(store).slice(0, 5),
    });
    proxy.inject({ match: graphql("fulfillmentCreate"), fault: "reset-after", times: 1 });
    proxy.inject({ match: graphql("fulfillmentCreate"), fault: "503", times: 1 });
    proxy.inject({ match: graphql("fulfillmentCreate"), fault: "truncate", times: 1 });
    proxy.inject({ match: graphql("fulfillmentCreate"), fault: "reset-before", times: 1 });

    await writeBack.startWriteBack({ shop: SHOP });

    expect(proxy.applied.map((entry) => entry.fault)).toEqual(["reset-after", "503", "truncate", "reset-before"]);
    for (const shipment of shipments) {
      const row = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
      expect(row, shipment.orderName).toMatchObject({ fulfillmentStatus: "FULFILLED", fulfillmentError: null });
      const orderId = parseGid(shipment.orderId)!.id;
      const withTracking = store.listFulfillments(orderId).filter((f) => store.listTrackingInfo(f.id).some((t) => t.number === shipment.trackingNumber));
      expect(withTracking, shipment.orderName).toHaveLength(1);
    }
  });
});

describe("GIVEN Shopify's answers to a read are refused, reset and cut off", () => {
  it("WHEN the shop's summary is read (as starting a quote run does) THEN the gateway asks again and the read answers, with no error shown", async () => {
    proxy.clear();
    proxy.inject({ match: graphql("query ShopSummary"), fault: "503", times: 1 });
    proxy.inject({ match: graphql("query ShopSummary"), fault: "reset-before", times: 1 });
    proxy.inject({ match: graphql("query ShopSummary"), fault: "truncate", times: 1 });
    const ctx = contextOf({ admin: (await unauthenticated.admin(SHOP)).admin, shop: SHOP }, prisma);

    const summary = await loadShopSummary(ctx);

    expect(proxy.applied.map((entry) => entry.fault)).toEqual(["503", "reset-before", "truncate"]);
    expect(summary.name).toBe(store.getShop().name);
  });
});
