import { afterAll, describe, expect, it } from "vitest";
import { contextOf } from "../factories/context";
import { aLocation } from "../factories/locations";
import { observeAdmin } from "../support/observed-admin";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { SHOP } from "../support/devstore-harness";

// What Consign keeps of the shop's profile (its summary and time zone): pages read it without asking Shopify, and it
// is read again once a day old, so a change the merchant makes in Shopify shows within a day.
const { harness, close } = await startServiceAndAdmin({ orders: 1, scope: "read_orders" });
const { default: prisma } = await import("../../app/db/db.server");
const { unauthenticated } = await import("../../app/shopify.server");
const { loadSenderLocations, loadShopSummary, PROFILE_KEPT_MS } = await import("../../app/settings/shop-profile.server");
const { loadShopTimeZone } = await import("../../app/settings/shop-time-zone.server");

afterAll(close);

const START = Date.parse("2026-11-27T12:00:00Z");

describe("the shop's kept profile", () => {
  it("GIVEN a shop WHEN pages read its summary and time zone through a day THEN Shopify is asked once; a day later it is asked again and a rename in Shopify shows", async () => {
    const { admin, seen } = observeAdmin((await unauthenticated.admin(SHOP)).admin);
    const at = (ms: number) => contextOf({ admin, shop: SHOP }, prisma, new Date(START + ms));
    const reads = () => seen.operations.filter((operation) => operation === "ShopSummary").length;
    const store = harness.admin.store;

    expect((await loadShopSummary(at(0))).name).toBe(store.getShop().name);
    expect(await loadShopTimeZone(at(60_000))).toBe(store.getShop().iana_timezone);
    await loadShopSummary(at(PROFILE_KEPT_MS - 1));
    expect(reads()).toBe(1);

    store.updateShop({ name: "Harbour & Pine", weight_unit: "KILOGRAMS", iana_timezone: "Europe/Berlin" });
    const renamed = await loadShopSummary(at(PROFILE_KEPT_MS));
    expect([renamed.name, renamed.weightUnit]).toEqual(["Harbour & Pine", "KILOGRAMS"]);
    expect(await loadShopTimeZone(at(PROFILE_KEPT_MS + 1))).toBe("Europe/Berlin");
    expect(reads()).toBe(2);
  });

  it("GIVEN a kept profile a day old WHEN Shopify cannot be read THEN the kept summary and zone serve", async () => {
    const unreachable = { ...(await unauthenticated.admin(SHOP)).admin, graphql: () => Promise.reject(new Error("fetch failed")) };
    const later = contextOf({ admin: unreachable, shop: SHOP }, prisma, new Date(START + 3 * PROFILE_KEPT_MS));
    expect((await loadShopSummary(later)).name).toBe("Harbour & Pine");
    expect(await loadShopTimeZone(later)).toBe("Europe/Berlin");
  });

  it("GIVEN a shop with more locations than one page WHEN Settings reads where it ships from THEN the locations read are kept three minutes, then every location comes, a page of ten at a time", async () => {
    const store = harness.admin.store;
    const { admin, seen } = observeAdmin((await unauthenticated.admin(SHOP)).admin);
    const at = (minutes: number) => contextOf({ admin, shop: SHOP }, prisma, new Date(START + minutes * 60_000));
    const reads = () => seen.operations.filter((operation) => operation === "SenderLocations").length;
    const before = (await loadSenderLocations(at(0))).length;
    const firstReads = reads();
    expect(firstReads).toBeGreaterThan(0);
    for (let index = 1; index <= 12; index++)
      store.insertLocation(aLocation({ name: `Depot ${String(index).padStart(2, "0")}`, address1: `${index} Quay Street` }));
    // Within three minutes Settings shows the locations as read, asking Shopify nothing (a write-back needs the throttle).
    expect(await loadSenderLocations(at(2))).toHaveLength(before);
    expect(reads()).toBe(firstReads);
    const locations = await loadSenderLocations(at(4));
    expect(locations).toHaveLength(before + 12);
    expect(locations.map((location) => location.name)).toEqual(expect.arrayContaining(["Depot 01", "Depot 12"]));
    // Every location of the shop is asked for (fulfillment services' too, left out after), ten a page.
    expect(reads() - firstReads).toBe(Math.ceil(store.countRows("locations") / 10));
  });
});
