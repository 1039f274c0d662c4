import { describe, expect, it } from "vitest";
import { Store } from "../store/store.js";
import { seedStore } from "./seed.js";

const clock = () => Date.parse("2026-11-20T12:00:00Z");

function snapshot(store: Store): unknown {
  return {
    orders: store.db.prepare("SELECT name, email, tags_json, shipping_address_json, display_fulfillment_status, created_at FROM orders ORDER BY id").all(),
    lines: store.db.prepare("SELECT order_id, sku, quantity, price FROM line_items ORDER BY id").all(),
  };
}

describe("seedStore", () => {
  it("GIVEN the same seed and clock WHEN seeding twice THEN the stores are identical", () => {
    const a = new Store(":memory:", clock);
    const b = new Store(":memory:", clock);
    seedStore(a, { orders: 80 });
    seedStore(b, { orders: 80 });
    expect(snapshot(a)).toEqual(snapshot(b));
    a.close();
    b.close();
  });

  it("GIVEN a seeded store WHEN seeding again THEN it refuses instead of duplicating", () => {
    const store = new Store(":memory:", clock);
    seedStore(store, { orders: 5 });
    expect(() => seedStore(store, { orders: 5 })).toThrow(/already has data/);
    expect(store.countRows("orders")).toBe(5);
    store.close();
  });

  it("GIVEN the scenario list WHEN seeded THEN every case the app must handle is present", () => {
    const store = new Store(":memory:", clock);
    seedStore(store, { orders: 60 });
    const count = (sql: string) => (store.db.prepare(sql).get() as { n: number }).n;
    expect(count("SELECT COUNT(*) AS n FROM locations WHERE is_fulfillment_service = 1")).toBe(1);
    expect(count("SELECT COUNT(*) AS n FROM orders WHERE display_fulfillment_status = 'PARTIALLY_FULFILLED'")).toBeGreaterThan(0);
    expect(count("SELECT COUNT(*) AS n FROM orders WHERE display_fulfillment_status = 'ON_HOLD'")).toBeGreaterThan(0);
    expect(count("SELECT COUNT(*) AS n FROM fulfillment_orders WHERE delivery_method_type = 'PICK_UP'")).toBe(1);
    expect(count("SELECT COUNT(*) AS n FROM orders WHERE json_extract(shipping_address_json, '$.address1') LIKE 'PO Box%'")).toBe(1);
    expect(count("SELECT COUNT(*) AS n FROM orders WHERE json_extract(shipping_address_json, '$.company') IS NOT NULL")).toBeGreaterThan(1);
    expect(
      count("SELECT COUNT(*) AS n FROM orders WHERE json_extract(shipping_address_json, '$.phone') IS NULL AND shipping_address_json IS NOT NULL"),
    ).toBeGreaterThan(0);
    expect(count("SELECT COUNT(*) AS n FROM (SELECT order_id, sku FROM line_items GROUP BY order_id, sku HAVING COUNT(*) > 1)")).toBeGreaterThan(0);
    expect(count("SELECT COUNT(*) AS n FROM line_items WHERE quantity > 1")).toBeGreaterThan(0);
    expect(count("SELECT COUNT(*) AS n FROM inventory_items WHERE weight_value = 0 AND requires_shipping = 1")).toBe(1);
    expect(count("SELECT COUNT(*) AS n FROM inventory_items WHERE harmonized_system_code IS NOT NULL")).toBeGreaterThan(
      count("SELECT COUNT(*) AS n FROM inventory_items") / 2,
    );
    const countries = (
      store.db.prepare("SELECT DISTINCT json_extract(shipping_address_json, '$.countryCode') AS c FROM orders").all() as { c: string | null }[]
    ).map((r) => r.c);
    for (const c of ["US", "GB", "CA", "DE", "AU", "JP"]) expect(countries).toContain(c);
    store.close();
  });
});
