import { z } from "zod";
import { Address, LabelImageFormat, ReturnToAddress, TermsOfTrade, WeightUnit } from "../../shipping-api/contract";
import type { BoxPreset, MappingSettings } from "../orders/shipment-mapping";

/**
 * The merchant's shipping settings: one document per shop (Prisma `ShopSettings.data`), validated here on
 * every read and write. A shop that never saved settings gets `DEFAULT_SETTINGS`, which quotes with every
 * service and needs only a sender address to start.
 */

/** A size or amount the merchant types: a number, and more than 0 (a negative one is told so, not "not a number"). */
export const PositiveDecimal = z
  .string()
  .trim()
  .regex(/^-?\d+(\.\d+)?$/, "must be a number, like 12 or 12.5")
  .refine((value) => Number(value) > 0, "must be more than 0");

/**
 * The longest side a box may have: beyond every parcel carrier's limit (the longest take 108–119 in), so a
 * value past it is a typing slip (a misplaced unit or digit), not a box.
 */
const MAX_BOX_SIDE = { in: 120, cm: 305 } as const;

/**
 * The heaviest packaging (box, filler) added to every shipment, per unit: past about 150 lb nothing ships as a
 * parcel, so it is also the most one package may weigh when the merchant repacks an order.
 */
export const MAX_PACKAGING_WEIGHT = { lb: 150, oz: 2400, kg: 70, g: 70_000 } as const;

export const BoxPresetSchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("custom"),
      name: z.string().trim().min(1, "is required"),
      length: PositiveDecimal,
      width: PositiveDecimal,
      height: PositiveDecimal,
      dimUnit: z.enum(["in", "cm"]),
    })
    .superRefine((box, ctx) => {
      const longest = MAX_BOX_SIDE[box.dimUnit];
      for (const side of ["length", "width", "height"] as const) {
        if (Number(box[side]) > longest) ctx.addIssue({ code: "custom", path: [side], message: `must be at most ${longest} ${box.dimUnit}` });
      }
    }),
  z.object({
    kind: z.literal("preset"),
    name: z.string().trim().min(1, "is required"),
    carrierCode: z.string().min(1),
    packageTypeCode: z.string().min(1),
  }),
]) satisfies z.ZodType<BoxPreset>;

export const PackingSlipSize = z.enum(["4x6", "letter", "a4"]);
export type PackingSlipSize = z.infer<typeof PackingSlipSize>;

/** How the app preselects one rate per shipment. */
export const RateRule = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("cheapest") }),
  z.object({ kind: z.literal("fastest") }),
  z.object({
    kind: z.literal("preferred"),
    carrierCode: z.string().min(1, "choose a carrier"),
    /** The preferred carrier is picked while its total is at most this; otherwise the cheapest. */
    maxAmount: PositiveDecimal,
  }),
  z.object({
    /** The service nearest the shipping the customer chose at checkout (by speed class). */
    kind: z.literal("match"),
    /** Services above this total are not considered; when all are, the cheapest. */
    maxAmount: PositiveDecimal,
  }),
]);
export type RateRule = z.infer<typeof RateRule>;

/** A tag Consign writes on Shopify orders: what Shopify keeps of a tag (up to 40 characters, no commas). */
const OrderTag = z
  .string()
  .trim()
  .min(1, "is required")
  .max(40, "must be at most 40 characters")
  .refine((tag) => !tag.includes(","), "must not contain a comma");

/**
 * Tags written on the Shopify order (docs/decisions/043): off until the merchant turns them on (which needs the
 * optional scope write_orders), each name editable.
 */
export const OrderTags = z
  .object({
    enabled: z.boolean(),
    labelBought: OrderTag,
    delivered: OrderTag,
    exception: OrderTag,
  })
  .superRefine((tags, ctx) => {
    // One tag for two facts would come off with the other (delivery takes the exception's tag off).
    const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
    if (same(tags.delivered, tags.labelBought))
      ctx.addIssue({ code: "custom", path: ["delivered"], message: "must differ from the tag when the label is bought" });
    if (same(tags.exception, tags.labelBought))
      ctx.addIssue({ code: "custom", path: ["exception"], message: "must differ from the tag when the label is bought" });
    else if (same(tags.exception, tags.delivered)) ctx.addIssue({ code: "custom", path: ["exception"], message: "must differ from the tag when delivered" });
  });
export type OrderTags = z.infer<typeof OrderTags>;

export const DEFAULT_ORDER_TAGS: OrderTags = { enabled: false, labelBought: "label-bought", delivered: "delivered", exception: "delivery-exception" };

/**
 * How Consign picks a return label's service among the shop's inbound services (docs/decisions/041): the cheapest,
 * a preferred carrier's (the cheapest of its return services; the cheapest of all when it has none for the parcel),
 * or a scan-based label where one serves the customer's country, which costs nothing unless the customer sends it.
 */
export const ReturnRule = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("cheapest") }),
  z.object({ kind: z.literal("preferred"), carrierCode: z.string().min(1, "choose a carrier") }),
  z.object({ kind: z.literal("scan-based") }),
]);
export type ReturnRule = z.infer<typeof ReturnRule>;

