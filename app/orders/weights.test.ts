import { describe, expect, it } from "vitest";
import { formatWeight, toNanograms, weightIn } from "./weights";

describe("exact weights", () => {
  it.each([
    [1, "POUNDS", "oz", "16.00"],
    [16, "OUNCES", "lb", "1.000"],
    [1, "KILOGRAMS", "g", "1000"],
    [453.59237, "GRAMS", "lb", "1.000"],
    [0.3, "OUNCES", "lb", "0.019"],
    [0.1, "GRAMS", "kg", "0.001"],
    [0.1, "GRAMS", "g", "1"],
    [2.5, "KILOGRAMS", "lb", "5.512"],
    [0, "POUNDS", "kg", "0.000"],
  ] as const)("GIVEN %s %s THEN %s is %s (rounded up, never to zero)", (value, from, to, expected) => {
    expect(formatWeight(toNanograms(value, from), to)).toBe(expected);
  });

  it("GIVEN a sum of many small weights THEN no precision is lost (0.1 g × 10 = 1 g exactly)", () => {
    const total = Array.from({ length: 10 }, () => toNanograms(0.1, "GRAMS")).reduce((a, b) => a + b, 0n);
    expect(total).toBe(toNanograms(1, "GRAMS"));
  });

  it("GIVEN rounding down THEN a line weight never exceeds its exact value", () => {
    expect(formatWeight(toNanograms(0.3, "OUNCES"), "lb", "down")).toBe("0.018");
  });

  it("GIVEN a negative or non-finite weight THEN it is refused", () => {
    expect(() => toNanograms(-1, "GRAMS")).toThrow(RangeError);
    expect(() => toNanograms(Number.NaN, "GRAMS")).toThrow(RangeError);
  });

  it("GIVEN 70 lb THEN weightIn kg is about 31.75", () => {
    expect(weightIn(toNanograms(70, "POUNDS"), "kg")).toBeCloseTo(31.751, 3);
  });
});
