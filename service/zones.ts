/**
 * Pricing zones. Domestic (US): the distance between the two ZIP regions (first ZIP digit, the
 * national area), or zone 1 inside one 3-digit sectional centre and zone 2 inside one region.
 * International: the foreign country's group (A neighbours, B Europe, C Asia-Pacific, D elsewhere).
 */

/** Rough centroid (lat, lon) of each national ZIP area 0–9. */
const ZIP_AREA_CENTROIDS: readonly (readonly [number, number])[] = [
  [42.4, -71.9], // 0 New England, NJ, PR
  [41.6, -75.8], // 1 NY, PA, DE
  [37.6, -78.6], // 2 DC, MD, VA, WV, NC, SC
  [32.2, -84.4], // 3 FL, GA, AL, TN, MS
  [39.9, -85.1], // 4 IN, KY, MI, OH
  [44.6, -93.6], // 5 IA, MN, MT, ND, SD, WI
  [39.6, -92.8], // 6 IL, KS, MO, NE
  [31.8, -95.9], // 7 AR, LA, OK, TX
  [39.4, -108.8], // 8 AZ, CO, ID, NM, NV, UT, WY
  [38.9, -121.4], // 9 CA, OR, WA, AK, HI
];

/** Upper distance bound in miles for zones 3..7; beyond the last is zone 8. */
const ZONE_DISTANCE_MILES = [300, 600, 1000, 1400, 1800] as const;

/** ZIP3 prefixes with a remote-area surcharge: Alaska, Hawaii, Puerto Rico / Virgin Islands. */
const REMOTE_ZIP3 = [/^99[5-9]/, /^96[78]/, /^00[6-9]/];
/** Postcode areas treated as remote abroad (Scottish Highlands and Islands, Canadian territories). */
const REMOTE_FOREIGN: Readonly<Record<string, RegExp>> = { GB: /^(HS|ZE|KW|IV)\d/i, CA: /^X/i };

const GROUP_A = new Set(["CA", "MX"]);
const GROUP_B = new Set([
  "AT",
  "BE",
  "BG",
  "CH",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GB",
  "GR",
  "HR",
  "HU",
  "IE",
  "IS",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "NO",
  "PL",
  "PT",
  "RO",
  "SE",
  "SI",
  "SK",
]);
const GROUP_C = new Set(["AU", "CN", "HK", "ID", "IN", "JP", "KR", "MY", "NZ", "PH", "SG", "TH", "TW", "VN"]);

export function internationalZone(country: string): string {
  if (GROUP_A.has(country)) return "A";
  if (GROUP_B.has(country)) return "B";
  if (GROUP_C.has(country)) return "C";
  return "D";
}

function zip5(zip: string | null | undefined): string | null {
  const digits = (zip ?? "").trim().slice(0, 5);
  return /^\d{5}$/.test(digits) ? digits : null;
}

/** Miles between two points (haversine). */
function distanceMiles(a: readonly [number, number], b: readonly [number, number]): number {
  const radians = Math.PI / 180;
  const dLat = (b[0] - a[0]) * radians;
  const dLon = (b[1] - a[1]) * radians;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * radians) * Math.cos(b[0] * radians) * Math.sin(dLon / 2) ** 2;
  return 3958.8 * 2 * Math.asin(Math.sqrt(h));
}

/** Domestic zone "1".."8" from two US ZIP codes; null when either ZIP is not a US ZIP. */
export function domesticZone(originZip: string | null | undefined, destinationZip: string | null | undefined): string | null {
  const origin = zip5(originZip);
  const destination = zip5(destinationZip);
  if (!origin || !destination) return null;
  if (origin.slice(0, 3) === destination.slice(0, 3)) return "1";
  if (origin[0] === destination[0]) return "2";
  const from = ZIP_AREA_CENTROIDS[Number(origin[0])];
  const to = ZIP_AREA_CENTROIDS[Number(destination[0])];
  if (!from || !to) return null;
  const miles = distanceMiles(from, to);
  const index = ZONE_DISTANCE_MILES.findIndex((limit) => miles <= limit);
  return String(index === -1 ? 8 : index + 3);
}

export function isRemoteArea(country: string, zip: string | null | undefined): boolean {
  const value = (zip ?? "").trim();
  if (country === "US") return REMOTE_ZIP3.some((pattern) => pattern.test(value));
  return REMOTE_FOREIGN[country]?.test(value) ?? false;
}
