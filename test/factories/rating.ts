import type { AddressInput, RatingRequest } from "../../service/rating";

/** Builders for the service's own unit tests: a plausible US shipment, overridable per test. */
export function buildAddress(overrides: Partial<AddressInput> = {}): AddressInput {
  return {
    name: "Ada Moreno",
    company: "Northwind Candles",
    address1: "500 Market St",
    address2: "",
    city: "San Francisco",
    state: "CA",
    zip: "94105",
    country: "US",
    phone: "4155550142",
    ...overrides,
  };
}

export function buildRatingRequest(overrides: Partial<RatingRequest> = {}): RatingRequest {
  return {
    shipmentDate: "2026-11-23",
    sender: buildAddress(),
    receiver: buildAddress({ name: "Jordan Blake", company: "", address1: "88 Orchard St", city: "New York", state: "NY", zip: "10002", phone: "2125550199" }),
    weightUnit: "lb",
    dimUnit: "in",
    currency: "USD",
    pieces: [{ weight: "2", length: "10", width: "8", height: "4" }],
    ...overrides,
  };
}
