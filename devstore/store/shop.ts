import type { Store } from "./store.js";
import type { Address, CountryHsCodeRow, InventoryItemRow, LocationRow, ProductRow, ShopRow, StaffUserRow, VariantRow } from "./types.js";

/** The shop, its staff and locations, and the catalog (products, variants, inventory items with weights and HS codes). */
export const shopRows = {
  getShop(this: Store): ShopRow {
    const row = this.sql("SELECT * FROM shop LIMIT 1").get() as ShopRow | undefined;
    if (!row) throw new Error("The local admin store has no shop yet: seed it first (npm run devstore:seed).");
    return row;
  },

  shopAddress(this: Store): Address {
    return JSON.parse(this.getShop().address_json) as Address;
  },

  insertShop(this: Store, shop: Omit<ShopRow, "id" | "address_json" | "created_at"> & { address: Address }): void {
    this.sql(
      `INSERT INTO shop (id, name, email, myshopify_domain, currency_code, weight_unit, unit_system, iana_timezone, address_json, created_at)
       VALUES (1, @name, @email, @myshopify_domain, @currency_code, @weight_unit, @unit_system, @iana_timezone, @address_json, @created_at)`,
    ).run({ ...shop, address_json: JSON.stringify(shop.address), created_at: this.now() });
  },

  /** What a merchant changes in the shop's settings (its name, weight unit, time zone). */
  updateShop(this: Store, fields: Partial<Pick<ShopRow, "name" | "weight_unit" | "iana_timezone">>): void {
    const row = { ...this.getShop(), ...fields };
    this.sql("UPDATE shop SET name = @name, weight_unit = @weight_unit, iana_timezone = @iana_timezone WHERE id = 1").run(row);
  },

  insertStaffUser(this: Store, user: Omit<StaffUserRow, "id"> & { id?: number }): number {
    const info = this.sql(
      "INSERT INTO staff_users (id, first_name, last_name, email, account_owner, locale) VALUES (@id, @first_name, @last_name, @email, @account_owner, @locale)",
    ).run({ id: user.id ?? null, ...user });
    return Number(info.lastInsertRowid);
  },

  getStaffUser(this: Store, id: number): StaffUserRow | undefined {
    return this.byId<StaffUserRow>("staff_users", id);
  },

  accountOwner(this: Store): StaffUserRow | undefined {
    return this.sql("SELECT * FROM staff_users ORDER BY account_owner DESC, id LIMIT 1").get() as StaffUserRow | undefined;
  },

  insertLocation(this: Store, loc: Omit<LocationRow, "id" | "created_at" | "updated_at">): number {
    const now = this.now();
    const info = this.sql(
      `INSERT INTO locations (name, address1, address2, city, province, province_code, zip, country, country_code, phone,
         is_active, fulfills_online_orders, is_fulfillment_service, fulfillment_service_handle, created_at, updated_at)
       VALUES (@name, @address1, @address2, @city, @province, @province_code, @zip, @country, @country_code, @phone,
         @is_active, @fulfills_online_orders, @is_fulfillment_service, @fulfillment_service_handle, @now, @now)`,
    ).run({ ...loc, now });
    return Number(info.lastInsertRowid);
  },

  getLocation(this: Store, id: number): LocationRow | undefined {
    return this.byId<LocationRow>("locations", id);
  },

  listLocations(this: Store, includeInactive = false): LocationRow[] {
    return this.sql(`SELECT * FROM locations ${includeInactive ? "" : "WHERE is_active = 1"} ORDER BY name, id`).all() as LocationRow[];
  },

  defaultLocationId(this: Store): number {
    const row = this.sql("SELECT id FROM locations WHERE is_active = 1 AND is_fulfillment_service = 0 ORDER BY id LIMIT 1").get() as { id: number } | undefined;
    if (!row) throw new Error("The store has no active merchant-managed location");
    return row.id;
  },

  insertProduct(this: Store, p: Pick<ProductRow, "title" | "vendor" | "product_type" | "handle">): number {
    const now = this.now();
    const info = this.sql(
      "INSERT INTO products (title, vendor, product_type, handle, created_at, updated_at) VALUES (@title, @vendor, @product_type, @handle, @now, @now)",
    ).run({ ...p, now });
    return Number(info.lastInsertRowid);
  },

  insertVariant(
    this: Store,
    v: Pick<VariantRow, "product_id" | "title" | "sku" | "price" | "position"> &
      Pick<InventoryItemRow, "weight_unit" | "weight_value" | "harmonized_system_code" | "country_code_of_origin" | "province_code_of_origin"> & {
        requiresShipping?: boolean;
        countryHsCodes?: { countryCode: string; code: string }[];
      },
  ): { variantId: number; inventoryItemId: number } {
    const now = this.now();
    const item = this.sql(
      `INSERT INTO inventory_items (sku, requires_shipping, weight_unit, weight_value, harmonized_system_code,
         country_code_of_origin, province_code_of_origin, created_at, updated_at)
       VALUES (@sku, @requires_shipping, @weight_unit, @weight_value, @harmonized_system_code, @country_code_of_origin,
         @province_code_of_origin, @now, @now)`,
    ).run({
      sku: v.sku,
      requires_shipping: v.requiresShipping === false ? 0 : 1,
      weight_unit: v.weight_unit,
      weight_value: v.weight_value,
      harmonized_system_code: v.harmonized_system_code,
      country_code_of_origin: v.country_code_of_origin,
      province_code_of_origin: v.province_code_of_origin,
      now,
    });
    const inventoryItemId = Number(item.lastInsertRowid);
    const hs = this.sql("INSERT INTO inventory_item_country_hs_codes (inventory_item_id, country_code, harmonized_system_code) VALUES (?, ?, ?)");
    for (const c of v.countryHsCodes ?? []) hs.run(inventoryItemId, c.countryCode, c.code);
    const variant = this.sql(
      `INSERT INTO variants (product_id, inventory_item_id, title, sku, price, position, created_at, updated_at)
       VALUES (@product_id, @inventory_item_id, @title, @sku, @price, @position, @now, @now)`,
    ).run({ product_id: v.product_id, inventory_item_id: inventoryItemId, title: v.title, sku: v.sku, price: v.price, position: v.position, now });
    return { variantId: Number(variant.lastInsertRowid), inventoryItemId };
  },

  getProduct(this: Store, id: number): ProductRow | undefined {
    return this.byId<ProductRow>("products", id);
  },

  listProductIds(this: Store): number[] {
    return (this.sql("SELECT id FROM products ORDER BY id").all() as { id: number }[]).map((r) => r.id);
  },

  getVariant(this: Store, id: number): VariantRow | undefined {
    return this.byId<VariantRow>("variants", id);
  },

  listVariants(this: Store, productId: number): VariantRow[] {
    return this.where<VariantRow>("variants", "product_id", productId, "position, id");
  },

  variantForInventoryItem(this: Store, inventoryItemId: number): VariantRow | undefined {
    return this.sql("SELECT * FROM variants WHERE inventory_item_id = ?").get(inventoryItemId) as VariantRow | undefined;
  },

  /** The variant's weight (its inventory item's measurement), as productVariantsBulkUpdate sets it. */
  setVariantWeight(this: Store, variantId: number, weight: { unit: InventoryItemRow["weight_unit"]; value: number }): void {
    this.transaction(() => {
      const variant = this.getVariant(variantId);
      if (!variant) throw new Error(`Unknown variant ${variantId}`);
      const now = this.now();
      this.sql("UPDATE inventory_items SET weight_unit = ?, weight_value = ?, updated_at = ? WHERE id = ?").run(
        weight.unit,
        weight.value,
        now,
        variant.inventory_item_id,
      );
      this.sql("UPDATE variants SET updated_at = ? WHERE id = ?").run(now, variantId);
      this.sql("UPDATE products SET updated_at = ? WHERE id = ?").run(now, variant.product_id);
    });
  },

  getInventoryItem(this: Store, id: number): InventoryItemRow | undefined {
    return this.byId<InventoryItemRow>("inventory_items", id);
  },

  listCountryHsCodes(this: Store, inventoryItemId: number): (CountryHsCodeRow & { id: number })[] {
    return this.sql("SELECT rowid AS id, * FROM inventory_item_country_hs_codes WHERE inventory_item_id = ? ORDER BY country_code").all(
      inventoryItemId,
    ) as (CountryHsCodeRow & { id: number })[];
  },
};
