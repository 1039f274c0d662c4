import { describe, expect, it } from "vitest";
import { compareAmounts, formatMoney, sumAmounts } from "./money";

describe("decimal amounts", () => {
  it.each([
    ["12.50", "12.5", 0],
    ["9.99", "10", -1],
    ["10.001", "10.00", 1],
    ["-1.25", "0", -1],
    ["0.1", "0.10", 0],
    // Floats would call these equal (both round to 9007199254740992).
    ["9007199254740993.00", "9007199254740992", 1],
  ])("GIVEN %s and %s WHEN compared THEN the sign is %i", (a, b, sign) => {
    expect(Math.sign(compareAmounts(a, b))).toBe(sign);
  });

  it.each([
    [[], "0.00"],
    [["0.1", "0.2"], "0.30"],
    [["12.345", "1"], "13.345"],
    [["5.00", "-7.25"], "-2.25"],
    [["0.05", "0.05"], "0.10"],
  ])("GIVEN %j WHEN summed THEN the total is exactly %s", (amounts, total) => {
    expect(sumAmounts(amounts)).toBe(total);
  });

  it("GIVEN something that is not a decimal WHEN compared THEN it is refused, naming the value", () => {
    expect(() => compareAmounts("12,50", "1")).toThrow('"12,50"');
  });

  it.each([
    ["25", "USD", "$25.00"],
    ["7.1", "GBP", "£7.10"],
    ["12", "CAD", "CA$12.00"],
  ])("GIVEN %s %s WHEN formatted THEN it reads %s", (amount, currency, text) => {
    expect(formatMoney(amount, currency)).toBe(text);
  });
});
