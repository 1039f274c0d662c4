import { describe, expect, it } from "vitest";
import { EventStatus } from "../shipping-api/contract";
import { type TimelineInput, buildTimeline, pathOf, visibleEvents } from "./tracking";

const booked = new Date("2026-11-23T15:00:00Z");

function input(overrides: Partial<TimelineInput> = {}): TimelineInput {
  return {
    trackingNumber: "1ZSVPIIC0538639223",
    carrierCode: "BLP",
    ancillary: false,
    consolidator: false,
    bookedAt: booked,
    transitDays: 3,
    origin: { city: "San Francisco", state: "CA", country: "US" },
    destination: { city: "New York", state: "NY", country: "US" },
    ...overrides,
  };
}

/** The first tracking number of a synthetic series that takes the given path. */
function numberOnPath(path: ReturnType<typeof pathOf>): string {
  for (let serial = 0; ; serial++) {
    const candidate = `7${String(serial).padStart(11, "0")}`;
    if (pathOf(candidate) === path) return candidate;
  }
}

describe("tracking timelines", () => {
  it("GIVEN a standard shipment THEN Info Received … In Transit … Out for Delivery, Delivered", () => {
    const events = buildTimeline(input({ trackingNumber: numberOnPath("standard") }));
    expect(events[0]!.eventStatus).toBe("Info Received");
    expect(events.slice(1, -2).every((event) => event.eventStatus === "In Transit")).toBe(true);
    expect(events.slice(-2).map((event) => event.eventStatus)).toEqual(["Out for Delivery", "Delivered"]);
    // Picked up the day after booking, 3 transit days: delivered on day 4.
    expect(events.at(-1)!.eventTime.startsWith("2026-11-27 14:")).toBe(true);
    for (const event of events) {
      expect(EventStatus.safeParse(event.eventStatus).success).toBe(true);
      expect(event.eventTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
  });

  it("is chronological and deterministic", () => {
    const events = buildTimeline(input());
    expect(events.map((event) => event.eventTime)).toEqual([...events.map((event) => event.eventTime)].sort());
    expect(buildTimeline(input())).toEqual(events);
  });

  it("reveals events as the clock advances, most recent first", () => {
    const timeline = buildTimeline(input());
    expect(visibleEvents(timeline, new Date(booked.getTime() + 60_000))).toEqual([]);
    expect(visibleEvents(timeline, new Date(booked.getTime() + 10 * 60_000)).map((event) => event.eventStatus)).toEqual(["Info Received"]);
    const all = visibleEvents(timeline, new Date("2027-01-01T00:00:00Z"));
    expect(all).toHaveLength(timeline.length);
    expect(all[0]!.eventStatus).toBe("Delivered");
  });

  it("GIVEN a failed-attempt number THEN a Failed Attempt precedes delivery a day later, with ancillary detail for the FedEx-kind carrier only", () => {
    const trackingNumber = numberOnPath("failed-attempt");
    const express = buildTimeline(input({ trackingNumber, ancillary: true, carrierCode: "MRX" }));
    const failed = express.find((event) => event.eventStatus === "Failed Attempt")!;
    expect(failed.ancillaryReasonDescription).toMatch(/not available/);
    expect(failed.ancillaryActionDescription).toMatch(/attempted again/);
    expect(express.filter((event) => event.eventStatus === "Out for Delivery")).toHaveLength(2);
    const parcel = buildTimeline(input({ trackingNumber }));
    expect(parcel.every((event) => event.ancillaryReasonDescription === null && event.ancillaryActionDescription === null)).toBe(true);
  });

  it("GIVEN an exception number THEN Exception then Delivery Arragned then Delivered", () => {
    const statuses = buildTimeline(input({ trackingNumber: numberOnPath("exception") })).map((event) => event.eventStatus);
    expect(statuses.indexOf("Exception")).toBeLessThan(statuses.indexOf("Delivery Arragned"));
    expect(statuses.at(-1)).toBe("Delivered");
  });

  it("GIVEN an international consolidator shipment THEN Delivered to Broker and With Delivery Courier appear", () => {
    const events = buildTimeline(input({ consolidator: true, transitDays: 8, destination: { city: "London", state: "", country: "GB" } }));
    const statuses = events.map((event) => event.eventStatus);
    expect(statuses).toContain("Delivered to Broker");
    expect(statuses).toContain("With Delivery Courier");
    expect(events.at(-1)).toMatchObject({ serviceArea: "LONDON", serviceAreaCountry: "GB" });
  });

  it("spreads paths: about a tenth each of failed attempts and exceptions", () => {
    const counts = { standard: 0, "failed-attempt": 0, exception: 0 };
    for (let serial = 0; serial < 5000; serial++) counts[pathOf(`94001${String(serial).padStart(17, "0")}`)]++;
    expect(counts["failed-attempt"]).toBeGreaterThan(300);
    expect(counts["failed-attempt"]).toBeLessThan(700);
    expect(counts.exception).toBeGreaterThan(300);
    expect(counts.exception).toBeLessThan(700);
  });
});