export const ServiceKey = z.object({ carrierCode: z.string().min(1), serviceCode: z.string().min(1) });
export type ServiceKey = z.infer<typeof ServiceKey>;

export const ShippingSettings = z
  .object({
    /** The Shopify location the sender address was taken from (Location GID), if any. */
    senderLocationId: z.string().nullable(),
    sender: Address.nullable(),
    /** Null: returns go to the sender address. */
    returnAddress: ReturnToAddress.nullable(),
    boxes: z.array(BoxPresetSchema).min(1, "keep at least one box"),
    defaultBox: z.string().min(1),
    packagingWeight: z.object({ value: z.number().nonnegative("must not be negative"), unit: WeightUnit }).superRefine((weight, ctx) => {
      const heaviest = MAX_PACKAGING_WEIGHT[weight.unit];
      if (weight.value > heaviest)
        ctx.addIssue({ code: "custom", path: ["value"], message: `must be at most ${heaviest.toLocaleString("en-US")} ${weight.unit}` });
    }),
    /** Empty: every service the account offers is quoted. */
    enabledServices: z.array(ServiceKey),
    providerAccountId: z.string().nullable(),
    labelFormat: LabelImageFormat,
    notifyCustomer: z.boolean(),
    rateRule: RateRule,
    /** How a return label's service is picked; shops that saved settings before returns pick the cheapest. */
    returnRule: ReturnRule.default({ kind: "cheapest" }),
    /**
     * A scan-based return label booked with each outbound label where a scan-based return service picks up in the
     * order's country, printed after it to go in the box (issue 24 §5); off unless the merchant turns it on.
     */
    returnLabelInBox: z.boolean().default(false),
    signatureOptionCode: z.string().nullable(),
    insure: z.boolean(),
    residential: z.enum(["auto", "residential", "commercial"]),
    termsOfTrade: TermsOfTrade,
    senderVatTaxId: z.string(),
    /** The packing slips' paper: the label printer's 4×6, or a sheet printer's Letter or A4. */
    packingSlipSize: PackingSlipSize.default("4x6"),
    /** Tags on the Shopify order when its label is bought, when it is delivered and while it needs attention. */
    orderTags: OrderTags.default(DEFAULT_ORDER_TAGS),
  })
  .superRefine((settings, ctx) => {
    if (!settings.boxes.some((box) => box.name === settings.defaultBox)) {
      ctx.addIssue({ code: "custom", path: ["defaultBox"], message: "must be one of the boxes" });
    }
  });
export type ShippingSettings = z.infer<typeof ShippingSettings>;

export const DEFAULT_SETTINGS: ShippingSettings = {
  senderLocationId: null,
  sender: null,
  returnAddress: null,
  boxes: [{ kind: "custom", name: "Standard box", length: "12", width: "9", height: "4", dimUnit: "in" }],
  defaultBox: "Standard box",
  packagingWeight: { value: 4, unit: "oz" },
  enabledServices: [],
  providerAccountId: null,
  labelFormat: "PDF",
  notifyCustomer: true,
  rateRule: { kind: "cheapest" },
  returnRule: { kind: "cheapest" },
  returnLabelInBox: false,
  signatureOptionCode: null,
  insure: false,
  residential: "auto",
  termsOfTrade: "DAP",
  senderVatTaxId: "",
  packingSlipSize: "4x6",
  orderTags: DEFAULT_ORDER_TAGS,
};

/** The box quotes use: the default one. */
export function defaultBox(settings: ShippingSettings): BoxPreset {
  const box = settings.boxes.find((candidate) => candidate.name === settings.defaultBox);
  if (!box) throw new Error(`default box ${settings.defaultBox} is not among the boxes`);
  return box;
}

/** Whether a service is among those the merchant quotes with. */
export function isServiceEnabled(settings: ShippingSettings, service: ServiceKey): boolean {
  return (
    settings.enabledServices.length === 0 ||
    settings.enabledServices.some((key) => key.carrierCode === service.carrierCode && key.serviceCode === service.serviceCode)
  );
}

/**
 * What order→shipment mapping needs, or null while there is no sender address (the merchant is sent to
 * Settings first). `services` is the account's List Services answer.
 */
export function mappingSettings(
  settings: ShippingSettings,
  context: {
    services: MappingSettings["enabledServices"];
    weightUnit: MappingSettings["weightUnit"];
    shipmentDate: string;
  },
): MappingSettings | null {
  if (!settings.sender) return null;
  return {
    sender: settings.sender,
    packagingWeight: settings.packagingWeight,
    box: defaultBox(settings),
    boxes: settings.boxes,
    weightUnit: context.weightUnit,
    termsOfTrade: settings.termsOfTrade,
    residential: settings.residential,
    signatureOptionCode: settings.signatureOptionCode,
    insure: settings.insure,
    senderVatTaxId: settings.senderVatTaxId,
    enabledServices: context.services.filter((service) => !service.inbound && isServiceEnabled(settings, service)),
    shipmentDate: context.shipmentDate,
  };
}
