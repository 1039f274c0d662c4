import { describe, expect, it } from "vitest";
import {} from "../../test/factories/shipping-api";
import { type RejectionRow, itAcceptsEach, itRejectsEach } from "../../test/support/contract-rows";
import { addressText, Decimal, ErrorBody, formatMoney, IdParam } from "../contract";

// What every endpoint shares: decimals and money, ids in paths, addresses as text, the error body.

const primitiveRules: RejectionRow[] = [["an error body without category", ErrorBody, { error: "Nope" }, "errorCategory"]];

describe("Shipping API contract, primitives and errors: documented shapes", () => {
  itAcceptsEach([["an error body with an unknown category", ErrorBody, { error: "Slow down", errorCategory: "SOMETHING_NEW" }]]);
});

describe("Shipping API contract, primitives and errors: rules", () => {
  itRejectsEach(primitiveRules);

  it.each([
    ["a digit string beyond the safe-integer range", "9007199254740993"],
    ["a number beyond the safe-integer range", 2 ** 60],
    ["zero", "0"],
    ["a hexadecimal string", "0x10"],
  ])("GIVEN an id path parameter that is %s WHEN parsed THEN it is refused, never rounded to another id", (_case, value) => {
    expect(IdParam.safeParse(value).success).toBe(false);
  });

  it("GIVEN the largest safe id as digits WHEN parsed THEN it is that number", () => {
    expect(IdParam.parse(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe("Shipping API contract, primitives and errors: canonical output", () => {
  it.each<[unknown, string]>([
    ["12.50", "12.50"],
    [12.5, "12.5"],
    [0, "0"],
    [-3.1, "-3.1"],
    [1e-7, "0.0000001"],
    [1e21, "1000000000000000000000"],
    [0.1, "0.1"],
    [123.45, "123.45"],
  ])("GIVEN the decimal %j WHEN parsed THEN the output is the decimal string %j", (input, output) => {
    expect(Decimal.parse(input)).toBe(output);
  });

  it.each<[unknown]>([[Number.POSITIVE_INFINITY], [Number.NaN], ["12."], [".5"], ["+1"], [""], [null]])(
    "GIVEN %j WHEN parsed as a decimal THEN it is rejected",
    (input) => {
      expect(Decimal.safeParse(input).success).toBe(false);
    },
  );

  it.each<[string | number, string]>([
    [12.5, "12.50"],
    ["7", "7.00"],
    [0.1 + 0.2, "0.30"],
    [1.005, "1.01"],
    ["2.675", "2.68"],
    ["-0.004", "0.00"],
    ["-12.345", "-12.35"],
    ["99.999", "100.00"],
  ])("GIVEN money %j WHEN formatted THEN it has two decimals (%s)", (input, output) => {
    expect(formatMoney(input)).toBe(output);
  });

  it("GIVEN a partial address with a null zip WHEN read as text THEN every field is present and the missing ones are empty", () => {
    expect(addressText({ name: "Ada", country: "IE", zip: null, city: "Dublin" })).toEqual({
      name: "Ada",
      company: "",
      address1: "",
      address2: "",
      city: "Dublin",
      state: "",
      zip: "",
      country: "IE",
      phone: "",
      email: "",
    });
  });
});
