import { describe, expect, it } from "vitest";
import { compareWithPaid, describePaid, paidSpeed, type PaidShipping } from "./customer-choice";

// Shipping lines as the local admin's seed sells them.
const priorityMail: PaidShipping = { title: "USPS Priority Mail", amount: "9.85", currency: "USD" };
const secondDay: PaidShipping = { title: "UPS 2nd Day Air", amount: "18.40", currency: "USD" };
const standard: PaidShipping = { title: "Standard Shipping", amount: "6.95", currency: "USD" };
const free: PaidShipping = { title: "Free Shipping", amount: "0.00", currency: "USD" };

const ground = { serviceCode: "NPS_GROUND_ADVANTAGE", serviceDescription: "Ground Advantage" };
const priority = { serviceCode: "NPS_PRIORITY", serviceDescription: "Priority Mail" };
const express = { serviceCode: "NPS_PRIORITY_EXPRESS", serviceDescription: "Priority Mail Express" };

describe("the shipping the customer paid for", () => {
  it.each([
    [priorityMail, "priority"],
    [secondDay, "express"],
    [standard, "ground"],
    [{ title: "Next Day Delivery", amount: "30", currency: "USD" }, "overnight"],
  ])("GIVEN the line %j THEN it promises %s", (paid, label) => {
    expect(paidSpeed(paid).label).toBe(label);
  });

  it("GIVEN a line THEN it reads title · price", () => {
    expect(describePaid(priorityMail)).toBe("USPS Priority Mail · $9.85");
  });

  it.each([
    [
      "ground for 2nd Day Air, cheaper",
      ground,
      "7.10",
      "USD",
      secondDay,
      { slower: true },
      "Picked service is slower (ground) than the customer's UPS 2nd Day Air (express)",
    ],
    [
      "priority for 2nd Day Air, dearer",
      priority,
      "19.00",
      "USD",
      secondDay,
      { slower: true },
      "Picked service is slower (priority) than the customer's UPS 2nd Day Air (express)",
    ],
    ["express for 2nd Day Air, dearer", express, "31.20", "USD", secondDay, { slower: false }, null],
    ["express for Priority Mail (faster), dearer", express, "31.20", "USD", priorityMail, { slower: false }, null],
    [
      "ground for Standard, cheaper than paid",
      ground,
      "5.60",
      "USD",
      standard,
      { slower: false },
      // Cheaper than paid is no warning: the merchant keeps the difference.
      null,
    ],
    ["ground for Standard, the same price", ground, "6.95", "USD", standard, { slower: false }, null],
    ["ground for Free Shipping", ground, "5.60", "USD", free, { slower: false }, null],
    ["a rate in another currency than the line", priority, "5.00", "CAD", priorityMail, { slower: false }, null],
  ])("GIVEN %s THEN the flags are as expected", (_, service, totalAmount, currency, paid, flags, flag) => {
    expect(compareWithPaid({ ...service, totalAmount, currency }, paid)).toEqual({ ...flags, flag });
  });

  it("GIVEN an order without a shipping line THEN nothing is flagged", () => {
    expect(compareWithPaid({ ...ground, totalAmount: "1.00", currency: "USD" }, null)).toEqual({ slower: false, flag: null });
  });
});
