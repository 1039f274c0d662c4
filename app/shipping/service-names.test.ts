import { describe, expect, it } from "vitest";
import { carrierAndService, carrierName, NO_NAMES, serviceName, serviceNamesOf, shipmentServiceNames } from "./service-names";

// As the local service's List Services names them.
const names = serviceNamesOf([
  { carrierCode: "NPS", carrierLabel: "National Postal Service", serviceCode: "NPS_PRIORITY", serviceLabel: "Priority Mail" },
  { carrierCode: "NPS", carrierLabel: "National Postal Service", serviceCode: "NPS_GROUND_ADVANTAGE", serviceLabel: "Ground Advantage" },
  { carrierCode: "GPC", carrierLabel: "Globe Parcel Consolidators", serviceCode: "GPC_INTL_ECONOMY", serviceLabel: "International Economy" },
  { carrierCode: "ZZ", carrierLabel: "  ", serviceCode: "ZZ_PARCEL", serviceLabel: "" },
]);

describe("carrier and service names, not codes", () => {
  it.each([
    ["NPS", "National Postal Service"],
    ["GPC", "Globe Parcel Consolidators"],
    ["ZZ", "ZZ"],
    ["MRX", "MRX"],
    ["constructor", "constructor"],
  ])("GIVEN carrier %s THEN it is named %s", (code, name) => {
    expect(carrierName(names, code)).toBe(name);
  });

  it.each([
    [
      "the catalog's label",
      { carrierCode: "GPC", serviceCode: "GPC_INTL_ECONOMY", serviceDescription: "International Economy (DDU)" },
      "International Economy",
    ],
    ["the quote's description when the catalog does not know it", { carrierCode: "MRX", serviceCode: "MRX_2DAY", serviceDescription: "2Day" }, "2Day"],
    ["the code in words without the carrier's prefix", { carrierCode: "GPC", serviceCode: "GPC_ECOM_GROUND" }, "Ecom Ground"],
    ["digits kept as they are", { carrierCode: "BLP", serviceCode: "BLP_3_DAY_SELECT", serviceDescription: null }, "3 Day Select"],
    ["a blank label falls back", { carrierCode: "ZZ", serviceCode: "ZZ_PARCEL" }, "Parcel"],
    ["a code that is only the prefix", { carrierCode: "X", serviceCode: "X_" }, "X"],
  ])("GIVEN %s THEN the service is named", (_, service, name) => {
    expect(serviceName(names, service)).toBe(name);
  });

  it("GIVEN no names (List Services unavailable) THEN carriers keep their codes and services their descriptions", () => {
    expect(carrierAndService(NO_NAMES, { carrierCode: "GPC", serviceCode: "GPC_INTL_ECONOMY", serviceDescription: "International Economy (DDU)" })).toBe(
      "GPC · International Economy (DDU)",
    );
    expect(carrierAndService(names, { carrierCode: "NPS", serviceCode: "NPS_PRIORITY" })).toBe("National Postal Service · Priority Mail");
  });

  it("GIVEN a shipment THEN its carrier and service are named, each empty where it has no code", () => {
    expect(shipmentServiceNames(names, { carrierCode: "NPS", serviceCode: "NPS_PRIORITY" })).toEqual({
      carrier: "National Postal Service",
      service: "Priority Mail",
    });
    expect(shipmentServiceNames(names, { carrierCode: "NPS", serviceCode: null })).toEqual({ carrier: "National Postal Service", service: "" });
    expect(shipmentServiceNames(names, { carrierCode: null, serviceCode: "NPS_PRIORITY" })).toEqual({ carrier: "", service: "" });
  });

  it("GIVEN the names THEN they survive JSON (a loader sends them to the page)", () => {
    expect(JSON.parse(JSON.stringify(names))).toEqual(names);
  });
});
