import { describe, expect, it } from "vitest";
import { Quote, type QuoteError } from "../../shipping-api/contract";
import { buildQuote } from "../../test/factories/shipping-api";
import { DEFAULT_SETTINGS, type ShippingSettings } from "../settings/settings";
import { serviceNamesOf } from "../shipping/service-names";
import { chooseRate } from "./rate-choice";

const quote = (quoteId: number, carrierCode: string, serviceCode: string, serviceDescription: string, totalAmount: string) =>
  Quote.parse(buildQuote({ quoteId, carrierCode, serviceCode, serviceDescription, totalAmount }));

const ground = quote(1, "NPS", "NPS_GROUND_ADVANTAGE", "Ground Advantage", "9.40");
const twoDay = quote(2, "MRX", "MRX_2DAY", "2Day", "27.64");
const nextDay = quote(3, "BLP", "BLP_NEXT_DAY_AIR", "Next Day Air", "44.75");
const success = (quotes: Quote[], quoteErrors: QuoteError[] = []) => ({
  shipmentIndex: 0,
  status: "success" as const,
  quotes,
  quoteErrors,
});
const settings = (overrides: Partial<ShippingSettings> = {}): ShippingSettings => ({ ...DEFAULT_SETTINGS, ...overrides });

describe("choosing one shipment's quotes", () => {
  it("GIVEN rates and the cheapest rule WHEN the rate is chosen THEN every rate is kept and the cheapest is picked by the rule", () => {
    const chosen = chooseRate(success([twoDay, ground, nextDay]), settings());
    expect(chosen).toEqual({ ok: true, quotes: [twoDay, ground, nextDay], pick: { quoteId: 1, reason: "Cheapest of 3 rates", selectedBy: "RULE" } });
  });

  it("GIVEN the merchant enabled two services WHEN the rate is chosen THEN only their rates are kept and picked from", () => {
    const enabled = [
      { carrierCode: "MRX", serviceCode: "MRX_2DAY" },
      { carrierCode: "BLP", serviceCode: "BLP_NEXT_DAY_AIR" },
    ];
    const chosen = chooseRate(success([twoDay, ground, nextDay]), settings({ enabledServices: enabled }));
    expect(chosen.ok && chosen.quotes.map((kept) => kept.quoteId)).toEqual([2, 3]);
    expect(chosen.ok && chosen.pick).toEqual({ quoteId: 2, reason: "Cheapest of 2 rates", selectedBy: "RULE" });
  });

  it("GIVEN only services the merchant did not enable answered WHEN the rate is chosen THEN it fails, naming them and sending to Settings", () => {
    const chosen = chooseRate(success([ground]), settings({ enabledServices: [{ carrierCode: "MRX", serviceCode: "MRX_2DAY" }] }));
    expect(chosen).toEqual({
      ok: false,
      message: "Only services you have not enabled can ship this (NPS Ground Advantage). Enable one in Settings, then choose Re-quote.",
    });
  });

  it("GIVEN a re-quote where the merchant's service is still offered WHEN the rate is chosen THEN it is kept, still the merchant's choice", () => {
    const chosen = chooseRate(success([ground, twoDay]), settings(), {
      carrierCode: "MRX",
      serviceCode: "MRX_2DAY",
      serviceDescription: "2Day",
      selectedBy: "MERCHANT",
    });
    expect(chosen.ok && chosen.pick).toEqual({ quoteId: 2, reason: "Same service as before (MRX 2Day), re-quoted", selectedBy: "MERCHANT" });
  });

  it("GIVEN the account's carrier names WHEN a reason or a failure names a service THEN it uses the carrier's name, not its code", () => {
    const names = serviceNamesOf([
      { carrierCode: "MRX", carrierLabel: "Meridian Express", serviceCode: "MRX_2DAY", serviceLabel: "2Day" },
      { carrierCode: "NPS", carrierLabel: "National Postal Service", serviceCode: "NPS_GROUND_ADVANTAGE", serviceLabel: "Ground Advantage" },
    ]);
    const previous = { carrierCode: "MRX", serviceCode: "MRX_2DAY", serviceDescription: "2Day", selectedBy: "MERCHANT" as const };
    expect(chooseRate(success([ground, twoDay]), settings(), previous, { names })).toMatchObject({
      pick: { reason: "Same service as before (Meridian Express 2Day), re-quoted" },
    });
    expect(chooseRate(success([ground, nextDay]), settings(), previous, { names })).toMatchObject({
      pick: { reason: "Meridian Express 2Day is no longer offered: cheapest of 2 rates" },
    });
    const notEnabled = chooseRate(success([ground]), settings({ enabledServices: [{ carrierCode: "MRX", serviceCode: "MRX_2DAY" }] }), null, { names });
    expect(notEnabled).toEqual({
      ok: false,
      message: "Only services you have not enabled can ship this (National Postal Service Ground Advantage). Enable one in Settings, then choose Re-quote.",
    });
  });

  it("GIVEN a re-quote where the service is gone WHEN the rate is chosen THEN the rule picks and the reason says so", () => {
    const chosen = chooseRate(success([ground, nextDay]), settings(), {
      carrierCode: "MRX",
      serviceCode: "MRX_2DAY",
      serviceDescription: "2Day",
      selectedBy: "MERCHANT",
    });
    expect(chosen.ok && chosen.pick).toEqual({ quoteId: 1, reason: "MRX 2Day is no longer offered: cheapest of 2 rates", selectedBy: "RULE" });
  });

  it.each([
    [
      { shipmentIndex: 0, status: "error" as const, error: "receiver.zip: 8020 is not a US ZIP code", errorCategory: "INVALID_REQUEST" },
      "The Shipping API refused this shipment: receiver.zip: 8020 is not a US ZIP code. Correct the order's address or product details in Shopify, then choose Re-quote.",
    ],
    [
      {
        shipmentIndex: 0,
        status: "success" as const,
        quotes: [],
        quoteErrors: [
          {
            carrierCode: "NPS",
            serviceCode: "NPS_PRIORITY",
            serviceDescription: "Priority Mail",
            packageTypeCode: "NPS_PACKAGE",
            error: "pieces[0] weighs 80 lb, above the 70 lb maximum",
            errorCategory: "WEIGHT_LIMIT_EXCEEDED",
          },
        ],
      },
      "Too heavy to ship as one package (NPS Priority Mail: pieces[0] weighs 80 lb, above the 70 lb maximum). Split the order in Shopify or enable a service that takes heavier parcels in Settings.",
    ],
    [
      { shipmentIndex: 0, status: "failed" as const, error: { kind: "network" as const, message: "connect ECONNREFUSED 127.0.0.1:8787" } },
      "The Shipping API could not quote right now (Could not reach the Shipping API: connect ECONNREFUSED 127.0.0.1:8787). Choose Re-quote to try again in a minute.",
    ],
    [
      { shipmentIndex: 0, status: "failed" as const, error: { kind: "unauthorized" as const, status: 401 as const, message: "Invalid credentials" } },
      "The Shipping API refused your account (Shipping API credentials were refused (HTTP 401): Invalid credentials). Reconnect your Shipping API account in Settings, then choose Re-quote.",
    ],
    [
      { shipmentIndex: 0, status: "error" as const, error: "Something new", errorCategory: "A_CATEGORY_FROM_THE_FUTURE" },
      "The Shipping API could not quote this shipment (Something new). Choose Re-quote to try again in a minute.",
    ],
  ])("GIVEN a failure WHEN the rate is chosen THEN the service's reason is kept in words that say what to do (%#)", (outcome, words) => {
    expect(chooseRate(outcome, settings())).toEqual({ ok: false, message: words });
  });
});
