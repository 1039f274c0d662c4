import { describe, expect, it } from "vitest";
import { customerEventStatus, customerStatus } from "./customer-status";

const row = (overrides: Partial<Parameters<typeof customerStatus>[0]>) => ({
  trackingState: "ACTIVE",
  carrierStatus: null,
  trackingStopReason: null,
  attentionAction: null,
  ...overrides,
});

describe("customerStatus", () => {
  it.each([
    [{ trackingState: "NONE" }, "Ready to ship", "neutral", "The carrier scans your parcel when they collect it from the shop."],
    [{ carrierStatus: "Info Received" }, "Ready to ship", "neutral", "The carrier scans your parcel when they collect it from the shop."],
    [{ carrierStatus: "In Transit" }, "On its way", "neutral", "Next, the carrier takes it out for delivery to your address."],
    [{ carrierStatus: "Delivered to Broker" }, "On its way", "neutral", "Next, the carrier takes it out for delivery to your address."],
    [{ carrierStatus: "With Delivery Courier" }, "Out for delivery", "neutral", "The carrier delivers it today."],
    [{ carrierStatus: "Failed Attempt" }, "Delivery attempted", "critical", "The carrier will try again or leave a note saying where to collect your parcel."],
    [
      { carrierStatus: "Failed Attempt", attentionAction: "Collect it from the post office." },
      "Delivery attempted",
      "critical",
      "Collect it from the post office.",
    ],
    [{ carrierStatus: "Exception", attentionAction: "Call the carrier" }, "Delayed", "critical", "Call the carrier."],
    [{ trackingState: "DELIVERED", carrierStatus: "Delivered" }, "Delivered", "neutral", "Your parcel was delivered. If you cannot find it, contact the shop."],
    [
      { trackingState: "STALE", carrierStatus: "In Transit" },
      "On its way",
      "critical",
      "The carrier has sent no news for a while. Contact the shop with your tracking number.",
    ],
    [
      { trackingState: "STOPPED", trackingStopReason: "VOIDED" },
      "Shipment cancelled",
      "neutral",
      "The shop cancelled this shipment. Contact the shop for news of your order.",
    ],
    [
      { trackingState: "STOPPED", trackingStopReason: "ORDER_CANCELLED" },
      "Order cancelled",
      "neutral",
      "This order was cancelled. Contact the shop if you have questions.",
    ],
  ])("GIVEN %o THEN %s (%s): %s", (overrides, status, tone, nextStep) => {
    expect(customerStatus(row(overrides))).toEqual({ status, tone, nextStep });
  });

  it("GIVEN a carrier event's status THEN the step in the customer's words; an unknown one as the carrier wrote it", () => {
    expect(customerEventStatus("In Transit")).toBe("On its way");
    expect(customerEventStatus("Delivered")).toBe("Delivered");
    expect(customerEventStatus("Held at customs")).toBe("Held at customs");
  });
});
