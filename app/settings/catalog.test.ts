import { describe, expect, it } from "vitest";
import { ProviderAccount, Service } from "../../shipping-api/contract";
import { buildService } from "../../test/factories/shipping-api";
import { buildCatalog, countryRule, providerAccountLabel } from "./catalog";

const service = (overrides: Parameters<typeof buildService>[0] = {}) => Service.parse(buildService(overrides));

describe("countryRule", () => {
  it.each([
    [{ supportedCountries: ["US"], unsupportedCountries: null, inbound: false }, "US only"],
    [{ supportedCountries: ["US", "CA"], unsupportedCountries: null, inbound: false }, "2 countries"],
    [
      { supportedCountries: Array.from({ length: 42 }, (_, i) => `A${String.fromCharCode(65 + (i % 26))}`), unsupportedCountries: null, inbound: false },
      "42 countries",
    ],
    [{ supportedCountries: null, unsupportedCountries: [], inbound: false }, "all countries"],
    [{ supportedCountries: null, unsupportedCountries: ["CU"], inbound: false }, "all but 1 country"],
    [{ supportedCountries: null, unsupportedCountries: ["US", "CU", "IR"], inbound: false }, "all but 3 countries"],
    [{ supportedCountries: ["US"], unsupportedCountries: null, inbound: true }, "from US only"],
  ])("GIVEN %j THEN it reads “%s”", (rule, words) => {
    expect(countryRule(rule)).toBe(words);
  });
});

describe("buildCatalog", () => {
  it("GIVEN outbound and return services THEN services keep both (marked), and presets, signatures and carriers come from outbound ones once each", () => {
    const ground = service();
    const express = service({
      serviceCode: "express",
      serviceLabel: "Express",
      signatureOptions: [
        { signatureOptionCode: "adult", signatureOptionLabel: "Adult signature" },
        { signatureOptionCode: "direct", signatureOptionLabel: "Direct" },
      ],
    });
    const returns = service({
      serviceCode: "return",
      serviceLabel: "Return",
      inbound: true,
      signatureOptions: [{ signatureOptionCode: "inbound-only", signatureOptionLabel: "Inbound only" }],
    });
    const catalog = buildCatalog([ground, express, returns], []);

    expect(catalog.services.map((s) => [s.serviceCode, s.inbound, s.countries])).toEqual([
      ["ground", false, "US only"],
      ["express", false, "US only"],
      ["return", true, "from US only"],
    ]);
    expect(catalog.carriers).toEqual([{ carrierCode: "parcel", carrierLabel: "Parcel Co" }]);
    expect(catalog.presetPackages).toEqual([
      {
        carrierCode: "parcel",
        carrierLabel: "Parcel Co",
        packageTypeCode: "flat_rate_box",
        packageTypeLabel: "Flat rate box",
        dimensions: "11.25 × 8.75 × 6 in",
      },
    ]);
    expect(catalog.signatureOptions).toEqual([
      { code: "adult", label: "Adult signature" },
      { code: "direct", label: "Direct" },
    ]);
  });

  it("GIVEN provider accounts THEN each is labelled with its provider and the masked fields as the service sent them", () => {
    const account = ProviderAccount.parse({ id: "PA1", providerCode: "parcelco", accountFields: { accountNumber: "*****4821", password: "********" } });
    expect(providerAccountLabel(account)).toBe("parcelco · accountNumber *****4821, password ********");
    expect(buildCatalog([], [account]).providerAccounts).toEqual([{ id: "PA1", label: "parcelco · accountNumber *****4821, password ********" }]);
  });
});
