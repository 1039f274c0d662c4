import { describe, expect, it } from "vitest";
import { addressProblems } from "./address-checks";

describe("addresses checked as carriers will, before quoting", () => {
  const us = { countryCode: "US", provinceCode: "OR", zip: "97205", phone: "+1 (503) 555-0101" };

  it.each([
    ["a US address with a ZIP and a phone", us],
    ["a ZIP+4", { ...us, zip: "97205-1234" }],
    ["no phone (Shopify does not require one)", { ...us, phone: null }],
    ["a US phone without its country code", { ...us, phone: "503 555 0101" }],
    ["a foreign phone with its own country code", { ...us, phone: "+44 20 7946 0123" }],
    ["an APO military state", { ...us, provinceCode: "AE", zip: "09001" }],
    ["a Canadian postal code without its space", { countryCode: "CA", provinceCode: "ON", zip: "M5V3L9", phone: "+1 416-555-0199" }],
    ["a UK postcode", { countryCode: "GB", provinceCode: null, zip: "NW1 6XE", phone: "+44 20 7946 0123" }],
    ["a Japanese postal code", { countryCode: "JP", provinceCode: "JP-13", zip: "100-0005", phone: "+81 3 3201 1234" }],
    ["a country without postal codes", { countryCode: "HK", provinceCode: null, zip: null, phone: null }],
    ["an Irish address without an Eircode", { countryCode: "IE", provinceCode: null, zip: null, phone: null }],
  ])("GIVEN %s THEN carriers would take it", (_, address) => {
    expect(addressProblems(address)).toEqual([]);
  });

  it.each([
    ["a 4-digit US ZIP", { ...us, zip: "8020" }, "the ZIP code “8020” is not a United States ZIP code (5 digits, like 94107, or ZIP+4, like 94107-1234)"],
    ["no US ZIP", { ...us, zip: " " }, "there is no ZIP code; United States addresses need one (5 digits, like 94107, or ZIP+4, like 94107-1234)"],
    [
      "a US ZIP on a Canadian address",
      { countryCode: "CA", provinceCode: "ON", zip: "94107", phone: null },
      "the postal code “94107” is not a Canada postal code (letter digit letter digit letter digit, like M5V 3L9)",
    ],
    [
      "a German postal code of 4 digits",
      { countryCode: "DE", provinceCode: null, zip: "1011", phone: null },
      "the postal code “1011” is not a Germany postal code (5 digits, like 10117)",
    ],
    ["a state that does not exist", { ...us, provinceCode: "XX" }, "“XX” is not a US state code (two letters, like NY)"],
    [
      "a US state on a Canadian address",
      { countryCode: "CA", provinceCode: "NY", zip: "M5V 3L9", phone: null },
      "“NY” is not a Canadian province or territory code (two letters, like ON)",
    ],
    [
      "a phone too short for the US",
      { ...us, phone: "555-0101" },
      "the phone number “555-0101” is not a complete United States number (or one with its own country code, like +44 20 7946 0000)",
    ],
    [
      "a phone of an area code that does not exist",
      { ...us, phone: "+1 211-555-0101" },
      "the phone number “+1 211-555-0101” is not a complete United States number (or one with its own country code, like +44 20 7946 0000)",
    ],
  ])("GIVEN %s THEN it says what to fix", (_, address, problem) => {
    expect(addressProblems(address)).toEqual([problem]);
  });

  it("GIVEN several problems THEN each is named", () => {
    expect(addressProblems({ ...us, zip: "8020", provinceCode: "XX", phone: "12" })).toHaveLength(3);
  });
});
