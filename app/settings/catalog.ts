import type { ProviderAccount, Service } from "../../shipping-api/contract";

/**
 * What the account offers (List Services, List Provider Accounts) as choices for the Settings page. Pure, so
 * the page and the checks on save read the catalog the same way.
 */

export interface ServiceChoice {
  carrierCode: string;
  carrierLabel: string;
  serviceCode: string;
  serviceLabel: string;
  /** Inbound services are return services: never quoted for orders. */
  inbound: boolean;
  /** The country rule in words: "US only", "42 countries", "all but 3 countries". */
  countries: string;
}

export interface PresetPackageChoice {
  carrierCode: string;
  carrierLabel: string;
  packageTypeCode: string;
  packageTypeLabel: string;
  /** "12.25 × 10.75 × 1.5 in" */
  dimensions: string;
}

export interface Catalog {
  services: ServiceChoice[];
  carriers: Array<{ carrierCode: string; carrierLabel: string }>;
  presetPackages: PresetPackageChoice[];
  signatureOptions: Array<{ code: string; label: string }>;
  providerAccounts: Array<{ id: string; label: string }>;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * A service's country rule in words. Exactly one of the two lists is set (the contract checks it); for
 * inbound services they are the countries shipments come from.
 */
export function countryRule(service: Pick<Service, "supportedCountries" | "unsupportedCountries" | "inbound">): string {
  const from = service.inbound ? "from " : "";
  if (service.supportedCountries) {
    const [only] = service.supportedCountries;
    if (service.supportedCountries.length === 1 && only) return `${from}${only} only`;
    return `${from}${plural(service.supportedCountries.length, "country", "countries")}`;
  }
  const excluded = service.unsupportedCountries ?? [];
  if (excluded.length === 0) return `${from}all countries`;
  return `${from}all but ${plural(excluded.length, "country", "countries")}`;
}

export function serviceKey(service: { carrierCode: string; serviceCode: string }): string {
  return `${service.carrierCode}/${service.serviceCode}`;
}

/** Identifies a carrier's preset package among the catalog's (one per carrier and package type). */
export function presetKey(preset: { carrierCode: string; packageTypeCode: string }): string {
  return `${preset.carrierCode}/${preset.packageTypeCode}`;
}

function formatDimensions(packageType: Service["packageTypes"][number]): string {
  const sides = [packageType.presetLength, packageType.presetWidth, packageType.presetHeight].map((side) => side ?? "?");
  return `${sides.join(" × ")} ${packageType.dimUnit ?? ""}`.trim();
}

/** Masked account fields as the service returns them: "accountNumber ••••4821, key ••••". */
export function providerAccountLabel(account: ProviderAccount): string {
  const fields = Object.entries(account.accountFields).map(([name, value]) => `${name} ${value}`);
  return [account.providerCode, ...(fields.length ? [fields.join(", ")] : [])].join(" · ");
}

export function buildCatalog(services: readonly Service[], providerAccounts: readonly ProviderAccount[]): Catalog {
  const carriers = new Map<string, string>();
  const presets = new Map<string, PresetPackageChoice>();
  const signatures = new Map<string, string>();
  for (const service of services) {
    if (!carriers.has(service.carrierCode)) carriers.set(service.carrierCode, service.carrierLabel);
    if (service.inbound) continue;
    for (const option of service.signatureOptions) {
      if (!signatures.has(option.signatureOptionCode)) signatures.set(option.signatureOptionCode, option.signatureOptionLabel);
    }
    for (const packageType of service.packageTypes) {
      const key = presetKey({ carrierCode: service.carrierCode, packageTypeCode: packageType.packageTypeCode });
      if (packageType.dimType !== "preset" || presets.has(key)) continue;
      presets.set(key, {
        carrierCode: service.carrierCode,
        carrierLabel: service.carrierLabel,
        packageTypeCode: packageType.packageTypeCode,
        packageTypeLabel: packageType.packageTypeLabel,
        dimensions: formatDimensions(packageType),
      });
    }
  }
  return {
    services: services.map((service) => ({
      carrierCode: service.carrierCode,
      carrierLabel: service.carrierLabel,
      serviceCode: service.serviceCode,
      serviceLabel: service.serviceLabel,
      inbound: service.inbound,
      countries: countryRule(service),
    })),
    carriers: [...carriers].map(([carrierCode, carrierLabel]) => ({ carrierCode, carrierLabel })),
    presetPackages: [...presets.values()],
    signatureOptions: [...signatures].map(([code, label]) => ({ code, label })),
    providerAccounts: providerAccounts.map((account) => ({ id: account.id, label: providerAccountLabel(account) })),
  };
}
