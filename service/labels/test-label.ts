import type { LabelData } from "./label-data";

export function buildLabel(overrides: Partial<LabelData> = {}): LabelData {
  const address = {
    name: "Ada Moreno",
    company: "Northwind Candles",
    address1: "500 Market St",
    address2: "Suite 4",
    city: "San Francisco",
    state: "CA",
    zip: "94105",
    country: "US",
    phone: "4155550142",
  };
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
    receiver: {
      ...address,
      name: "Jordan Blake",
      company: "",
      address1: "88 Orchard St",
      address2: "Apt 3B",
      city: "New York",
      state: "NY",
      zip: "10002",
      phone: "2125550199",
    },
    zone: "8",
    ...overrides,
  };
}

/** An international label (US → PT) with its commercial invoice: `items` invoice lines, by default two. */
export function buildInternationalLabel(items = 2, overrides: Partial<LabelData> = {}): LabelData {
  const base = buildLabel();
  const products = [
    { description: "Stoneware Mug - Midnight", quantity: 2, unitValue: "18.50", htsNumber: "6912.00.48", countryOfOrigin: "PT" },
    { description: "Linen Apron - Sage", quantity: 1, unitValue: "42.00", htsNumber: "6211.49.00", countryOfOrigin: "LT" },
  ];
  return buildLabel({
    trackingNumber: "GC123456789US",
    receiver: {
      ...base.receiver,
      name: "Inês Carvalho",
      address1: "Rua Augusta 27",
      address2: "",
      city: "Lisboa",
      state: "",
      zip: "1100-048",
      country: "PT",
      phone: "351213425000",
    },
    invoice: {
      currency: "EUR",
      termsOfTrade: "DAP",
      senderTaxId: "US-EIN-12-3456789",
      receiverTaxId: "",
      packageMarks: "#1001",
      exportFiling: "FTR 30.37(a)",
      items: Array.from({ length: items }, (_, index) => {
        const product = products[index % products.length]!;
        return index < products.length ? product : { ...product, description: `${product.description} (${index + 1})` };
      }),
    },
    ...overrides,
  });
}
