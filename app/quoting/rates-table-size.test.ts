import { describe, expect, it } from "vitest";
import { RATES_ROW_PX, RATES_TABLE_COLUMNS, ratesTableHeight, wrappedLines } from "./rates-table-size";

const row = (overrides: Partial<Parameters<typeof ratesTableHeight>[0][number]> = {}) => ({
  carrier: "USPS",
  service: "Ground Advantage",
  speed: "Standard (by service name)",
  surcharges: "—",
  expired: false,
  ...overrides,
});

describe("the rates table's height, known before its rates are read", () => {
  it.each([
    ["USPS", RATES_TABLE_COLUMNS.carrier, 1],
    ["Priority Mail Express International", RATES_TABLE_COLUMNS.service, 2],
    ["Fuel $1.20, Residential $4.00, Delivery area $3.25", RATES_TABLE_COLUMNS.surcharges, 3],
    ["", RATES_TABLE_COLUMNS.speed, 1],
    // A word wider than the column is not broken: it takes its own line.
    ["Internationalexpresssaverpriority", RATES_TABLE_COLUMNS.service, 1],
    ["A Internationalexpresssaverpriority B", RATES_TABLE_COLUMNS.service, 3],
  ])("%j within %d px takes %d line(s)", (text, width, lines) => {
    expect(wrappedLines(text, width)).toBe(lines);
  });

  it("is the heading and one line per rate when nothing wraps", () => {
    expect(ratesTableHeight([row({ service: "Ground", speed: null }), row({ service: "Express", speed: null })])).toBe(3 * RATES_ROW_PX);
    expect(ratesTableHeight([])).toBe(RATES_ROW_PX);
  });

  it("grows each row to its tallest cell, not to the sum of its cells", () => {
    const oneTall = ratesTableHeight([row({ service: "Priority Mail Express International", speed: null })]);
    const twoTall = ratesTableHeight([row({ service: "Priority Mail Express International", speed: "Express (by service name)" })]);
    expect(oneTall).toBe(RATES_ROW_PX + RATES_ROW_PX + 20);
    expect(twoTall).toBe(oneTall);
    expect(ratesTableHeight([row({ surcharges: "Fuel $1.20, Residential $4.00, Delivery area $3.25", speed: null })])).toBe(RATES_ROW_PX * 2 + 40);
  });

  it("leaves the Expired badge its room beside the service", () => {
    expect(ratesTableHeight([row({ service: "Ground Saver", speed: null, expired: true })])).toBeGreaterThan(
      ratesTableHeight([row({ service: "Ground Saver", speed: null })]),
    );
  });
});
