import type { LabelData } from "./label-data";

export function buildLabel(overrides: Partial<LabelData> = {}): LabelData {
  const address = { name: "Ada Moreno", company: "Northwind Candles", address1: "500 Market St", address2: "Suite 4", city: "San Francisco", state: "CA", zip: "94105", country: "US", phone: "4155550142" };
  return {
    carrierLabel: "Brownline Parcel",
    serviceLabel: "Ground",
    trackingNumber: "1ZSVPIIC0538639223",
    bookNumber: "CN0023863922",
    shipmentDate: "2026-11-23",
    bookedAt: "2026-11-21T08:27:40.000Z",
    weight: "6 lb",
    pieceCount: 1,
    references: ["#1001"],
    sender: address,
    receiver: { ...address, name: "Jordan Blake", company: "", address1: "88 Orchard St", address2: "Apt 3B", city: "New York", state: "NY", zip: "10002", phone: "2125550199" },
    zone: "8",
    ...overrides,
  };
}
