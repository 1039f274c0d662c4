import type { ListServicesResponse } from "../../shipping-api/contract";
import type { Catalog } from "../catalog";

/** List Services, rendered once per catalog: it never changes while the service runs. */
export function listServices(catalog: Catalog): ListServicesResponse {
  return {
    services: catalog.services.map((entry) => ({
      carrierCode: entry.carrierCode,
      carrierLabel: catalog.carrier(entry.carrierCode)?.carrierLabel ?? entry.carrierCode,
      serviceCode: entry.serviceCode,
      serviceLabel: entry.serviceLabel,
      inbound: entry.inbound,
      supportedCountries: entry.supportedCountries ? [...entry.supportedCountries] : null,
      unsupportedCountries: entry.unsupportedCountries ? [...entry.unsupportedCountries] : null,
      signatureOptions: entry.signatureOptions.map(({ signatureOptionCode, signatureOptionLabel }) => ({ signatureOptionCode, signatureOptionLabel })),
      supportedDangerousGoodsCodes: entry.supportedDangerousGoodsCodes,
      saturdayDelivery: entry.saturdayDelivery,
      packageTypes: entry.packageTypes.map((type) => ({
        packageTypeCode: type.packageTypeCode,
        packageTypeLabel: type.packageTypeLabel,
        multipieceSupported: type.multipieceSupported,
        weightUnit: type.weightUnit,
        maxWeightPerPiece: type.maxWeightPerPiece.toFixed(2),
        dimType: type.dimType,
        dimUnit: type.preset?.unit ?? null,
        presetLength: type.preset ? String(type.preset.length) : null,
        presetWidth: type.preset ? String(type.preset.width) : null,
        presetHeight: type.preset ? String(type.preset.height) : null,
      })),
    })),
  };
}
