import { describe, expect, it } from "vitest";
import { createCatalog } from "./catalog";
import { convertCents, formatCents, parseCents } from "./money";
import { type RatedQuote, type RatingRequest, rateShipment } from "./rating";
import { buildAddress, buildRatingRequest } from "../test/factories/rating";
import { domesticZone, internationalZone } from "./zones";

const catalog = createCatalog();

function quotesOf(request: RatingRequest): RatedQuote[] {
  const result = rateShipment(catalog, request);
  if (result.status !== "success") throw new Error(`expected success, got ${result.error}`);
  return result.quotes;
}

function quoteFor(serviceCode: string, overrides: Partial<RatingRequest> = {}): RatedQuote {
  const quotes = quotesOf(buildRatingRequest({ serviceCode, ...overrides }));
  expect(quotes).toHaveLength(1);
  return quotes[0]!;
}

describe("weight units", () => {
  it.each([
    ["lb", "2"],
    ["oz", "32"],
    ["kg", "0.90718474"],
    ["g", "907.18474"],
  ])("GIVEN 2 lb written in %s WHEN quoted THEN the billed weight is 2 lb", (weightUnit, weight) => {
    const quote = quoteFor("NPS_GROUND_ADVANTAGE", { weightUnit, pieces: [{ weight, length: "6", width: "6", height: "6" }] });
    expect(quote.quotedWeight).toBe("2");
    expect(quote.quotedWeightType).toBe("Actual");
  });

  it("GIVEN 16 oz THEN exactly 1 lb is billed (no float round-up to 2)", () => {
    expect(quoteFor("NPS_GROUND_ADVANTAGE", { weightUnit: "oz", pieces: [{ weight: "16", length: "6", width: "6", height: "6" }] }).quotedWeight).toBe("1");
  });

  it("GIVEN 1.01 lb THEN 2 lb are billed (whole pounds, rounded up)", () => {
    expect(quoteFor("NPS_GROUND_ADVANTAGE", { pieces: [{ weight: "1.01", length: "6", width: "6", height: "6" }] }).quotedWeight).toBe("2");
  });
});

describe("dimensional weight", () => {
  it.each([
    // service, dims, unit, weight, billed, type
    ["BLP_GROUND", ["12", "10", "6"], "in", "2.5", "6", "Dimensional"], // 720 in³ / 139 = 5.18 → 6
    ["BLP_GROUND", ["30.48", "25.4", "15.24"], "cm", "2.5", "6", "Dimensional"], // the same box in cm
    ["BLP_GROUND", ["12", "10", "6"], "in", "7", "7", "Actual"],
    ["NPS_GROUND_ADVANTAGE", ["12", "12", "12"], "in", "2", "2", "Actual"], // postal: 1728 in³ is not above one cubic foot
    ["NPS_GROUND_ADVANTAGE", ["13", "12", "12"], "in", "2", "14", "Dimensional"], // 1872 / 139 = 13.47 → 14
  ] as const)("GIVEN %s with %j %s at %s lb THEN %s lb %s", (serviceCode, dims, dimUnit, weight, billed, type) => {
    const quote = quoteFor(serviceCode, { dimUnit, pieces: [{ weight, length: dims[0], width: dims[1], height: dims[2] }] });
    expect(quote.quotedWeight).toBe(billed);
    expect(quote.quotedWeightType).toBe(type);
  });

  it("GIVEN a kilogram service THEN 5000 cm³/kg and half-kilo steps apply", () => {
    const quote = quoteFor("GPC_INTL_ECONOMY", {
      receiver: buildAddress({ city: "London", state: "", zip: "WC1R 4ED", country: "GB" }),
      weightUnit: "kg",
      dimUnit: "cm",
      pieces: [{ weight: "0.8", length: "30", width: "20", height: "12" }], // actual 0.8 → 1 kg; 7200 cm³ / 5000 = 1.44 → 1.5 kg
    });
    expect(quote.quotedWeight).toBe("1.5");
    expect(quote.quotedWeightType).toBe("Dimensional");
  });

  it("GIVEN a preset box THEN its preset dimensions are used, not the request's", () => {
    const quote = quoteFor("MRX_2DAY", {
      packageTypeCode: "MRX_BOX_MEDIUM",
      dimUnit: null,
      pieces: [{ weight: "1", length: null, width: null, height: null }],
    });
    // 13.25 × 11.5 × 2.375 = 361.9 in³ / 139 = 2.6 → 3 lb
    expect(quote.quotedWeight).toBe("3");
    expect(quote.quotedWeightType).toBe("Dimensional");
  });
});

