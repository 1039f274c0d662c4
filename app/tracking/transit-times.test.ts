import { describe, expect, it } from "vitest";
import { describeTransit, transitDays, transitStats, type TransitSample } from "./transit-times";

const DAY = 86_400_000;
const sample = (days: number, serviceCode = "BLP_GROUND", zone: string | null = "5"): TransitSample => ({
  carrierCode: "BLP",
  serviceCode,
  zone,
  inTransitAt: new Date(Date.UTC(2026, 10, 1, 17)),
  deliveredAt: new Date(Date.UTC(2026, 10, 1, 17) + days * DAY - 3 * 3_600_000),
});

describe("transitStats", () => {
  it("GIVEN deliveries of one service and zone THEN median, the usual range and the sample size", () => {
    const stats = transitStats([2, 2, 3, 3, 3, 4, 2, 3].map((d) => sample(d)));
    expect(stats).toEqual([{ carrierCode: "BLP", serviceCode: "BLP_GROUND", zone: "5", medianDays: 3, lowDays: 2, highDays: 3, sampleSize: 8 }]);
    expect(describeTransit(stats[0]!)).toBe("usually 2–3 days (8 deliveries)");
  });

  it("GIVEN fewer deliveries than the minimum THEN no statistics for that group", () => {
    expect(transitStats([sample(2), sample(2), sample(3, "BLP_GROUND", "6"), sample(2), sample(2)], 5)).toEqual([]);
  });

  it("GIVEN a pickup late in the day THEN days are rounded, at least one", () => {
    expect(transitDays(sample(1))).toBe(1);
    expect(transitDays({ inTransitAt: new Date(0), deliveredAt: new Date(3_600_000) })).toBe(1);
    expect(describeTransit({ lowDays: 1, highDays: 1, sampleSize: 5 })).toBe("usually 1 day (5 deliveries)");
  });
});
