import { z } from "zod";
import { Address, ConsigneeAddress, ReturnToAddress } from "./address";
import { BillingParty, CarrierTaxIdType, Currency, DimUnit, LabelImageFormat, SenderTaxIdNumberType, TermsOfTrade, WeightUnit } from "./enums";
import { CountryCode, DecimalString, Description, Dimension, IsoDate, Money, NonEmptyString, Text, Weight } from "./primitives";

/** Request shapes of a shipment: per entry of Batch Quote, and Book Shipment. */

/** Most pieces in one shipment, and most line items in a piece or items on an invoice (one order's lines). */
export const MAX_PIECES = 100;
export const MAX_LINE_ITEMS = 500;

const Pieces = <P extends z.ZodType>(piece: P) => z.array(piece).min(1, "must have at least 1 piece").max(MAX_PIECES, `must have at most ${MAX_PIECES} pieces`);

/** A product in a piece (bulk quote only); order and duplicates are preserved. */
export const LineItem = z.object({
  sku: Text,
  /** A product and variant title together, so a description's length. */
  productName: Description,
  quantity: z.number().int().positive(),
});
export type LineItem = z.infer<typeof LineItem>;

/** A piece as Book Shipment requires it: every field present, dimensions null for preset packages. */
export const BookShipmentPiece = z.object({
  weight: Weight,
  length: Dimension.nullable(),
  width: Dimension.nullable(),
  height: Dimension.nullable(),
  insuranceAmount: Money.nullable(),
  declaredValue: Money.nullable(),
});
export type BookShipmentPiece = z.infer<typeof BookShipmentPiece>;

/** A piece of a bulk quote shipment: only `weight` is required; optional `lineItems`. */
export const Piece = BookShipmentPiece.partial({
  length: true,
  width: true,
  height: true,
  insuranceAmount: true,
  declaredValue: true,
}).extend({
  lineItems: z.array(LineItem).max(MAX_LINE_ITEMS, `must have at most ${MAX_LINE_ITEMS} line items`).nullish(),
});
export type Piece = z.infer<typeof Piece>;

export const Billing = z.object({
  party: BillingParty,
  account: Text.nullish(),
  country: CountryCode.nullish(),
  zip: Text.nullish(),
  dutiableParty: z
    .object({
      dutyPaymentType: BillingParty.nullable(),
      dutyPaymentAccountNumber: Text.nullish(),
    })
    .superRefine((party, ctx) => {
      const paidByAccount = party.dutyPaymentType === "receiver" || party.dutyPaymentType === "third_party";
      if (paidByAccount && !party.dutyPaymentAccountNumber) {
        ctx.addIssue({
          code: "custom",
          path: ["dutyPaymentAccountNumber"],
          message: "is required when dutyPaymentType is receiver or third_party",
        });
      }
    })
    .nullish(),
});
export type Billing = z.infer<typeof Billing>;

/** Tax id for one express carrier; ignored by the others. */
export const CarrierTaxId = z.object({
  number: Text.regex(/\S/, "must not be empty"),
  type: CarrierTaxIdType,
  issuerCountry: CountryCode.optional(),
});
export type CarrierTaxId = z.infer<typeof CarrierTaxId>;

export const CommercialInvoiceItem = z.object({
  description: Description.min(1, "must not be empty"),
  quantity: z.number().int().positive(),
  unitValue: Money,
  weight: Weight.optional(),
  htsNumber: Text,
  countryOfOrigin: CountryCode,
});
export type CommercialInvoiceItem = z.infer<typeof CommercialInvoiceItem>;

/**
 * Commercial invoice of an international shipment. Export filing numbers are exclusive:
 * `ftrNumber` must be null when `itnNumber` or `aesNumber` is present, `itnNumber` must be null
 * when `ftrNumber` or `aesNumber` is present, and `aesNumber` must currently always be null.
 */
export const CommercialInvoice = z
  .object({
    sendElectronically: z.boolean().optional(),
    ftrNumber: Text.nullable(),
    itnNumber: Text.nullable(),
    aesNumber: Text.nullable(),
    termsOfTrade: TermsOfTrade,
    receiverTaxId: Text,
    senderVatTaxId: Text,
    senderTaxIdNumberType: SenderTaxIdNumberType.optional(),
    packageMarks: Description,
    consignee: ConsigneeAddress.nullish(),
    importerOfRecord: ConsigneeAddress.nullish(),
    carrierTaxIds: z.array(CarrierTaxId).max(2, "must have at most 2 entries").optional(),
    items: z.array(CommercialInvoiceItem).min(1, "must have at least 1 item").max(MAX_LINE_ITEMS, `must have at most ${MAX_LINE_ITEMS} items`),
  })
  .superRefine((invoice, ctx) => {
    const has = (value: string | null) => value !== null;
    if (has(invoice.aesNumber)) {
      ctx.addIssue({ code: "custom", path: ["aesNumber"], message: "must be null (not supported yet)" });
    }
    if (has(invoice.ftrNumber) && (has(invoice.itnNumber) || has(invoice.aesNumber))) {
      ctx.addIssue({ code: "custom", path: ["ftrNumber"], message: "must be null when itnNumber or aesNumber is present" });
    }
    if (has(invoice.itnNumber) && (has(invoice.ftrNumber) || has(invoice.aesNumber))) {
      ctx.addIssue({ code: "custom", path: ["itnNumber"], message: "must be null when ftrNumber or aesNumber is present" });
    }
  });
