import type { LocationRow } from "../../devstore/store/types";

/** What the local admin's `insertLocation` takes. */
export type NewLocation = Omit<LocationRow, "id" | "created_at" | "updated_at">;

/** A shop location as the local admin keeps it: an active US warehouse that fulfils online orders; override what matters. */
export function aLocation(overrides: Partial<NewLocation> = {}): NewLocation {
  return {
    name: "Warehouse",
    address1: "1 Dock Rd",
    address2: null,
    city: "Portland",
    province: "Oregon",
    province_code: "OR",
    zip: "97201",
    country: "United States",
    country_code: "US",
    phone: null,
    is_active: 1,
    fulfills_online_orders: 1,
    is_fulfillment_service: 0,
    fulfillment_service_handle: null,
    ...overrides,
  };
}
