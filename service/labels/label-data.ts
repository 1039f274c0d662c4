/**
 * What a label shows. Kept (as JSON) with each booked shipment, so any label can be redrawn later
 * byte for byte: drawing depends on nothing else.
 */
export interface LabelAddress {
  name: string;
  company: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  phone: string;
}

export interface LabelData {
  carrierLabel: string;
  serviceLabel: string;
  trackingNumber: string;
  bookNumber: string;
  shipmentDate: string;
  /** ISO timestamp of the booking (the document's creation date, for deterministic bytes). */
  bookedAt: string;
  weight: string;
  pieceCount: number;
  references: string[];
  sender: LabelAddress;
  receiver: LabelAddress;
  zone: string;
}

export function addressLines(address: LabelAddress): string[] {
  const cityLine = [address.city, [address.state, address.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return [address.name, address.company, address.address1, address.address2, cityLine, address.country].filter((line) => line.trim().length > 0);
}