export type CommercialInvoice = z.infer<typeof CommercialInvoice>;

/** Fields shared by a bulk quote entry and a Book Shipment request. */
const shipmentFields = {
  shipmentDate: IsoDate,
  contentDescription: Description.optional(),
  sender: Address,
  receiver: Address,
  residential: z.boolean().optional(),
  signatureOptionCode: Text.nullish(),
  weightUnit: WeightUnit,
  dimUnit: DimUnit.nullable(),
  currency: Currency,
  billing: Billing.optional(),
  providerAccountId: Text.nullish(),
  commercialInvoice: CommercialInvoice.nullish(),
};

interface ShipmentForDomesticRule {
  sender: { country: string };
  receiver: { country: string };
  pieces: readonly { declaredValue?: string | null | undefined }[];
}

/** Domestic shipments (same sender and receiver country) carry no declared value. */
function checkDomesticDeclaredValue(shipment: ShipmentForDomesticRule, ctx: z.RefinementCtx): void {
  if (shipment.sender.country !== shipment.receiver.country) return;
  shipment.pieces.forEach((piece, index) => {
    if (piece.declaredValue != null) {
      ctx.addIssue({
        code: "custom",
        path: ["pieces", index, "declaredValue"],
        message: "must be null for a domestic shipment (sender and receiver in the same country)",
      });
    }
  });
}

/** One shipment of a Batch Quote request. Empty or omitted codes quote every carrier/service/package. */
export const BatchQuoteShipment = z
  .object({
    ...shipmentFields,
    carrierCode: Text.optional(),
    serviceCode: Text.optional(),
    packageTypeCode: Text.optional(),
    shipmentReference: Text,
    pieces: Pieces(Piece),
  })
  .superRefine(checkDomesticDeclaredValue);
export type BatchQuoteShipment = z.infer<typeof BatchQuoteShipment>;

/** Maximum number of shipments per Batch Quote request, and of quotes per batch. */
export const MAX_BATCH_SIZE = 500;

const shipmentList = <S extends z.ZodType>(shipment: S) =>
  z.array(shipment).min(1, "must have at least 1 shipment").max(MAX_BATCH_SIZE, `must have at most ${MAX_BATCH_SIZE} shipments`);

export const BatchQuoteRequest = z.object({ shipments: shipmentList(BatchQuoteShipment) });
export type BatchQuoteRequest = z.infer<typeof BatchQuoteRequest>;

/**
 * A Batch Quote body as a whole: an object with 1–500 shipments of any shape. Rule 1 of Batch Quote (each
 * shipment is quoted independently, one failing does not stop the others) covers validation too, so the
 * service checks this first (a 400 when it fails) and then each shipment against {@link BatchQuoteShipment}
 * on its own (a shipment that fails is its own `status: "error"` entry).
 */
export const BatchQuoteEnvelope = z.object({ shipments: shipmentList(z.unknown()) });
export type BatchQuoteEnvelope = z.infer<typeof BatchQuoteEnvelope>;

/**
 * Book Shipment request. `customsCurrency` is optional here although the spec's field table
 * flags it required: its own note ("when present") and the booked-shipment record treat it
 * as optional, with `currency` applying when it is absent.
 */
export const BookShipmentRequest = z
  .object({
    ...shipmentFields,
    carrierCode: NonEmptyString,
    serviceCode: NonEmptyString,
    packageTypeCode: NonEmptyString,
    shipmentReference: Text.optional(),
    shipmentReference2: Text.optional(),
    contentType: Text.optional(),
    orderNumber: Text.optional(),
    returnTo: ReturnToAddress.optional(),
    dangerousGoodsCode: Text.optional(),
    postalExpressAmDelivery: z.boolean().optional(),
    saturdayDelivery: z.boolean().optional(),
    customsCurrency: Currency.optional(),
    labelImageFormat: LabelImageFormat.nullish(),
    pieces: Pieces(BookShipmentPiece),
    approvePrepayRecharge: z.boolean().optional(),
    scanBasedReturnLabel: z.boolean().optional(),
    postalEndorsement: Text.nullish(),
  })
  .superRefine(checkDomesticDeclaredValue);
export type BookShipmentRequest = z.infer<typeof BookShipmentRequest>;

/**
 * `pieces` is only present for multipiece shipments of one postal carrier. The spec shows no label in
 * the response; our service adds the label in the requested format (`labelImageFormat`, base64
 * `labelImage`). They are optional so that a service without them still books: the label can then be
 * fetched with Get Shipment Label.
 */
export const BookShipmentResponse = z.object({
  bookNumber: NonEmptyString,
  trackingNumber: z.string(),
  prepayBalance: DecimalString,
  zone: z.string(),
  pieces: z
    .array(
      z.object({
        trackingNumber: z.string(),
        shippingCost: DecimalString,
      }),
    )
    .optional(),
  labelImageFormat: LabelImageFormat.optional(),
  labelImage: z.base64("must be base64").min(1, "must not be empty").optional(),
});
export type BookShipmentResponse = z.infer<typeof BookShipmentResponse>;

/**
 * Get Shipment Label (outside the spec, which names a "Retrieve Shipping Label" operation without
 * showing it): the label of one booked shipment, redrawn in the format it was booked with.
 */
export const ShipmentLabelResponse = z.object({
  labelImageFormat: LabelImageFormat,
  labelImage: z.base64("must be base64").min(1, "must not be empty"),
});
export type ShipmentLabelResponse = z.infer<typeof ShipmentLabelResponse>;
