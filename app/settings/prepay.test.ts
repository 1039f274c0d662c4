import { describe, expect, it } from "vitest";
import { prepayOutlook, type PrepayOnFile } from "./prepay";

const REPORTED = "2026-11-20T10:00:00.000Z";
const created: PrepayOnFile = { balance: "100.00", reportedAt: REPORTED, minimumBalance: "50.00", rechargeAmount: "100.00" };
const connected: PrepayOnFile = { balance: "100.00", reportedAt: REPORTED, minimumBalance: null, rechargeAmount: null };
const usd = (...amounts: string[]) => amounts.map((amount) => ({ amount, currency: "USD" }));

describe("prepayOutlook", () => {
  it.each([
    ["no balance on file yet", { ...created, balance: null, reportedAt: null }, usd("12.50", "7.50"), { kind: "unknown", total: "20.00" }],
    ["a cost in GBP", created, [...usd("10.00"), { amount: "8.00", currency: "GBP" }], { kind: "other-currency", total: "18.00", balance: "100.00" }],
    [
      "labels the balance covers, staying above the minimum",
      created,
      usd("20.00", "25.50"),
      { kind: "projected", total: "45.50", after: "54.50", recharges: { count: 0, amount: "0.00" }, uncovered: 0 },
    ],
    [
      "a label that takes it below the minimum",
      created,
      usd("30.00", "30.00"),
      { kind: "projected", total: "60.00", after: "140.00", recharges: { count: 1, amount: "100.00" }, uncovered: 0 },
    ],
    [
      "a label above the balance",
      { ...created, balance: "10.00" },
      usd("12.00", "5.00"),
      { kind: "projected", total: "17.00", after: "105.00", recharges: { count: 1, amount: "100.00" }, uncovered: 1 },
    ],
    [
      "a connected account, whose recharge settings are its own",
      connected,
      usd("60.00", "50.00"),
      { kind: "projected", total: "110.00", after: "40.00", recharges: null, uncovered: 1 },
    ],
  ] as const)("GIVEN %s THEN the outlook says so", (_case, onFile, costs, expected) => {
    expect(prepayOutlook(onFile, costs)).toMatchObject(expected);
  });
});
