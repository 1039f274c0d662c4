import { describe, expect, it } from "vitest";
import { buildFulfillmentOrder, buildMirroredOrder } from "../factories/orders";
import { useAppEnvironment } from "../support/app-env";

// The overview's figures on a real SQLite database: booked rows in and out of the period, another shop's
// bookings, orders waiting at several ages; and the CSV it exports.
useAppEnvironment();
const { default: prisma } = await import("../../app/db/db.server");
const { saveMirroredOrders } = await import("../../app/orders/mirror-store.server");
const { averageAmount, overviewCsv, shippingOverview } = await import("../../app/overview/overview.server");
const { OverviewQuery } = await import("../../app/overview/overview");
const { serviceNamesOf } = await import("../../app/shipping/service-names");

// The account's names as List Services gives them; NPS is not in the catalog, so its code is all there is.
const NAMES = serviceNamesOf([
  { carrierCode: "BLP", carrierLabel: "Blue Line Parcel", serviceCode: "BLP_GROUND", serviceLabel: "Ground" },
  { carrierCode: "MRX", carrierLabel: "Meridian Express", serviceCode: "MRX_2DAY", serviceLabel: "2nd Day" },
]);

const SHOP = "overview.myshopify.com";
const NOW = new Date("2026-11-24T12:00:00Z");
const DAY = 24 * 60 * 60 * 1000;

let sequence = 0;
async function bookedShipment(shop: string, carrierCode: string, serviceCode: string, cost: string, country: string, daysAgo: number) {
  const number = 9000 + ++sequence;
  await prisma.shipment.create({
    data: {
      shop,
      orderId: `gid://shopify/Order/${number}`,
      orderName: `#${number}`,
      fulfillmentOrderId: `gid://shopify/FulfillmentOrder/${number}`,
      lines: "[]",
      request: JSON.stringify({ receiver: { country } }),
      quoteStatus: "QUOTED",
      bookingStatus: "BOOKED",
      carrierCode,
      serviceCode,
      shippingCost: cost,
      currency: "USD",
      bookedAt: new Date(NOW.getTime() - daysAgo * DAY),
    },
  });
}

await bookedShipment(SHOP, "BLP", "BLP_GROUND", "10.10", "US", 1);
await bookedShipment(SHOP, "BLP", "BLP_GROUND", "5.05", "US", 3);
await bookedShipment(SHOP, "MRX", "MRX_2DAY", "20.00", "GB", 10);
await bookedShipment(SHOP, "NPS", "NPS_GROUND_ADVANTAGE", "7.77", "CA", 45); // outside 30 days
await bookedShipment("elsewhere.myshopify.com", "BLP", "BLP_GROUND", "99.00", "US", 1);
const ordersAt = (days: number[]) => days.map((age) => buildMirroredOrder({ createdAt: new Date(NOW.getTime() - age * DAY - 1000).toISOString() }));
await saveMirroredOrders({ db: prisma, shop: SHOP, now: () => NOW }, [
  ...ordersAt([0, 2, 5, 12]),
  buildMirroredOrder({
    fulfillmentOrders: [buildFulfillmentOrder({ status: "ON_HOLD", holds: [{ reason: "OTHER", reasonNotes: null }], supportedActions: [] })],
  }),
]);

describe("shippingOverview", () => {
  it("GIVEN bookings over two months and two shops THEN the last 30 days' labels, spend by carrier and service (by name), average, countries (by name) and waiting orders", async () => {
    const overview = await shippingOverview({ db: prisma, shop: SHOP, now: () => NOW }, 30, NAMES);
    expect(overview).toMatchObject({
      currency: "USD",
      labelsBought: 3,
      totalSpend: "35.15",
      averageCost: "11.72",
      byCarrier: [
        { key: "MRX", label: "Meridian Express", carrierCode: "MRX", labels: 1, spend: "20.00" },
        { key: "BLP", label: "Blue Line Parcel", carrierCode: "BLP", labels: 2, spend: "15.15" },
      ],
      byService: [
        { key: "MRX/MRX_2DAY", label: "Meridian Express · 2nd Day", carrierCode: "MRX", serviceCode: "MRX_2DAY", labels: 1, spend: "20.00" },
        { key: "BLP/BLP_GROUND", label: "Blue Line Parcel · Ground", carrierCode: "BLP", serviceCode: "BLP_GROUND", labels: 2, spend: "15.15" },
      ],
      byCountry: [
        { country: "US", name: "United States", labels: 2 },
        { country: "GB", name: "United Kingdom", labels: 1 },
      ],
      performance: [],
      waiting: {
        orders: 4,
        oldestDays: 12,
        byAge: [
          { label: "Under 1 day", orders: 1 },
          { label: "1–2 days", orders: 1 },
          { label: "3–7 days", orders: 1 },
          { label: "Over 7 days", orders: 1 },
        ],
      },
    });
    const ninety = await shippingOverview({ db: prisma, shop: SHOP, now: () => NOW }, 90, NAMES);
    expect(ninety.labelsBought).toBe(4);
    // A carrier the catalog does not name keeps its code, and its service reads as words, never a raw code.
    expect(ninety.byService.find((row) => row.carrierCode === "NPS")?.label).toBe("NPS · Ground Advantage");
  });

  it("GIVEN a shop without bookings THEN zero labels and no average", async () => {
    expect(await shippingOverview({ db: prisma, shop: "empty.myshopify.com", now: () => NOW }, 7)).toMatchObject({
      labelsBought: 0,
      totalSpend: "0.00",
      averageCost: null,
      byCarrier: [],
      waiting: { orders: 0, oldestDays: null },
    });
  });

  it("GIVEN the overview of a shop in Auckland THEN the CSV has a row per figure, names with their codes in their own columns, the period in the shop's days", async () => {
    const csv = overviewCsv(await shippingOverview({ db: prisma, shop: SHOP, now: () => NOW }, 30, NAMES), "Pacific/Auckland");
    expect(csv.split("\r\n").slice(0, 8)).toEqual([
      "Section,Name,Carrier code,Service code,Country code,Labels,Amount,Currency",
      // 12:00 UTC on Nov 24 is already 01:00 on Nov 25 in Auckland.
      "Period,Last 30 days (2026-10-26 to 2026-11-25),,,,,,",
      "Total,Labels bought,,,,3,35.15,USD",
      "Total,Average cost per shipment,,,,,11.72,USD",
      "Spend by carrier,Meridian Express,MRX,,,1,20.00,USD",
      "Spend by carrier,Blue Line Parcel,BLP,,,2,15.15,USD",
      "Spend by service,Meridian Express · 2nd Day,MRX,MRX_2DAY,,1,20.00,USD",
      "Spend by service,Blue Line Parcel · Ground,BLP,BLP_GROUND,,2,15.15,USD",
    ]);
    expect(csv).toContain("Shipments by country,United States,,,US,2,,");
    expect(csv).toContain("Orders waiting to ship,Over 7 days,,,,1,,");
  });

  it("GIVEN amounts THEN the average is exact to the cent, rounding half up; GIVEN an unknown period THEN it is refused naming it", () => {
    expect(averageAmount("35.15", 3)).toBe("11.72");
    expect(averageAmount("0.05", 2)).toBe("0.03");
    expect(averageAmount("100", 3)).toBe("33.33");
    expect(OverviewQuery.parse({}).period).toBe(30);
    expect(OverviewQuery.safeParse({ period: "12" }).error?.issues[0]?.message).toBe("must be one of 7, 30, 90, 365 days");
  });
});
