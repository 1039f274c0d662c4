import { describe, expect, it } from "vitest";
import { addressInput, addressLine, EMPTY_ADDRESS, fromShopifyAddress, toAddress } from "./addresses";

describe("addresses", () => {
  it("GIVEN a Shopify location in a country without postal codes THEN the sender has no zip and the phone keeps its digits", () => {
    const input = fromShopifyAddress(
      { address1: "1 Harbour Rd", address2: null, city: "Kowloon", provinceCode: null, zip: null, countryCode: "hk", phone: "+852 2345 6789" },
      { name: "Harbour Depot", company: "Shop", email: "" },
    );
    expect(toAddress(input)).toEqual({
      name: "Harbour Depot",
      company: "Shop",
      address1: "1 Harbour Rd",
      address2: "",
      city: "Kowloon",
      state: "",
      zip: null,
      country: "HK",
      phone: "85223456789",
    });
    expect(addressLine(input)).toBe("1 Harbour Rd, Kowloon, HK");
  });

  it("GIVEN a stored address THEN its form values post back to the same address", () => {
    const stored = {
      name: "A",
      company: "",
      address1: "1 Main St",
      address2: "",
      city: "Columbus",
      state: "OH",
      zip: "43215",
      country: "US",
      phone: "6145550100",
      email: "a@b.example",
    };
    expect(toAddress(addressInput(stored))).toEqual(stored);
    expect(addressInput(null)).toEqual(EMPTY_ADDRESS);
    expect(addressLine(addressInput(stored))).toBe("1 Main St, Columbus OH 43215, US");
  });
});
