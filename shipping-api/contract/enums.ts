import { z } from "zod";

/** Closed vocabularies of the Shipping API, spelled exactly as on the wire. */

/** Tracking event status; `Delivery Arragned` is the service's own spelling. */
export const EventStatus = z.enum([
  "Info Received",
  "In Transit",
  "Out for Delivery",
  "Delivery Arragned",
  "With Delivery Courier",
  "Delivered to Broker",
  "Failed Attempt",
  "Delivered",
  "Exception",
]);
export type EventStatus = z.infer<typeof EventStatus>;

export const BatchStatus = z.enum(["open", "processing", "completed", "failed", "cancelled"]);
export type BatchStatus = z.infer<typeof BatchStatus>;

export const QuoteStatus = z.enum(["active", "booked", "expired"]);
export type QuoteStatus = z.infer<typeof QuoteStatus>;

export const TermsOfTrade = z.enum(["CIP", "CPT", "DAP", "DAT", "DDP", "EXW", "FCA"]);
export type TermsOfTrade = z.infer<typeof TermsOfTrade>;

/** `EOR` is an EORI number. */
export const CarrierTaxIdType = z.enum(["EOR", "VAT", "FTZ", "CNP", "EIN", "FED"]);
export type CarrierTaxIdType = z.infer<typeof CarrierTaxIdType>;

/** Type of the commercial invoice's `senderVatTaxId`; the service defaults to `ein`. */
export const SenderTaxIdNumberType = z.enum(["ein", "dns", "fgn"]);
export type SenderTaxIdNumberType = z.infer<typeof SenderTaxIdNumberType>;

/** Weight units a shipment may be quoted or booked in. */
export const WeightUnit = z.enum(["lb", "oz", "kg", "g"]);
export type WeightUnit = z.infer<typeof WeightUnit>;

/** Weight units of booked shipments and package types (`lb` or `kg` only). */
export const RecordWeightUnit = WeightUnit.extract(["lb", "kg"]);
export type RecordWeightUnit = z.infer<typeof RecordWeightUnit>;

export const DimUnit = z.enum(["in", "cm"]);
export type DimUnit = z.infer<typeof DimUnit>;

export const Currency = z.enum(["USD", "GBP", "CAD", "EUR"]);
export type Currency = z.infer<typeof Currency>;

export const Industry = z.enum([
  "automotive",
  "books",
  "erotic_articles",
  "fashion_clothing",
  "food",
  "furniture",
  "health_beauty",
  "home_kitchen",
  "industrial",
  "logistics",
  "merchandise",
  "office_supplies",
  "services",
  "sports_outdoors",
  "tech_electronics",
  "toys_games",
  "other",
]);
export type Industry = z.infer<typeof Industry>;

/** `EPL2`, `ZPL` and `PNG` are only honoured by some carriers. */
export const LabelImageFormat = z.enum(["PDF", "EPL2", "ZPL", "PNG"]);
export type LabelImageFormat = z.infer<typeof LabelImageFormat>;

export const DimType = z.enum(["preset", "envelope", "custom"]);
export type DimType = z.infer<typeof DimType>;

/** Who pays shipping (billing `party`) or duty (`dutyPaymentType`). */
export const BillingParty = z.enum(["sender", "receiver", "third_party"]);
export type BillingParty = z.infer<typeof BillingParty>;

export const QuotedWeightType = z.enum(["Actual", "Dimensional"]);
export type QuotedWeightType = z.infer<typeof QuotedWeightType>;
