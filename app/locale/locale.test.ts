import { describe, expect, it } from "vitest";
import { fulfillmentStatusName } from "../orders/order-status";
import { carrierPlaceName, countryName, placeName, provinceName, subdivisionName } from "./places";
import { dayInZone, formatDate, formatDateTime, TimeZone } from "./shop-time";

describe("names for places", () => {
  it.each([
    ["US", "United States"],
    ["ca", "Canada"],
    ["JP", "Japan"],
    ["GB", "United Kingdom"],
    ["Unknown", "Unknown"],
    ["", ""],
    [null, ""],
  ])("GIVEN the country %j THEN it reads %j", (code, name) => {
    expect(countryName(code)).toBe(name);
  });

  it.each([
    [{ name: "Tokyo", code: "JP-13" }, "Tokyo"],
    [{ name: null, code: "NY" }, "NY"],
    [{ name: " ", code: null }, ""],
  ])("GIVEN the province %j THEN it reads %j", (province, name) => {
    expect(provinceName(province)).toBe(name);
  });

  it.each([
    ["US", "NY", "New York"],
    ["US", "us-ny", "New York"],
    ["JP", "JP-13", "Tokyo"],
    ["JP", "01", "Hokkaido"],
    ["AU", "NSW", "New South Wales"],
    ["CA", "QC", "Quebec"],
    ["DE", "DE-BY", "Bavaria"],
    ["US", "ZZ", null],
    ["FR", "FR-75", null],
    [null, "NY", null],
  ])("GIVEN the country %j and the subdivision code %j THEN it is named %j", (country, code, name) => {
    expect(subdivisionName(country, code)).toBe(name);
  });

  it("GIVEN an order's province kept as a code only THEN its name comes from the country's subdivisions", () => {
    expect(provinceName({ name: null, code: "TN" }, "US")).toBe("Tennessee");
    expect(placeName({ city: "Osaka", province: null, provinceCode: "JP-27", countryCode: "JP" })).toBe("Osaka, Osaka, Japan");
  });

  it.each<[string | null, string | null, string]>([
    ["US-NY", "US", "New York, United States"],
    ["DE", "DE", "Germany"],
    ["JP-13", "JP", "Tokyo, Japan"],
    ["TOKYO, JP-13", "JP", "TOKYO, Japan"],
    ["MEMPHIS, TN", "US", "MEMPHIS, Tennessee, United States"],
    ["LOS ANGELES, CA", "US", "LOS ANGELES, California, United States"],
    ["TORONTO, ON", "CA", "TORONTO, Ontario, Canada"],
    ["SYDNEY, NSW", "AU", "SYDNEY, New South Wales, Australia"],
    ["Frankfurt am Main Hub", "DE", "Frankfurt am Main Hub, Germany"],
    ["PARIS, FR-75", "FR", "PARIS, FR-75, France"],
    ["MEMPHIS, TN, US", null, "MEMPHIS, Tennessee, United States"],
    ["US-NY, US", null, "New York, United States"],
    ["DE, DE", null, "Germany"],
    ["Memphis, Tennessee, United States", null, "Memphis, Tennessee, United States"],
    ["", "GB", "United Kingdom"],
    [null, null, ""],
  ])("GIVEN a carrier's place %j in %j THEN it reads %j, codes in words and the carrier's words kept", (area, country, words) => {
    expect(carrierPlaceName(area, country)).toBe(words);
  });

  it.each([
    [{ city: "東京", province: "Tokyo", provinceCode: "JP-13", countryCode: "JP" }, "東京, Tokyo, Japan"],
    [{ city: "Portland", province: "Oregon", provinceCode: "OR", countryCode: "US" }, "Portland, Oregon, United States"],
    [{ city: "London", province: null, provinceCode: null, countryCode: "GB" }, "London, United Kingdom"],
    [{ city: null, provinceCode: null, countryCode: null }, ""],
  ])("GIVEN the place %j THEN it reads %j", (place, name) => {
    expect(placeName(place)).toBe(name);
  });
});

describe("order statuses in words", () => {
  it.each([
    ["UNFULFILLED", "Unfulfilled"],
    ["PARTIALLY_FULFILLED", "Partially fulfilled"],
    ["IN_PROGRESS", "In progress"],
    ["ON_HOLD", "On hold"],
    ["FULFILLMENT_NOT_REQUIRED", "Fulfillment not required"],
    ["SOMETHING_NEW", "Something new"],
  ])("GIVEN %s THEN the badge reads %j", (status, words) => {
    expect(fulfillmentStatusName(status)).toBe(words);
  });
});

describe("one date format in the shop's time zone", () => {
  const instant = "2026-11-27T03:10:00Z";
  it.each([
    ["America/New_York", "Nov 26, 2026, 10:10 PM", "Nov 26, 2026", "2026-11-26"],
    ["UTC", "Nov 27, 2026, 3:10 AM", "Nov 27, 2026", "2026-11-27"],
    ["Asia/Tokyo", "Nov 27, 2026, 12:10 PM", "Nov 27, 2026", "2026-11-27"],
    ["Pacific/Auckland", "Nov 27, 2026, 4:10 PM", "Nov 27, 2026", "2026-11-27"],
  ])("GIVEN a shop in %s THEN the instant reads %j, its day %j (%s in files)", (zone, dateTime, date, day) => {
    expect(formatDateTime(instant, zone)).toBe(dateTime);
    expect(formatDate(new Date(instant), zone)).toBe(date);
    expect(dayInZone(instant, zone)).toBe(day);
  });

  it("GIVEN no time or a time that is not one THEN a dash; GIVEN a zone Intl does not know THEN it is refused", () => {
    expect(formatDateTime(null, "UTC")).toBe("—");
    expect(formatDate("not a date", "UTC")).toBe("—");
    expect(TimeZone.safeParse("America/New_York").success).toBe(true);
    expect(TimeZone.safeParse("Mars/Olympus_Mons").success).toBe(false);
  });
});
