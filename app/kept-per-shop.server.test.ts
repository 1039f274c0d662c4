import { describe, expect, it } from "vitest";
import { KeptPerShop } from "./kept-per-shop.server";

describe("what a page keeps of a shop for a few minutes", () => {
  const at = (seconds: number) => new Date(Date.UTC(2026, 10, 27, 12, 0, seconds));

  it("gives back what was kept until the keeping time has passed, per shop", () => {
    const kept = new KeptPerShop<string[]>(60_000);
    expect(kept.get("a.myshopify.com", at(0))).toBeUndefined();
    expect(kept.set("a.myshopify.com", ["Warehouse"], at(0))).toEqual(["Warehouse"]);
    expect(kept.get("a.myshopify.com", at(59))).toEqual(["Warehouse"]);
    expect(kept.get("b.myshopify.com", at(59)), "another shop's").toBeUndefined();
    expect(kept.get("a.myshopify.com", at(60)), "a minute old").toBeUndefined();
    kept.set("a.myshopify.com", ["Store"], at(60));
    expect(kept.get("a.myshopify.com", at(61)), "read again").toEqual(["Store"]);
  });
});
