import { describe, expect, it } from "vitest";
import { buildCommercialInvoice, buildPiece, buildQuoteShipment, buildUkReceiver } from "../../test/factories/shipping-api";
import { MAX_JSON_DEPTH, MAX_JSON_STRING_CHARS, jsonCostProblem } from "./json-cost";

describe("jsonCostProblem", () => {
  it("GIVEN a real 500-shipment Batch Quote body THEN no problem", () => {
    const shipment = buildQuoteShipment({
      receiver: buildUkReceiver(),
      pieces: [buildPiece({ declaredValue: "52.00" })],
      commercialInvoice: buildCommercialInvoice(),
    });
    expect(jsonCostProblem(JSON.stringify({ shipments: Array.from({ length: 500 }, () => shipment) }))).toBeNull();
  });

  it.each([
    ["a string at the limit", `{"name":"${"x".repeat(MAX_JSON_STRING_CHARS)}"}`, null],
    ["a string one over the limit", `{"name":"${"x".repeat(MAX_JSON_STRING_CHARS + 1)}"}`, /longer than 8000 characters \(in "name"\)/],
    ["escaped quotes inside a long string", `{"a":"${'\\"'.repeat(MAX_JSON_STRING_CHARS)}"}`, /longer than/],
    ["brackets inside strings", `{"a":"${"[".repeat(100)}"}`, null],
    ["nesting at the limit", "[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH), null],
    ["nesting one deeper", `{"shipments":${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}}`, /deeper than 32 levels \(in "shipments"\)/],
    ["objects nested deep", '{"a":'.repeat(40) + "1" + "}".repeat(40), /deeper than 32/],
  ])("GIVEN %s THEN the problem (or none) is found", (_case, text, problem) => {
    const found = jsonCostProblem(text);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });
});
