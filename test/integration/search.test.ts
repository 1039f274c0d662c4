import { beforeAll, describe, expect, it } from "vitest";
import type { Shipment } from "@prisma/client";
import { buildQuoteShipment } from "../factories/shipping-api";
import { useAppEnvironment } from "../support/app-env";
import { useConnectedShop } from "../support/connected-shop";
import { ok, startService, type RunningService } from "../support/service-harness";

// The Shipments page's search against the real service, tied back to orders in a real SQLite database.
const service: RunningService = await startService();
const { databaseUrl } = useAppEnvironment({ SHIPPING_API_URL: service.baseUrl });
const { default: prisma } = await import("../../app/db/db.server");
const { shippingContext } = await import("../factories/context");
const { createBatches } = await import("../../app/booking/creation.server");
const { bookBatch } = await import("../../app/booking/batch-booking.server");
const { searchBookedShipments, SearchKeyword } = await import("../../app/search/shipment-search.server");

const SHOP = "search.myshopify.com";
const connected = await useConnectedShop({ service, db: prisma, databaseUrl, shop: SHOP });
const { account } = connected;
let booked: Shipment[];

beforeAll(async () => {
  const shipments = await connected.quoted({ count: 3, serviceCode: "BLP_GROUND" });
  const ctx = await shippingContext(prisma, SHOP, service.clock.now());
  const { batches } = await createBatches(ctx, { name: "Searchable", shipmentIds: shipments.map((shipment) => shipment.id) });
  expect(await bookBatch(ctx, batches[0]!.id)).toMatchObject({ ok: true, booked: 3 });
  booked = await prisma.shipment.findMany({ where: { id: { in: shipments.map((shipment) => shipment.id) } }, orderBy: { createdAt: "asc" } });
});

const search = async (keyword: string) => {
  const result = await searchBookedShipments(await shippingContext(prisma, SHOP, service.clock.now()), keyword);
  if (!result.ok) throw new Error(result.message);
  return result.rows;
};

describe("searching booked shipments", () => {
  it.each([
    ["its tracking number", (shipment: Shipment) => shipment.trackingNumber!],
    ["its book number", (shipment: Shipment) => shipment.bookNumber!],
    ["its order name", (shipment: Shipment) => shipment.orderName],
    ["its order number without #", (shipment: Shipment) => shipment.orderName.replace("#", "")],
  ])(
    "GIVEN a batch-booked order WHEN searched by %s THEN it is found with carrier, service, tracking, cost, and links to the order in the app and in Shopify",
    async (_by, keyword) => {
      const shipment = booked[1]!;
      const rows = await search(keyword(shipment));
      expect(rows).toHaveLength(1);
      const number = shipment.orderId.split("/").pop();
      expect(rows[0]).toEqual({
        bookNumber: shipment.bookNumber,
        trackingNumber: shipment.trackingNumber,
        trackingNumbers: [shipment.trackingNumber],
        carrierCode: "BLP",
        serviceCode: "BLP_GROUND",
        shippingCost: shipment.shippingCost,
        currency: "USD",
        voided: false,
        shipmentDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        receiver: "Ada Lovelace, Portland, US",
        reference: shipment.orderName,
        order: {
          orderId: shipment.orderId,
          orderNumber: number,
          orderName: shipment.orderName,
          appPath: `/app/orders/${number}/book`,
          adminUrl: `shopify://admin/orders/${number}`,
        },
      });
    },
  );

  it("GIVEN a person's name WHEN searched THEN every booking to them, each tied to its order", async () => {
    const rows = await search("ada lovelace");
    expect(rows.map((row) => row.order?.orderName).sort()).toEqual(booked.map((shipment) => shipment.orderName).sort());
  });

  it("GIVEN a booking made outside Consign WHEN found THEN it is listed without an order link", async () => {
    const outside = ok(
      await account.bookShipment({
        body: {
          ...buildQuoteShipment({ shipmentReference: "PHONE-ORDER-7" }),
          carrierCode: "BLP",
          serviceCode: "BLP_GROUND",
          packageTypeCode: "BLP_PACKAGE",
          pieces: [{ weight: "2", length: "10", width: "8", height: "4", insuranceAmount: null, declaredValue: null }],
        },
      }),
    );
    const rows = await search(outside.bookNumber);
    expect(rows).toEqual([expect.objectContaining({ bookNumber: outside.bookNumber, reference: "PHONE-ORDER-7", order: null })]);
  });

  it("GIVEN nothing matches THEN no rows; GIVEN a blank keyword THEN the page says what to type", async () => {
    expect(await search("no-such-thing-anywhere")).toEqual([]);
    expect(SearchKeyword.safeParse("   ").error?.issues[0]?.message).toBe("Type an order number, a name, a tracking number or a book number.");
  });
});
