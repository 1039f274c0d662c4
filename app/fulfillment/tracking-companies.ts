/**
 * Tracking companies Shopify recognises for shops in any country (Admin API 2026-10,
 * `FulfillmentTrackingInfo.company`): for these names Shopify builds the tracking link itself and may follow the
 * shipment. Names must be sent spelled exactly as listed. The list is checked against the schema's description in
 * tracking-companies.test.ts, so a schema upgrade that changes it fails a test instead of drifting.
 */
export const SHOPIFY_TRACKING_COMPANIES: readonly string[] = [
  "4PX", "AGS", "Amazon", "Amazon Logistics UK", "An Post", "Anjun Logistics", "APC", "Asendia USA",
  "Australia Post", "Bonshaw", "BPost", "BPost International", "Canada Post", "Canpar", "CDL Last Mile",
  "China Post", "Chronopost", "Chukou1", "Colissimo", "Comingle", "Coordinadora", "Correios", "Correos", "CTT",
  "CTT Express", "Cyprus Post", "Delnext", "Deutsche Post", "DHL eCommerce", "DHL eCommerce Asia", "DHL Express",
  "DPD", "DPD Local", "DPD UK", "DTD Express", "DX", "Eagle", "Estes", "Evri", "FedEx", "First Global Logistics",
  "First Line", "FSC", "Fulfilla", "GLS", "Guangdong Weisuyi Information Technology (WSE)",
  "Heppner Internationale Spedition GmbH & Co.", "Iceland Post", "IDEX", "Israel Post", "Japan Post (EN)",
  "Japan Post (JA)", "La Poste Colissimo", "La Poste Burkina Faso", "Lasership", "Latvia Post", "Lietuvos Paštas",
  "Logisters", "Lone Star Overnight", "M3 Logistics", "Meteor Space", "Mondial Relay", "New Zealand Post",
  "NinjaVan", "North Russia Supply Chain (Shenzhen) Co.", "OnTrac", "Packeta", "Pago Logistics",
  "Ping An Da Tengfei Express", "Pitney Bowes", "Portal PostNord", "Poste Italiane", "PostNL", "PostNord DK",
  "PostNord NO", "PostNord SE", "Purolator", "Qxpress", "Qyun Express", "Royal Mail", "Royal Shipments",
  "Sagawa (EN)", "Sagawa (JA)", "Sendle", "SF Express", "SFC Fulfillment", "ShipBob", "SHREE NANDAN COURIER",
  "Singapore Post", "Southwest Air Cargo", "StarTrack", "Step Forward Freight", "Swiss Post", "TForce Final Mile",
  "Tinghao", "TNT", "Toll IPEC", "United Delivery Service", "UPS", "USPS", "Venipak", "We Post", "Whistl", "Wizmo",
  "WMYC", "Xpedigo", "XPO Logistics", "Yamato (EN)", "Yamato (JA)", "YiFan Express", "YunExpress",
];

const byLowerCase = new Map(SHOPIFY_TRACKING_COMPANIES.map((name) => [name.toLowerCase(), name]));

/** Shopify's exact spelling of a carrier name it recognises, or null when it does not know the carrier. */
export function shopifyTrackingCompany(carrierName: string): string | null {
  return byLowerCase.get(carrierName.trim().toLowerCase()) ?? null;
}
