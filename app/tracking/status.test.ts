import { describe, expect, it } from "vitest";
import { EventStatus } from "../../shipping-api/contract";
import { SHOPIFY_STATUS, shipmentSteps, statusChanges, type CarrierEvent, type PieceEvent } from "./status";

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

describe("shipmentSteps: a shipment of several pieces", () => {
  const A = "9400100000000000000017";
  const B = "9400100000000000000024";
  const pe = (trackingNumber: string, carrierStatus: PieceEvent["carrierStatus"], hours: number): PieceEvent => ({
    trackingNumber,
    carrierStatus,
    eventTime: at(hours),
  });
  const statuses = (events: PieceEvent[]) => shipmentSteps([A, B], events).map((step) => step.status);

  it("GIVEN one piece scanned and the other not yet THEN no status; then the least advanced piece's", () => {
    expect(statuses([pe(A, "Info Received", 0), pe(B, "Info Received", 0), pe(A, "In Transit", 20), pe(B, "In Transit", 21)])).toEqual([
      null,
      "CONFIRMED",
      "CONFIRMED",
      "IN_TRANSIT",
    ]);
  });

  it("GIVEN one piece delivered and the other out for delivery THEN out for delivery; delivered only when both are", () => {
    const events = [pe(A, "Out for Delivery", 56), pe(B, "Out for Delivery", 57), pe(A, "Delivered", 62), pe(B, "Delivered", 63)];
    expect(statuses([pe(A, "In Transit", 20), pe(B, "In Transit", 20), ...events]).slice(2)).toEqual([
      "IN_TRANSIT",
      "OUT_FOR_DELIVERY",
      "OUT_FOR_DELIVERY",
      "DELIVERED",
    ]);
  });

  it("GIVEN an exception on one piece while the other is delivered THEN the shipment is delayed until that piece moves on", () => {
    expect(statuses([pe(A, "In Transit", 20), pe(B, "In Transit", 20), pe(B, "Delivered", 62), pe(A, "Exception", 63), pe(A, "Out for Delivery", 80)])).toEqual(
      [null, "IN_TRANSIT", "IN_TRANSIT", "DELAYED", "OUT_FOR_DELIVERY"],
    );
  });

  it("GIVEN a failed attempt on one piece while the other is in transit THEN an attempted delivery, and the holder is that piece", () => {
    const steps = shipmentSteps([A, B], [pe(A, "In Transit", 20), pe(B, "In Transit", 20), pe(A, "Failed Attempt", 63)]);
    expect(steps.at(-1)).toMatchObject({ status: "ATTEMPTED_DELIVERY", holder: { trackingNumber: A, carrierStatus: "Failed Attempt" } });
  });

  it("GIVEN the steps fed to statusChanges THEN Delivered is written once, after the last piece's delivery, and nothing goes back", () => {
    const events = [
      pe(A, "Info Received", 0),
      pe(B, "Info Received", 0),
      pe(A, "In Transit", 20),
      pe(B, "In Transit", 21),
      pe(A, "Out for Delivery", 56),
      pe(A, "Delivered", 62),
      pe(B, "Out for Delivery", 80),
      pe(B, "Delivered", 86),
    ];
    const steps = shipmentSteps([A, B], events);
    const changes = statusChanges(
      null,
      steps.map((step) => ({ ...step.event, shipmentStatus: step.status })),
    ).map((index) => [steps[index]!.event.trackingNumber, steps[index]!.status]);
    expect(changes).toEqual([
      [B, "CONFIRMED"],
      [B, "IN_TRANSIT"],
      [B, "OUT_FOR_DELIVERY"],
      [B, "DELIVERED"],
    ]);
  });

  it("GIVEN a shipment of one number THEN each event's own status", () => {
    const events = [pe(A, "Info Received", 0), pe(A, "In Transit", 20), pe(A, "Exception", 40), pe(A, "Delivered", 62)];
    expect(shipmentSteps([A], events).map((step) => step.status)).toEqual(events.map((event) => SHOPIFY_STATUS[event.carrierStatus]));
  });
});