describe("zones", () => {
  it.each([
    ["10001", "10002", "1"],
    ["10001", "19104", "2"],
    ["94105", "90210", "2"],
    ["10002", "02108", "3"],
    ["10002", "60601", "5"],
    ["94105", "10002", "8"],
  ])("GIVEN ZIP %s to %s THEN zone %s", (from, to, zone) => {
    expect(domesticZone(from, to)).toBe(zone);
  });

  it.each([
    ["CA", "A"],
    ["MX", "A"],
    ["GB", "B"],
    ["DE", "B"],
    ["JP", "C"],
    ["AU", "C"],
    ["BR", "D"],
  ])("GIVEN destination %s THEN international zone %s", (country, zone) => {
    expect(internationalZone(country)).toBe(zone);
  });

  it("GIVEN a farther zone THEN the price is higher", () => {
    const near = quoteFor("BLP_GROUND", { receiver: buildAddress({ zip: "94110" }) });
    const far = quoteFor("BLP_GROUND");
    expect(near.zone).toBe("1");
    expect(far.zone).toBe("8");
    expect(far.baseCents).toBeGreaterThan(near.baseCents);
  });
});

describe("surcharges", () => {
  it("GIVEN a parcel carrier THEN fuel is 14.50 % of the base", () => {
    const quote = quoteFor("BLP_GROUND");
    const fuel = quote.surcharges.find((charge) => charge.description.startsWith("Fuel"));
    expect(fuel?.amountCents).toBe(Math.round((quote.baseCents * 1450) / 10_000));
  });

  it.each([
    [{ residential: true }, "Residential delivery", 545],
    [{ signatureOptionCode: "ADULT_SIGNATURE_REQUIRED" }, "Delivery Confirmation Adult Signature Required", 750],
    [{ pieces: [{ weight: "2", length: "10", width: "8", height: "4", insuranceAmount: "150" }] }, "Insurance (2 × 100 USD declared)", 270],
    [{ shipmentDate: "2026-11-21" }, "Saturday pickup", 1600],
    [{ receiver: buildAddress({ city: "Anchorage", state: "AK", zip: "99501" }) }, "Remote area", 1250],
  ] as const)("GIVEN %j THEN the %s surcharge is %i cents", (overrides, description, cents) => {
    const quote = quoteFor("BLP_GROUND", overrides as Partial<RatingRequest>);
    expect(quote.surcharges).toContainEqual({ description, amountCents: cents });
  });

  it("GIVEN no extras THEN only fuel applies", () => {
    expect(quoteFor("BLP_GROUND").surcharges.map((charge) => charge.description)).toEqual(["Fuel surcharge (14.50%)"]);
  });

  it("GIVEN every kind of shipment THEN total = base + Σ surcharges exactly", () => {
    const requests = [
      buildRatingRequest({
        residential: true,
        signatureOptionCode: "SIGNATURE",
        shipmentDate: "2026-11-21",
        pieces: [{ weight: "3.3", length: "11", width: "9", height: "7", insuranceAmount: "333.33" }],
      }),
      buildRatingRequest({
        receiver: buildAddress({ city: "Paris", state: "", zip: "75001", country: "FR" }),
        pieces: [{ weight: "1.7", length: "11", width: "9", height: "7", declaredValue: "80", insuranceAmount: "80" }],
      }),
      buildRatingRequest({
        sender: buildAddress({ city: "London", state: "", zip: "WC1R 4ED", country: "GB" }),
        currency: "GBP",
        pieces: [{ weight: "1.7", length: "11", width: "9", height: "7", declaredValue: "80", insuranceAmount: "95.5" }],
      }),
    ];
    for (const request of requests) {
      for (const quote of quotesOf(request)) {
        expect(quote.totalCents).toBe(quote.baseCents + quote.surcharges.reduce((sum, charge) => sum + charge.amountCents, 0));
      }
    }
  });
});

