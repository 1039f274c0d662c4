import { z } from "zod";
import { AddressSummary, CustomerAddress } from "./address";
import { Currency, DimType, DimUnit, EventStatus, Industry, RecordWeightUnit } from "./enums";
import { CountryCode, Decimal, DecimalString, Email, IsoDate, Money, NonEmptyString, Text, Timestamp } from "./primitives";
import { BookShipmentPiece } from "./shipment";

/** Search, services, tracking, provider accounts and customers. */

export const SearchShipmentsRequest = z.object({
  keyword: Text.regex(/\S/, "must not be empty"),
});
export type SearchShipmentsRequest = z.infer<typeof SearchShipmentsRequest>;

const Fulfillment = z.object({
  orderId: z.string(),
  integrationId: z.string(),
  items: z.array(
    z.object({
      productId: z.string(),
      sku: z.string(),
      lineId: z.string(),
      quantity: z.number().int(),
    }),
  ),
});

/**
 * A booked shipment found by Search Shipments. The interface spells the reference both
 * `shipmentReference` and `shipperReference`; either is accepted, and the parsed output has
 * `shipmentReference` only (preferred when both are sent).
 */
export const BookedShipment = z
  .object({
    bookNumber: NonEmptyString,
    trackingNumber: z.string(),
    trackingNumbers: z.array(z.string()),
    voided: z.boolean(),
    carrierCode: z.string(),
    serviceCode: z.string(),
    packageTypeCode: z.string(),
    shipmentDate: IsoDate,
    shipmentReference: z.string().optional(),
    shipperReference: z.string().optional(),
    shipperReference2: z.string(),
    contentDescription: z.string(),
    sender: AddressSummary,
    receiver: AddressSummary,
    residential: z.boolean(),
    signatureOptionCode: z.string().nullable(),
    weightUnit: RecordWeightUnit,
    dimUnit: DimUnit.nullable(),
    currency: Currency,
    customsCurrency: Currency.optional(),
    pieces: z.array(BookShipmentPiece),
    fulfillment: Fulfillment.nullable(),
    totalShippingCost: Decimal,
    orderIds: z.array(z.string()).nullable(),
    /**
     * Outside the spec, optional: a scan-based return label (Book Shipment's `scanBasedReturnLabel`), charged only
     * when first scanned; `chargedAt` (`YYYY-MM-DD HH:MM:SS`) is that scan's time, null while it was never scanned.
     */
    scanBasedReturnLabel: z.boolean().optional(),
    chargedAt: Timestamp.nullable().optional(),
  })
  .superRefine((shipment, ctx) => {
    if (shipment.shipmentReference === undefined && shipment.shipperReference === undefined) {
      ctx.addIssue({ code: "custom", path: ["shipmentReference"], message: "is required (or shipperReference)" });
    }
  })
  .transform(({ shipmentReference, shipperReference, ...rest }) => ({
    ...rest,
    shipmentReference: shipmentReference ?? shipperReference ?? "",
  }));
export type BookedShipment = z.infer<typeof BookedShipment>;

/** At most 100 shipments. */
export const SearchShipmentsResponse = z.object({
  shipments: z.array(BookedShipment).max(100, "must have at most 100 shipments"),
});
export type SearchShipmentsResponse = z.infer<typeof SearchShipmentsResponse>;

/** Dimension units and preset dimensions are null unless `dimType` is `preset`. */
export const PackageType = z
  .object({
    packageTypeCode: NonEmptyString,
    packageTypeLabel: z.string(),
    multipieceSupported: z.boolean(),
    weightUnit: RecordWeightUnit,
    maxWeightPerPiece: DecimalString,
    dimType: DimType,
    dimUnit: DimUnit.nullable(),
    presetLength: Decimal.nullable(),
    presetWidth: Decimal.nullable(),
    presetHeight: Decimal.nullable(),
  })
  .superRefine((packageType, ctx) => {
    if (packageType.dimType === "preset") return;
    for (const key of ["dimUnit", "presetLength", "presetWidth", "presetHeight"] as const) {
      if (packageType[key] !== null) {
        ctx.addIssue({ code: "custom", path: [key], message: "must be null unless dimType is preset" });
      }
    }
  });
export type PackageType = z.infer<typeof PackageType>;

