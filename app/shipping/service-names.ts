/**
 * Carrier and service names for people: the one place that turns the Shipping API's codes ("GPC",
 * "GPC_INTL_ECONOMY") into the names its List Services answer gives them ("Globe Parcel Consolidators",
 * "International Economy"). Pure and serialisable, so a loader reads List Services once and every page
 * (rates, batches, Shipments) names carriers and services the same way.
 */

export interface ServiceNames {
  /** carrierCode → carrierLabel */
  carriers: Record<string, string>;
  /** "carrierCode/serviceCode" → serviceLabel */
  services: Record<string, string>;
}

export const NO_NAMES: ServiceNames = { carriers: {}, services: {} };

const key = (carrierCode: string, serviceCode: string) => `${carrierCode}/${serviceCode}`;

/** From List Services (or the Settings catalog, which carries the same labels). */
export function serviceNamesOf(
  services: ReadonlyArray<{ carrierCode: string; carrierLabel: string; serviceCode: string; serviceLabel: string }>,
): ServiceNames {
  const names: ServiceNames = { carriers: {}, services: {} };
  for (const service of services) {
    if (service.carrierLabel.trim()) names.carriers[service.carrierCode] ??= service.carrierLabel.trim();
    if (service.serviceLabel.trim()) names.services[key(service.carrierCode, service.serviceCode)] = service.serviceLabel.trim();
  }
  return names;
}

/** "Globe Parcel Consolidators" for "GPC"; the code itself when the catalog does not know it. */
export function carrierName(names: ServiceNames, carrierCode: string): string {
  return Object.hasOwn(names.carriers, carrierCode) ? names.carriers[carrierCode]! : carrierCode;
}

/**
 * A service's name: the catalog's label, else the description the quote carried, else the code in words
 * ("GPC_INTL_ECONOMY" → "Intl Economy", without the carrier's prefix), so no raw code reaches a page.
 */
export function serviceName(names: ServiceNames, service: { carrierCode: string; serviceCode: string; serviceDescription?: string | null }): string {
  const known = key(service.carrierCode, service.serviceCode);
  if (Object.hasOwn(names.services, known)) return names.services[known]!;
  if (service.serviceDescription?.trim()) return service.serviceDescription.trim();
  return codeInWords(service.carrierCode, service.serviceCode);
}

/** "GPC · International Economy" → "Globe Parcel Consolidators · International Economy". */
export function carrierAndService(names: ServiceNames, service: { carrierCode: string; serviceCode: string; serviceDescription?: string | null }): string {
  return `${carrierName(names, service.carrierCode)} · ${serviceName(names, service)}`;
}

/** A shipment's carrier and service by name, each empty where the shipment has no code (not booked). */
export function shipmentServiceNames(
  names: ServiceNames,
  shipment: { carrierCode: string | null; serviceCode: string | null },
): { carrier: string; service: string } {
  const { carrierCode, serviceCode } = shipment;
  return {
    carrier: carrierCode ? carrierName(names, carrierCode) : "",
    service: carrierCode && serviceCode ? serviceName(names, { carrierCode, serviceCode }) : "",
  };
}

function codeInWords(carrierCode: string, serviceCode: string): string {
  const prefix = `${carrierCode}_`;
  const bare = serviceCode.startsWith(prefix) && serviceCode.length > prefix.length ? serviceCode.slice(prefix.length) : serviceCode;
  return bare
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => (/^\d/.test(word) ? word : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()))
    .join(" ");
}
