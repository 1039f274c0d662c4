import { describe, expect, it } from "vitest";
import { carrierPerformance, promisedTransitDays, type DeliveredShipment } from "./carrier-performance";

const BOOKED = new Date("2026-11-02T15:00:00Z");
const days = (n: number) => new Date(BOOKED.getTime() + n * 24 * 60 * 60 * 1000);

function delivered(overrides: Partial<DeliveredShipment>): DeliveredShipment {
  return { carrierCode: "BLP", serviceCode: "BLP_GROUND", serviceDescription: "Blue Parcel Ground", inTransitAt: days(1), deliveredAt: days(4), ...overrides };
}

describe("carrierPerformance", () => {
  it("GIVEN services of each speed class THEN the promised days follow the class read from the name", () => {
    expect(promisedTransitDays({ serviceCode: "MRX_OVERNIGHT", serviceDescription: "Priority Overnight" })).toBe(1);
    expect(promisedTransitDays({ serviceCode: "MRX_2DAY", serviceDescription: null })).toBe(2);
    expect(promisedTransitDays({ serviceCode: "NPS_PRIORITY", serviceDescription: "Priority Mail" })).toBe(3);
    expect(promisedTransitDays({ serviceCode: "BLP_GROUND", serviceDescription: "Blue Parcel Ground" })).toBe(5);
  });

  it("GIVEN deliveries of two carriers THEN on-time counts whole days in transit from the pickup scan against the promise", () => {
    const result = carrierPerformance([
      delivered({}), // 3 days from pickup: on time for ground
      delivered({ deliveredAt: days(7) }), // 6 days: late
      delivered({ deliveredAt: new Date(days(6).getTime() - 3 * 60 * 60 * 1000) }), // 4.9 days: 5 whole days, on time
      delivered({ carrierCode: "MRX", serviceCode: "MRX_2DAY", serviceDescription: "2Day", deliveredAt: days(4) }), // 3 days: late
    ]);
    expect(result).toEqual([
      { carrier: "BLP", carrierCode: "BLP", delivered: 3, onTime: 2, onTimeRate: 2 / 3, averageTransitDays: 4.7 },
      { carrier: "MRX", carrierCode: "MRX", delivered: 1, onTime: 0, onTimeRate: 0, averageTransitDays: 3 },
    ]);
  });

  it("GIVEN no deliveries THEN no rows", () => {
    expect(carrierPerformance([])).toEqual([]);
  });
});