/**
 * A carrier service. Exactly one of `supportedCountries` (the complete list) and
 * `unsupportedCountries` (every country but these) is non-null; for inbound services they are
 * sender countries, otherwise receiver countries. Dangerous goods codes are accepted as
 * `supportedDangerousGoodsCodes` or `supportedDangerousGoodCodes`; the parsed output has
 * `supportedDangerousGoodsCodes` only (null when neither is sent).
 */
export const Service = z
  .object({
    carrierCode: NonEmptyString,
    carrierLabel: z.string(),
    serviceCode: NonEmptyString,
    serviceLabel: z.string(),
    inbound: z.boolean(),
    supportedCountries: z.array(CountryCode).nullable(),
    unsupportedCountries: z.array(CountryCode).nullable(),
    signatureOptions: z.array(
      z.object({
        signatureOptionCode: z.string(),
        signatureOptionLabel: z.string(),
      }),
    ),
    supportedDangerousGoodsCodes: z.string().nullish(),
    supportedDangerousGoodCodes: z.string().nullish(),
    packageTypes: z.array(PackageType),
    /**
     * Outside the spec, which shows no way to know it: whether Book Shipment takes `saturdayDelivery` for
     * this service. Absent means unknown (a service that does not send it), and apps then offer no
     * Saturday delivery.
     */
    saturdayDelivery: z.boolean().optional(),
  })
  .superRefine((service, ctx) => {
    if ((service.supportedCountries === null) === (service.unsupportedCountries === null)) {
      ctx.addIssue({
        code: "custom",
        path: ["supportedCountries"],
        message: "exactly one of supportedCountries and unsupportedCountries must be non-null",
      });
    }
  })
  .transform(({ supportedDangerousGoodsCodes, supportedDangerousGoodCodes, ...rest }) => ({
    ...rest,
    supportedDangerousGoodsCodes: supportedDangerousGoodsCodes ?? supportedDangerousGoodCodes ?? null,
  }));
export type Service = z.infer<typeof Service>;

export const ListServicesResponse = z.object({
  services: z.array(Service),
});
export type ListServicesResponse = z.infer<typeof ListServicesResponse>;

/** Ancillary descriptions are only populated by one carrier, null otherwise. */
export const TrackingEvent = z.object({
  trackingNumber: z.string(),
  carrier: z.string(),
  event: z.string(),
  eventStatus: EventStatus,
  eventTime: Timestamp,
  serviceArea: z.string(),
  serviceAreaCountry: CountryCode,
  ancillaryReasonDescription: z.string().nullable(),
  ancillaryActionDescription: z.string().nullable(),
});
export type TrackingEvent = z.infer<typeof TrackingEvent>;

/** Track Shipment answers a bare JSON array, most recent event first. */
export const TrackingResponse = z.array(TrackingEvent);
export type TrackingResponse = z.infer<typeof TrackingResponse>;

/** A carrier account; `accountFields` values are masked by the service. */
export const ProviderAccount = z.object({
  id: NonEmptyString,
  providerCode: NonEmptyString,
  accountFields: z.record(z.string(), z.string()),
});
export type ProviderAccount = z.infer<typeof ProviderAccount>;

export const ListProviderAccountsResponse = z.object({
  providerAccounts: z.array(ProviderAccount),
});
export type ListProviderAccountsResponse = z.infer<typeof ListProviderAccountsResponse>;

export const CreateCustomerRequest = z.object({
  profileCode: NonEmptyString,
  email: Email,
  password: NonEmptyString,
  franchiseId: Text.length(3, "must be exactly 3 characters").optional(),
  mailingAddress: CustomerAddress,
  billingAddress: CustomerAddress,
  prepaySettings: z.object({
    minimumBalance: Money,
    rechargeAmount: Money,
  }),
  salesRep: Text.optional(),
  industry: Industry.optional(),
  utm: z
    .object({
      source: Text.optional(),
      medium: Text.optional(),
      campaign: Text.optional(),
      term: Text.optional(),
      content: Text.optional(),
    })
    .optional(),
  monthlyVolume: Text.optional(),
});
export type CreateCustomerRequest = z.infer<typeof CreateCustomerRequest>;

export const CreateCustomerResponse = z.object({
  customerId: NonEmptyString,
});
export type CreateCustomerResponse = z.infer<typeof CreateCustomerResponse>;
