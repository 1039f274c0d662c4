import { describe, expect, it } from "vitest";
import {
  bookNumberFor,
  express12CheckDigit,
  lastMileTrackingNumberFor,
  mod10CheckDigit,
  s10CheckDigit,
  trackingNumberFor,
  upsCheckDigit,
} from "./tracking-numbers";

describe("check digits against published examples", () => {
  it("UPS: 1Z999AA10123456784 (the carrier's documented sample)", () => {
    expect(upsCheckDigit("999AA1012345678")).toBe(4);
  });

  it("GS1 mod 10: GTIN 4006381333931", () => {
    expect(mod10CheckDigit("400638133393")).toBe(1);
  });

  it("UPU S10: AA473124829GB", () => {
    expect(s10CheckDigit("47312482")).toBe(9);
  });
});

describe("carrier formats", () => {
  it.each([
    ["postal", /^94001\d{17}$/],
    ["parcel", /^1Z[0-9A-Z]{6}\d{10}$/],
    ["express", /^\d{12}$/],
    ["consolidator", /^GC\d{9}US$/],
  ] as const)("%s numbers look like %s and carry a valid check digit", (kind, pattern) => {
    for (const serial of [1, 2, 999, 123_456]) {
      const number = trackingNumberFor(kind, serial, "C1E3D037EE34F", 5);
      expect(number).toMatch(pattern);
      const body = number.slice(0, -1);
      if (kind === "postal") expect(Number(number.at(-1))).toBe(mod10CheckDigit(body));
      if (kind === "parcel") expect(Number(number.at(-1))).toBe(upsCheckDigit(body.slice(2)));
      if (kind === "express") expect(Number(number.at(-1))).toBe(express12CheckDigit(body));
      if (kind === "consolidator") expect(Number(number[10])).toBe(s10CheckDigit(number.slice(2, 10)));
    }
  });

  it("gives every serial its own numbers", () => {
    const seen = new Set<string>();
    for (let serial = 1; serial <= 20_000; serial++) {
      for (const number of [
        trackingNumberFor("postal", serial, "C1", 0),
        trackingNumberFor("parcel", serial, "C1", 5),
        trackingNumberFor("express", serial, "C1", 0),
        trackingNumberFor("consolidator", serial, "C1", 0),
        bookNumberFor(serial),
        lastMileTrackingNumberFor(serial),
      ]) {
        expect(seen.has(number)).toBe(false);
        seen.add(number);
      }
    }
  });

  it("does not look sequential", () => {
    expect(trackingNumberFor("express", 1, "C1", 0).slice(0, 6)).not.toBe(trackingNumberFor("express", 2, "C1", 0).slice(0, 6));
  });
});
