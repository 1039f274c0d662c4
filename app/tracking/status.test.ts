import { describe, expect, it } from "vitest";
import { EventStatus } from "../../shipping-api/contract";
import { SHOPIFY_STATUS, statusChanges, type CarrierEvent } from "./status";

const at = (hours: number) => new Date(Date.UTC(2026, 10, 24) + hours * 3_600_000);
const ev = (carrierStatus: CarrierEvent["carrierStatus"], hours: number): CarrierEvent => ({ carrierStatus, eventTime: at(hours) });

describe("SHOPIFY_STATUS", () => {
  it("GIVEN every eventStatus of the contract THEN each maps to a FulfillmentEventStatus Shopify accepts", () => {
    const accepted = [
      "LABEL_PURCHASED",
      "LABEL_PRINTED",
      "CONFIRMED",
      "CARRIER_PICKED_UP",
      "IN_TRANSIT",
      "OUT_FOR_DELIVERY",
      "ATTEMPTED_DELIVERY",
      "DELAYED",
      "READY_FOR_PICKUP",
      "DELIVERED",
      "FAILURE",
    ];
    for (const status of EventStatus.options) expect(accepted, status).toContain(SHOPIFY_STATUS[status]);
  });
});

describe("statusChanges", () => {
  it.each<[string, CarrierEvent[], number[]]>([
    [
      "a straight timeline writes each new status once",
      [ev("Info Received", 0), ev("In Transit", 20), ev("In Transit", 24), ev("In Transit", 48), ev("Out for Delivery", 56), ev("Delivered", 62)],
      [0, 1, 4, 5],
    ],
    ["events given newest first are taken in time order", [ev("Delivered", 62), ev("Out for Delivery", 56), ev("Info Received", 0)], [2, 1, 0]],
    [
      "a failed attempt and the next day's run are both changes",
      [ev("Out for Delivery", 56), ev("Failed Attempt", 63), ev("Out for Delivery", 80), ev("Delivered", 86)],
      [0, 1, 2, 3],
    ],
    [
      "an exception then an arranged delivery is one delay",
      [ev("In Transit", 20), ev("Exception", 54), ev("Delivery Arragned", 59), ev("Out for Delivery", 80)],
      [0, 1, 3],
    ],
    ["nothing after Delivered", [ev("Delivered", 62), ev("Exception", 70), ev("Out for Delivery", 71)], [0]],
    ["an earlier stage after a later one is ignored", [ev("Out for Delivery", 56), ev("In Transit", 57)], [0]],
    ["a duplicate event is one change", [ev("In Transit", 20), ev("In Transit", 20)], [0]],
  ])("GIVEN %s", (_name, events, expected) => {
    expect(statusChanges(null, events)).toEqual(expected);
  });

  it("GIVEN OUT_FOR_DELIVERY already written WHEN a late In Transit (earlier time) and a duplicate arrive THEN nothing is written", () => {
    const from = { status: "OUT_FOR_DELIVERY" as const, stage: 2, at: at(56) };
    expect(statusChanges(from, [ev("In Transit", 30), ev("Out for Delivery", 56), ev("In Transit", 58)])).toEqual([]);
  });

  it("GIVEN DELIVERED written WHEN anything arrives THEN nothing is written", () => {
    expect(statusChanges({ status: "DELIVERED", stage: 3, at: at(62) }, [ev("Delivered", 90), ev("Exception", 91)])).toEqual([]);
  });
});
