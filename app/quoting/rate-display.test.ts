import { describe, expect, it } from "vitest";
import { billedWeight, deliverySpeed, formatWeight } from "./rate-display";

describe("weights and speeds as the rates page words them", () => {
  it.each([
    ["2.5", "lb", "2.5 lb"],
    ["40", "oz", "40 oz"],
    ["1.25", "kg", "1.25 kg"],
  ])("GIVEN %s %s THEN it reads %s", (value, unit, words) => {
    expect(formatWeight(value, unit)).toBe(words);
  });

  it.each([
    [{ quotedWeight: "3", quotedWeightType: "Dimensional" }, "lb", "3 lb billed (dimensional)"],
    [{ quotedWeight: "2.5", quotedWeightType: "Actual" }, "kg", "2.5 kg billed (actual)"],
  ])("GIVEN billed weight %j in %s THEN it reads %s", (rate, unit, words) => {
    expect(billedWeight(rate, unit)).toBe(words);
  });

  it.each([
    [{ serviceCode: "NPS_PRIORITY_EXPRESS", serviceDescription: "Priority Mail Express" }, null, "Express (by service name)"],
    [{ serviceCode: "BLP_NEXT_DAY_AIR", serviceDescription: "Next Day Air" }, null, "Overnight (by service name)"],
    [{ serviceCode: "GPC_INTL_ECONOMY", serviceDescription: "International Economy" }, null, "Ground (by service name)"],
    [{ serviceCode: "NPS_GROUND_ADVANTAGE", serviceDescription: "Ground Advantage" }, "usually 2–3 days (41 deliveries)", "usually 2–3 days (41 deliveries)"],
  ])("GIVEN %j observed %s THEN the speed reads %s", (rate, observed, words) => {
    expect(deliverySpeed(rate, observed)).toBe(words);
  });
});
