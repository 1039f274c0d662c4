import { describe, expect, it } from "vitest";
import { DEFAULT_ORDER_TAGS } from "../settings/settings";
import { flowStep, tagStep } from "./signal-views.server";

// What the order's page says of each signal step (docs/decisions/043): done, under way, and for a failed or
// unconfirmed one, why and what to do.
describe("order signal steps in words", () => {
  const names = { ...DEFAULT_ORDER_TAGS, enabled: true, labelBought: "shipped" };

  it.each([
    ["LABEL_BOUGHT", "DONE", null, { tone: "success", text: "Tag “shipped” added", advice: null }],
    ["DELIVERED", "DONE", null, { tone: "success", text: "Tag “delivered” added, “delivery-exception” taken off", advice: null }],
    ["EXCEPTION_RESOLVED", "DONE", null, { tone: "success", text: "“delivery-exception” taken off", advice: null }],
    ["EXCEPTION", "WRITING", null, { tone: "info", text: "Tags being written", advice: null }],
    [
      "DELIVERED",
      "FAILED",
      "Consign may not edit orders in this store",
      {
        tone: "critical",
        text: "Tags not written: Consign may not edit orders in this store",
        advice: "To put this order right now, add “delivered” and take “delivery-exception” off on the order in Shopify.",
      },
    ],
  ] as const)("GIVEN a %s signal's tags %s THEN the page says so", (kind, status, error, step) => {
    expect(tagStep(kind, status, error, names)).toEqual(step);
  });

  it("GIVEN tags off for the signal, or a return's label (which tags nothing) THEN no tag step is shown", () => {
    expect(tagStep("LABEL_BOUGHT", "SKIPPED", null, names)).toBeNull();
    expect(tagStep("RETURN_LABEL_BOUGHT", "SKIPPED", null, names)).toBeNull();
  });

  it.each([
    ["LABEL_BOUGHT", "SENT", null, { tone: "success", text: "Flow trigger “Shipping label bought” sent", advice: null }],
    ["DELIVERED", "SENDING", null, { tone: "info", text: "Flow trigger “Shipment delivered” being sent", advice: null }],
    ["RETURN_LABEL_BOUGHT", "SENT", null, { tone: "success", text: "Flow trigger “Return label bought” sent", advice: null }],
    // No workflow of the shop uses the trigger (docs/decisions/047): not sent, and nothing to do.
    [
      "LABEL_BOUGHT",
      "NO_WORKFLOW",
      null,
      { tone: "neutral", text: "Flow trigger “Shipping label bought” not sent: no workflow in Shopify Flow uses it", advice: null },
    ],
    [
      "EXCEPTION",
      "UNCONFIRMED",
      "Shopify's answer was lost",
      {
        tone: "warning",
        text: "Flow trigger “Delivery exception” unconfirmed: Shopify's answer was lost",
        advice: "Open Shopify Flow's run history: if no workflow ran for this order, do by hand what it would have done.",
      },
    ],
    [
      "LABEL_BOUGHT",
      "FAILED",
      "Flow refused the trigger: payload.Cost is invalid",
      {
        tone: "critical",
        text: "Flow trigger “Shipping label bought” not sent: Flow refused the trigger: payload.Cost is invalid",
        advice: "No workflow ran for this order from it: do by hand what it would have done.",
      },
    ],
  ] as const)("GIVEN a %s signal's trigger %s THEN the page says so", (kind, status, error, step) => {
    expect(flowStep(kind, status, error)).toEqual(step);
  });

  it("GIVEN a resolved exception THEN it has no trigger step", () => {
    expect(flowStep("EXCEPTION_RESOLVED", "NONE", null)).toBeNull();
  });
});
