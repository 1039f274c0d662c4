import type { Service } from "../../shipping-api/contract";
import { cheapest, type RateCandidate, type RatePick } from "../quoting/rate-rule";
import type { ReturnRule } from "../settings/settings";
import { carrierName, type ServiceNames } from "../shipping/service-names";

/**
 * The shop's return rule (Settings → Returns): one inbound rate per return parcel with a one-line reason, as the
 * outbound rate rule (app/quoting/rate-rule.ts, whose Cheapest pick it reuses) gives one per shipment. Pure.
 */

/**
 * The carriers whose return services book scan-based labels. The Shipping API offers them on one postal carrier
 * only (`scanBasedReturnLabel`) and List Services does not say which, so Consign names it: the National Postal
 * Service (docs/decisions/041).
 */
export const SCAN_BASED_CARRIERS: ReadonlySet<string> = new Set(["NPS"]);

/** Whether a return service books scan-based labels. */
export function offersScanBased(service: Pick<Service, "carrierCode" | "inbound">): boolean {
  return service.inbound && SCAN_BASED_CARRIERS.has(service.carrierCode);
}

/**
 * Whether an inbound service picks up in `country`: for inbound services the country lists are the SENDER's
 * countries (the Shipping API's country rule, inverted).
 */
export function servesReturnFrom(service: Pick<Service, "inbound" | "supportedCountries" | "unsupportedCountries">, country: string): boolean {
  if (!service.inbound) return false;
  if (service.supportedCountries) return service.supportedCountries.includes(country);
  return !(service.unsupportedCountries ?? []).includes(country);
}

export interface ReturnRate extends RateCandidate {
  /** Booked as a scan-based label: nothing is charged until the carrier first scans it. */
  scanBased: boolean;
}

export interface ReturnPick extends RatePick {
  scanBased: boolean;
}

const picked = (rates: readonly ReturnRate[], pick: RatePick, reason: string): ReturnPick => ({
  quoteId: pick.quoteId,
  reason,
  scanBased: rates.find((rate) => rate.quoteId === pick.quoteId)?.scanBased ?? false,
});

/** The rule's rate for one return parcel, or null when no return service quoted it. */
export function pickReturnRate(rates: readonly ReturnRate[], rule: ReturnRule, names: ServiceNames): ReturnPick | null {
  if (rates.length === 0) return null;
  const fallback = cheapest(rates);
  switch (rule.kind) {
    case "cheapest":
      return picked(rates, fallback, fallback.reason);
    case "preferred": {
      const carrier = carrierName(names, rule.carrierCode);
      const own = rates.filter((rate) => rate.carrierCode === rule.carrierCode);
      if (own.length === 0) return picked(rates, fallback, `${carrier} has no return service for this parcel: ${fallback.reason.toLowerCase()}`);
      return picked(
        rates,
        cheapest(own),
        own.length === 1 ? `Your preferred carrier for returns, ${carrier}` : `Your preferred carrier for returns, ${carrier}: its cheapest of ${own.length}`,
      );
    }
    case "scan-based": {
      const scanBased = rates.filter((rate) => rate.scanBased);
      if (scanBased.length === 0) return picked(rates, fallback, `No scan-based return service for this parcel: ${fallback.reason.toLowerCase()}`);
      return picked(rates, cheapest(scanBased), "Scan-based: it costs nothing unless the customer sends the parcel");
    }
  }
}
