import { z } from "zod";
import type { BatchQuoteShipment, WeightUnit } from "../../shipping-api/contract";
import type { FieldErrors, Outcome } from "../outcome";
import { sayProblem, type FieldName } from "../field-errors";
import { MAX_PACKAGING_WEIGHT, PositiveDecimal, type ShippingSettings } from "../settings/settings";

/**
 * Fixing an order's packages without leaving the app: the merchant picks a box and a weight for each package
 * (one, or several to split the order), and the shipment's stored quote request is rewritten with those
 * pieces before it is quoted again. Pure: parsing the posted packages in merchant's words, and applying them.
 */

/** Most packages one shipment is split into here (the interface takes more; a page of fields is enough). */
export const MAX_PACKAGES = 10;

export interface PackageChoice {
  /** A box of Settings, by name. */
  box: string;
  /** In the shipment's weight unit, packaging included. */
  weight: string;
}

export const PackagesForm = z.object({
  shipmentId: z.string().min(1, "choose a shipment").max(64),
  box: z.array(z.string().trim().min(1, "choose a box")).min(1, "add at least one package").max(MAX_PACKAGES, `may have at most ${MAX_PACKAGES}`),
  weight: z.array(PositiveDecimal).min(1, "add at least one package").max(MAX_PACKAGES, `may have at most ${MAX_PACKAGES}`),
});

/**
 * A refusal names one field (`packages[1].weight`, where the editor shows it), and its message names the box
 * as the editor does: "Box 2: weight must be more than 0".
 */
export type PackagesResult = Outcome<{ shipmentId: string; packages: PackageChoice[] }, { fieldErrors: FieldErrors }>;

function refuse(field: string, name: FieldName, problem: string): PackagesResult {
  const message = sayProblem(name, problem);
  return { ok: false, message, fieldErrors: { [field]: message } };
}

/** The editor's name for package `index`: "Box 1". */
const boxNumber = (index: number) => `Box ${index + 1}`;

/**
 * The posted packages (`box` and `weight` repeated, one per package), checked against the shop's boxes and
 * the heaviest parcel for the shipment's unit. A problem names its box: "Box 2: weight must be more than 0".
 */
export function parsePackages(
  posted: { shipmentId?: unknown; box: unknown[]; weight: unknown[] },
  boxes: ShippingSettings["boxes"],
  unit: WeightUnit,
): PackagesResult {
  const parsed = PackagesForm.safeParse(posted);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const [name, index] = issue.path;
    if (typeof index === "number")
      return refuse(`packages[${index}].${String(name)}`, { subject: boxNumber(index), ...(name === "weight" ? { label: "weight" } : {}) }, issue.message);
    return refuse(String(name ?? "packages"), { label: name === "shipmentId" ? "shipment" : "boxes" }, issue.message);
  }
  const { shipmentId, box, weight } = parsed.data;
  if (box.length !== weight.length) return refuse("packages", {}, "each box needs a size and a weight");
  const heaviest = MAX_PACKAGING_WEIGHT[unit];
  for (const [index, name] of box.entries()) {
    if (!boxes.some((candidate) => candidate.name === name)) {
      return refuse(`packages[${index}].box`, { subject: boxNumber(index) }, `“${name}” is not one of your boxes; add it in Settings first`);
    }
    if (Number(weight[index]) > heaviest) {
      return refuse(
        `packages[${index}].weight`,
        { subject: boxNumber(index), label: "weight" },
        `must be at most ${heaviest.toLocaleString("en-US")} ${unit}; split it into more packages`,
      );
    }
  }
  const presets = new Set(
    box
      .map((name) => boxes.find((candidate) => candidate.name === name)!)
      .filter((found) => found.kind === "preset")
      .map((found) => found.name),
  );
  const units = new Set(
    box.map((name) => boxes.find((candidate) => candidate.name === name)!).flatMap((found) => (found.kind === "custom" ? [found.dimUnit] : [])),
  );
  if (presets.size > 0 && (presets.size > 1 || units.size > 0)) {
    return refuse("packages[0].box", {}, "a carrier's own package cannot be mixed with other boxes in one shipment; use it for every package or none");
  }
  if (units.size > 1) {
    return refuse("packages[0].box", {}, "boxes measured in inches and in centimetres cannot go in one shipment; use boxes of one unit");
  }
  return { ok: true, shipmentId, packages: box.map((name, index) => ({ box: name, weight: weight[index]! })) };
}

const StoredPackages = z.array(z.object({ box: z.string(), weight: z.string() })).min(1);

/**
 * The packages a shipment ships in: as the merchant set them (the shipment's stored `packages`), else its
 * request's pieces in the default box.
 */
export function currentPackages(stored: string | null, request: Pick<BatchQuoteShipment, "pieces">, defaultBox: string): PackageChoice[] {
  const parsed = stored ? StoredPackages.safeParse(JSON.parse(stored)) : null;
  return parsed?.success ? parsed.data : request.pieces.map((piece) => ({ box: defaultBox, weight: piece.weight }));
}

/**
 * The stored quote request with these packages as its pieces. The first piece keeps what covers the
 * shipment as a whole (insurance, declared value, the line items), as booking does; a carrier's own package
 * sets the request's carrier and package type, custom boxes clear them.
 */
export function applyPackages(request: BatchQuoteShipment, packages: readonly PackageChoice[], boxes: ShippingSettings["boxes"]): BatchQuoteShipment {
  const chosen = packages.map((entry) => ({ entry, box: boxes.find((candidate) => candidate.name === entry.box)! }));
  const preset = chosen.find(({ box }) => box.kind === "preset")?.box;
  const custom = chosen.find(({ box }) => box.kind === "custom")?.box;
  const { carrierCode: _carrier, packageTypeCode: _package, ...rest } = request;
  const [head] = request.pieces;
  return {
    ...rest,
    ...(preset?.kind === "preset" ? { carrierCode: preset.carrierCode, packageTypeCode: preset.packageTypeCode } : {}),
    dimUnit: custom?.kind === "custom" ? custom.dimUnit : null,
    pieces: chosen.map(({ entry, box }, index) => ({
      weight: entry.weight,
      length: box.kind === "custom" ? box.length : null,
      width: box.kind === "custom" ? box.width : null,
      height: box.kind === "custom" ? box.height : null,
      insuranceAmount: index === 0 ? (head?.insuranceAmount ?? null) : null,
      declaredValue: index === 0 ? (head?.declaredValue ?? null) : null,
      lineItems: index === 0 ? (head?.lineItems ?? null) : null,
    })),
  };
}