describe("currencies", () => {
  it.each([
    [10_000, "USD", "GBP", 7_900],
    [10_000, "USD", "CAD", 13_600],
    [10_000, "USD", "EUR", 9_200],
    [7_900, "GBP", "USD", 10_000],
    [1_000, "EUR", "GBP", 859], // 1000 × 0.79 / 0.92 = 858.7
  ] as const)("GIVEN %i cents %s THEN %s %i cents", (cents, from, to, expected) => {
    expect(convertCents(cents, from, to)).toBe(expected);
  });

  it("GIVEN an import from GB quoted in GBP THEN every amount is the USD amount converted", () => {
    const request = buildRatingRequest({
      serviceCode: "MRX_INTERNATIONAL_IMPORT",
      sender: buildAddress({ city: "London", state: "", zip: "WC1R 4ED", country: "GB" }),
      currency: "GBP",
    });
    const inGbp = quotesOf(request)[0]!;
    expect(inGbp.currency).toBe("GBP");
    expect(inGbp.zone).toBe("B");
    // Same lane in USD is not allowed for a GB shipper? It is: only US shippers must use USD.
    const inUsd = quotesOf({ ...request, currency: "USD" })[0]!;
    expect(inGbp.baseCents).toBe(convertCents(inUsd.baseCents, "USD", "GBP"));
  });

  it("GIVEN a US shipper paying in EUR THEN the shipment is refused", () => {
    const result = rateShipment(catalog, buildRatingRequest({ currency: "EUR" }));
    expect(result).toMatchObject({ status: "error", errorCategory: "INVALID_REQUEST" });
  });

  it.each([
    ["12.5", 1250],
    ["0.005", 1],
    [19.99, 1999],
    ["abc", null],
  ] as const)("parseCents(%j) = %j", (value, cents) => {
    expect(parseCents(value)).toBe(cents);
  });

  it("formats cents as two-decimal strings", () => {
    expect([formatCents(0), formatCents(5), formatCents(1250), formatCents(-5)]).toEqual(["0.00", "0.05", "12.50", "-0.05"]);
  });
});

describe("which services are quoted", () => {
  it("GIVEN no codes THEN every outbound domestic service quotes and returns are left out", () => {
    const codes = quotesOf(buildRatingRequest()).map((quote) => quote.serviceCode);
    expect(codes).toEqual([
      "NPS_GROUND_ADVANTAGE",
      "NPS_PRIORITY",
      "NPS_PRIORITY_EXPRESS",
      "BLP_GROUND",
      "BLP_3_DAY_SELECT",
      "BLP_NEXT_DAY_AIR",
      "MRX_PRIORITY_OVERNIGHT",
      "MRX_2DAY",
      "GPC_ECOM_GROUND",
      "GPC_ECOM_EXPEDITED",
    ]);
  });

  it("GIVEN a carrierCode THEN only that carrier's services", () => {
    expect(new Set(quotesOf(buildRatingRequest({ carrierCode: "MRX" })).map((quote) => quote.carrierCode))).toEqual(new Set(["MRX"]));
  });

  it("GIVEN a return serviceCode THEN it is quoted", () => {
    expect(quoteFor("NPS_GROUND_RETURN").serviceCode).toBe("NPS_GROUND_RETURN");
  });

  it("GIVEN a receiver abroad THEN international services quote with zone groups", () => {
    const quotes = quotesOf(buildRatingRequest({ receiver: buildAddress({ city: "Toronto", state: "ON", zip: "M5V 2T6", country: "CA" }) }));
    expect(quotes.map((quote) => quote.serviceCode)).toEqual([
      "NPS_PRIORITY_INTL",
      "BLP_WORLDWIDE_EXPEDITED",
      "MRX_INTERNATIONAL_PRIORITY",
      "GPC_INTL_ECONOMY",
    ]);
    expect(new Set(quotes.map((quote) => quote.zone))).toEqual(new Set(["A"]));
  });

  it("GIVEN no dimensions THEN envelope/preset packaging is chosen and custom-only services fail", () => {
    const result = rateShipment(catalog, buildRatingRequest({ dimUnit: null, pieces: [{ weight: "0.5" }] }));
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.quotes.find((quote) => quote.serviceCode === "NPS_PRIORITY")?.packageTypeCode).toBe("NPS_FLAT_RATE_ENVELOPE");
    expect(result.quoteErrors.find((failure) => failure.serviceCode === "NPS_GROUND_ADVANTAGE")?.error).toMatch(/needs piece dimensions/);
  });
});

