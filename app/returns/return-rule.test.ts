import { describe, expect, it } from "vitest";
import { NO_NAMES } from "../shipping/service-names";
import { offersScanBased, pickReturnRate, servesReturnFrom, type ReturnRate } from "./return-rule";

const rate = (quoteId: number, carrierCode: string, totalAmount: string, scanBased = false): ReturnRate => ({
  quoteId,
  carrierCode,
  serviceCode: `${carrierCode}_RETURN`,
  serviceDescription: "Ground Return",
  totalAmount,
  currency: "USD",
  scanBased,
});

const names = { carriers: { NPS: "National Postal Service", BLP: "Blue Line Parcel" }, services: {} };
const postal = rate(1, "NPS", "9.40", true);
const parcel = rate(2, "BLP", "8.10");
const express = rate(3, "MRX", "31.00");

describe("the return rule", () => {
  it.each([
    { rule: { kind: "cheapest" } as const, rates: [postal, parcel, express], quoteId: 2, reason: "Cheapest of 3 rates", scanBased: false },
    { rule: { kind: "cheapest" } as const, rates: [postal], quoteId: 1, reason: "The only rate offered", scanBased: true },
    {
      rule: { kind: "scan-based" } as const,
      rates: [postal, parcel],
      quoteId: 1,
      reason: "Scan-based: it costs nothing unless the customer sends the parcel",
      scanBased: true,
    },
    {
      rule: { kind: "scan-based" } as const,
      rates: [parcel, express],
      quoteId: 2,
      reason: "No scan-based return service for this parcel: cheapest of 2 rates",
      scanBased: false,
    },
    {
      rule: { kind: "preferred", carrierCode: "MRX" } as const,
      rates: [postal, parcel, express],
      quoteId: 3,
      reason: "Your preferred carrier for returns, MRX",
      scanBased: false,
    },
    {
      rule: { kind: "preferred", carrierCode: "NPS" } as const,
      rates: [parcel, express],
      quoteId: 2,
      reason: "National Postal Service has no return service for this parcel: cheapest of 2 rates",
      scanBased: false,
    },
  ])(
    "GIVEN the rule $rule.kind WHEN it picks among $rates.length rates THEN it picks quote $quoteId: $reason",
    ({ rule, rates, quoteId, reason, scanBased }) => {
      expect(pickReturnRate(rates, rule, names)).toEqual({ quoteId, reason, scanBased });
    },
  );

  it("GIVEN no rate THEN nothing is picked", () => {
    expect(pickReturnRate([], { kind: "cheapest" }, NO_NAMES)).toBeNull();
  });

  it("GIVEN an inbound service THEN its country lists are the sender's countries; an outbound service serves no return", () => {
    const inbound = { inbound: true, supportedCountries: null, unsupportedCountries: ["US", "CU"] };
    expect(servesReturnFrom(inbound, "FR")).toBe(true);
    expect(servesReturnFrom(inbound, "CU")).toBe(false);
    expect(servesReturnFrom({ inbound: true, supportedCountries: ["US"], unsupportedCountries: null }, "US")).toBe(true);
    expect(servesReturnFrom({ inbound: false, supportedCountries: ["US"], unsupportedCountries: null }, "US")).toBe(false);
    expect(offersScanBased({ carrierCode: "NPS", inbound: true })).toBe(true);
    expect(offersScanBased({ carrierCode: "NPS", inbound: false })).toBe(false);
    expect(offersScanBased({ carrierCode: "BLP", inbound: true })).toBe(false);
  });
});
