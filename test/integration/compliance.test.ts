import { beforeEach, describe, expect, it } from "vitest";
import { useAppEnvironment } from "../support/app-env";
import { buildAddress, buildOrder } from "../factories/orders";

useAppEnvironment();
const { default: prisma } = await import("../../app/db/db.server");
const { saveMirroredOrders } = await import("../../app/orders/mirror-store.server");
const { redactCustomer, redactShop, reportCustomerData } = await import("../../app/webhooks/compliance.server");

const SHOP = "compliance.myshopify.com";
const OTHER = "other-shop.myshopify.com";
/** The shop's context as the webhook-delivery job gives it to compliance work: its database and shop. */
const ctx = { db: prisma, shop: SHOP };

function mirrored(email: string, customerId: string | null = null) {
  const order = buildOrder({ email, shippingAddress: buildAddress({ name: email }) });
  return {
    ...order,
    customerId,
    createdAt: "2026-11-01T10:00:00.000Z",
    updatedAt: null,
    cancelledAt: null,
    tags: [],
    displayFulfillmentStatus: "UNFULFILLED",
    shippingLine: null,
    note: "Leave it with the porter",
    customAttributes: [{ key: "Gift message", value: `Happy birthday from ${email}` }],
    fulfillmentOrders: order.fulfillmentOrders.map((fo) => ({ ...fo, assignedLocationId: null })),
  };
}

describe("compliance webhooks", () => {
  const ada = mirrored("ada@example.com");
  const adaAgain = mirrored("ada@example.com");
  const bob = mirrored("bob@example.com");
  const adaElsewhere = mirrored("ada@example.com");
  // Placed by the same customer under the email they use now: the mirror knows whose it is.
  const adaRenamed = mirrored("ada.new@example.com", "gid://shopify/Customer/7");

  const receiver = {
    name: "Ada Lovelace",
    company: "",
    address1: "12 St James's Sq",
    address2: "",
    city: "London",
    state: "",
    zip: "SW1Y 4JH",
    country: "GB",
    phone: "+442071234567",
  };
  /** A shipment of `orderId`: delivered and fulfilled, or still waiting for its fulfillment. */
  const shipment = (orderId: string, fulfillmentStatus: "FULFILLED" | "PENDING") =>
    prisma.shipment.create({
      data: {
        shop: SHOP,
        orderId,
        orderName: "#1001",
        fulfillmentOrderId: "gid://shopify/FulfillmentOrder/1",
        lines: "[]",
        request: JSON.stringify({ shipmentReference: "#1001", receiver }),
        quoteStatus: "QUOTED",
        bookingStatus: "BOOKED",
        trackingNumber: `TRK-${fulfillmentStatus}`,
        fulfillmentStatus,
      },
    });

  beforeEach(async () => {
    await prisma.mirrorOrder.deleteMany({});
    await prisma.shipment.deleteMany({});
    await saveMirroredOrders({ db: prisma, shop: SHOP, now: () => new Date() }, [ada, adaAgain, bob, adaRenamed]);
    await saveMirroredOrders({ db: prisma, shop: OTHER, now: () => new Date() }, [adaElsewhere]);
  });

  it("GIVEN a customer with a shipment WHEN data is requested THEN the shipment's receiver and tracking are reported", async () => {
    await shipment(ada.id, "FULFILLED");
    const report = await reportCustomerData(ctx, { shop_domain: SHOP, customer: { id: 7, email: "ada@example.com" }, orders_requested: [] });
    expect(report.shipments).toEqual([{ orderId: ada.id, orderName: "#1001", receiver, carrierCode: null, trackingNumber: "TRK-FULFILLED", bookNumber: null }]);
  });

  it("GIVEN customers/redact THEN finished shipments are erased and one awaiting its fulfillment keeps its row without the receiver", async () => {
    await shipment(ada.id, "FULFILLED");
    const waiting = await shipment(adaAgain.id, "PENDING");
    const bobs = await shipment(bob.id, "FULFILLED");
    await redactCustomer(ctx, { shop_domain: SHOP, customer: { id: 7, email: "ada@example.com" }, orders_to_redact: [] });
    expect((await prisma.shipment.findMany({ select: { id: true } })).map((row) => row.id).sort()).toEqual([waiting.id, bobs.id].sort());
    const kept = await prisma.shipment.findUniqueOrThrow({ where: { id: waiting.id } });
    expect(kept.request).not.toContain("Ada Lovelace");
    expect(kept.request).not.toContain("St James");
    expect(kept).toMatchObject({ trackingNumber: "TRK-PENDING", fulfillmentStatus: "PENDING" });
  });

  it("GIVEN customers/data_request THEN the report lists that customer's orders in this shop only (by email or as placed by them), with their notes and gift messages", async () => {
    const report = await reportCustomerData(ctx, { shop_domain: SHOP, customer: { id: 7, email: "ada@example.com" }, orders_requested: [] });
    expect(report.orders.map((order) => order.id).sort()).toEqual([ada.id, adaAgain.id, adaRenamed.id].sort());
    expect(report.orders[0]?.shippingAddress).toMatchObject({ name: "ada@example.com" });
    expect(report.orders[0]).toMatchObject({
      note: "Leave it with the porter",
      customAttributes: [{ key: "Gift message", value: "Happy birthday from ada@example.com" }],
    });
  });

  it("GIVEN customers/redact naming one order by numeric id THEN that order and the customer's others are erased, nobody else's", async () => {
    const erased = await redactCustomer(ctx, {
      shop_domain: SHOP,
      customer: { id: 7, email: "ada@example.com" },
      orders_to_redact: [Number(ada.id.split("/").pop())],
    });
    expect(erased).toBe(3);
    expect(await prisma.mirrorOrder.findMany({ select: { id: true } })).toEqual(expect.arrayContaining([{ id: bob.id }, { id: adaElsewhere.id }]));
    expect(await prisma.mirrorFulfillmentOrder.count({ where: { orderId: ada.id } })).toBe(0);
  });

  it("GIVEN shop/redact THEN nothing of the shop is left, and other shops keep theirs", async () => {
    await prisma.session.create({ data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: "x" } });
    await shipment(ada.id, "FULFILLED");
    await prisma.shippingAccount.create({
      data: { shop: SHOP, customerId: "c1", email: "m@example.com", sealedPassword: "v1.x.y.z", origin: "CONNECTED", connectedAt: new Date() },
    });
    await prisma.shopSettings.create({ data: { shop: SHOP, data: "{}" } });
    await prisma.shippingRule.create({ data: { shop: SHOP, position: 0, name: "Abroad", data: "{}" } });
    await prisma.productPreset.create({ data: { shop: SHOP, targetId: "gid://shopify/Product/1", title: "Mug", data: "{}" } });
    await prisma.flowTriggerWorkflow.create({
      data: { shop: SHOP, handle: "shipping-label-bought", enabled: true, callbackAt: new Date(), updatedAt: new Date() },
    });
    await redactShop(ctx);
    expect(await prisma.flowTriggerWorkflow.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.shippingRule.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.productPreset.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.shipment.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.shippingAccount.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.shopSettings.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.mirrorOrder.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.mirrorFulfillmentOrder.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.mirrorOrder.count({ where: { shop: OTHER } })).toBe(1);
  });

  it("GIVEN a malformed payload THEN it is refused, not half-applied", async () => {
    await expect(redactCustomer(ctx, { shop_domain: SHOP })).rejects.toThrow();
    expect(await prisma.mirrorOrder.count({ where: { shop: SHOP } })).toBe(4);
  });
});