describe("failures", () => {
  it("GIVEN 80 lb THEN services with a 70 lb maximum fail with WEIGHT_LIMIT_EXCEEDED and others quote", () => {
    const result = rateShipment(catalog, buildRatingRequest({ pieces: [{ weight: "80", length: "20", width: "20", height: "20" }] }));
    if (result.status !== "success") throw new Error(result.error);
    expect(result.quoteErrors.find((failure) => failure.serviceCode === "NPS_PRIORITY")).toMatchObject({
      errorCategory: "WEIGHT_LIMIT_EXCEEDED",
      packageTypeCode: "NPS_PACKAGE",
    });
    expect(result.quotes.some((quote) => quote.serviceCode === "BLP_GROUND")).toBe(true);
  });

  it("GIVEN a signature option the service does not offer THEN a quote error names it", () => {
    const result = rateShipment(catalog, buildRatingRequest({ carrierCode: "GPC", signatureOptionCode: "ADULT" }));
    expect(result).toMatchObject({ status: "error" });
    if (result.status === "error") expect(result.error).toMatch(/does not offer signature option ADULT/);
  });

  it.each([
    [
      "invoice item weights above the package weight (rule 3)",
      { receiver: buildAddress({ city: "Paris", state: "", zip: "75001", country: "FR" }), commercialInvoice: { items: [{ weight: "1.5" }, { weight: "1" }] } },
      /item weights total 2.5 lb, more than the package weight 2 lb/,
    ],
    ["an unknown service", { serviceCode: "NOPE" }, /Unknown serviceCode NOPE/],
    ["a service of another carrier", { carrierCode: "NPS", serviceCode: "BLP_GROUND" }, /not a service of carrier NPS/],
    ["an unknown package type", { packageTypeCode: "BOX" }, /Unknown packageTypeCode BOX/],
    [
      "a declared value on a domestic shipment",
      { pieces: [{ weight: "2", length: "10", width: "8", height: "4", declaredValue: "10" }] },
      /declaredValue must be null for domestic/,
    ],
    ["a US address without a two-letter state", { receiver: buildAddress({ state: "New York" }) }, /receiver.state must be a two-character code/],
    ["dimensions without a unit", { dimUnit: null }, /dimUnit is required/],
    [
      "a side longer than any carrier takes",
      { pieces: [{ weight: "1", length: "99999999999", width: "10", height: "10" }] },
      /pieces\[0\]\.length is 99999999999 in, above the 300 cm/,
    ],
    [
      "an absurd insured value",
      { pieces: [{ weight: "1", length: "10", width: "10", height: "10", insuranceAmount: 1e300 }] },
      /insuranceAmount must be a decimal from 0 to 1000000/,
    ],
  ] as const)("GIVEN %s THEN the whole shipment is an INVALID_REQUEST error", (_case, overrides, message) => {
    const result = rateShipment(catalog, buildRatingRequest(overrides as Partial<RatingRequest>));
    expect(result).toMatchObject({ status: "error", errorCategory: "INVALID_REQUEST" });
    if (result.status === "error") expect(result.error).toMatch(message);
  });

  it("GIVEN an embargoed destination THEN no service is available", () => {
    const result = rateShipment(catalog, buildRatingRequest({ receiver: buildAddress({ city: "Havana", state: "", zip: "10400", country: "CU" }) }));
    expect(result).toMatchObject({ status: "error", errorCategory: "SERVICE_UNAVAILABLE" });
  });

  it("GIVEN a named service that does not serve the country THEN COUNTRY_NOT_SUPPORTED", () => {
    const result = rateShipment(
      catalog,
      buildRatingRequest({ serviceCode: "BLP_WORLDWIDE_EXPEDITED", receiver: buildAddress({ city: "Rio", state: "", zip: "20000-000", country: "BR" }) }),
    );
    expect(result).toMatchObject({ status: "error", errorCategory: "COUNTRY_NOT_SUPPORTED" });
  });
});
