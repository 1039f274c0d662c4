import { z } from "zod";
import type { BatchQuoteShipment, WeightUnit } from "../../shipping-api/contract";
import type { FieldErrors, Outcome } from "../outcome";
import { sayProblem, type FieldName } from "../field-errors";
import { itemName, type ShipmentLine } from "../orders/shipment-lines";
import { formatWeight, toNanograms } from "../orders/weights";
import { MAX_PACKAGING_WEIGHT, PositiveDecimal, type ShippingSettings } from "../settings/settings";

/**
 * Fixing an order's packages without leaving the app: the merchant picks a box and a weight for each package
 * (one, or several to split the order) and, for several, which of the shipment's items go in each box; the
 * shipment's stored quote request is rewritten with those pieces before it is quoted again. Pure: parsing the
 * posted packages in merchant's words, applying them, and each box's lines for its packing slip.
 */

/** Most packages one shipment is split into here (the interface takes more; a page of fields is enough). */
export const MAX_PACKAGES = 10;

/** Most lines one shipment's boxes are assigned here (a fulfillment order past it is not one parcel's). */
export const MAX_PACKED_LINES = 250;

/** Units of one of the shipment's lines in one box. */
export interface BoxLine {
  /** The fulfillment order line item (Shipment.lines' fulfillmentOrderLineItemId; the mirrored order's line). */
  lineId: string;
  /** Whole, more than 0: a box lists only what is in it. */
  quantity: number;
}

export interface PackageChoice {
  /** A box of Settings, by name. */
  box: string;
  /** In the shipment's weight unit, packaging included: as the merchant typed it, whatever the lines weigh. */
  weight: string;
  /**
   * What is in this box when the order ships in several (every unit of every line that ships is in exactly one
   * box). Absent for an order in one box (everything is in it), and on packages saved before lines were
   * assigned: each box's packing slip then lists the whole shipment and says so.
   */
  lines?: BoxLine[];
}

/** One of the shipment's lines that goes in its boxes, as the packages editor lists it. */
export interface PackableLine {
  id: string;
  /** "Sage apron — Large" */
  name: string;
  sku: string;
  quantity: number;
  /** One unit's weight in nanograms (orders/weights.ts), as the order was quoted; null when it has none. */
  unitNanograms: number | null;
}

/** What the packages editor needs to put items in boxes: the lines that go in the parcel, and the packaging every box adds. */
export interface PackingFacts {
  lines: PackableLine[];
  packagingNanograms: number;
}

/** The editor's facts for a shipment of `lines` (gift cards and digital products left out: they go in no box). */
export function packingFacts(lines: readonly ShipmentLine[], packagingWeight: ShippingSettings["packagingWeight"]): PackingFacts {
  return {
    lines: lines
      .filter((line) => line.ships)
      .map((line) => ({
        id: line.id,
        name: itemName(line),
        sku: line.sku,
        quantity: line.quantity,
        unitNanograms: line.weight && line.weight.value > 0 ? Number(toNanograms(line.weight.value, line.weight.unit)) : null,
      })),
    packagingNanograms: Number(toNanograms(packagingWeight.value, packagingWeight.unit)),
  };
}

/**
 * The first suggestion of what goes in each box (`[box][line]` quantities): the units in line order, dealt in
 * runs as even as whole units allow (3 mugs and an apron in 2 boxes: 2 mugs | 1 mug and the apron), so a line
 * stays together where it can. The merchant moves units from there.
 */
export function evenAssignment(lines: ReadonlyArray<{ quantity: number }>, boxCount: number): number[][] {
  const total = lines.reduce((sum, line) => sum + line.quantity, 0);
  const boxes = Array.from({ length: boxCount }, () => lines.map(() => 0));
  let unit = 0;
  lines.forEach((line, index) => {
    for (let each = 0; each < line.quantity; each++, unit++) boxes[Math.floor((unit * boxCount) / total)]![index]! += 1;
  });
  return boxes;
}

/**
 * What each of the packages holds (`[box][line]` quantities of `lines`): as they were saved when that still
 * places every unit of the lines, else the even first suggestion.
 */
export function assignmentOf(packages: readonly PackageChoice[], lines: readonly PackableLine[]): number[][] {
  const saved = packages.map((entry) =>
    lines.map((line) => (entry.lines ?? []).filter((held) => held.lineId === line.id).reduce((sum, held) => sum + held.quantity, 0)),
  );
  const whole =
    packages.every((entry) => entry.lines !== undefined) &&
    lines.every((line, index) => saved.reduce((sum, box) => sum + box[index]!, 0) === line.quantity) &&
    packages.every((entry) => entry.lines!.every((held) => lines.some((line) => line.id === held.lineId)));
  return packages.length > 1 && whole ? saved : evenAssignment(lines, packages.length);
}

/**
 * What a box weighs from its items' weights and the packaging (`quantities` per line of `facts.lines`), in
 * `unit`, rounded up; null when the box is empty or an item in it has no weight.
 */
export function derivedBoxWeight(facts: PackingFacts, quantities: readonly number[], unit: WeightUnit): string | null {
  let nanograms = BigInt(facts.packagingNanograms);
  let units = 0;
  for (const [index, line] of facts.lines.entries()) {
    const quantity = quantities[index] ?? 0;
    if (quantity === 0) continue;
    if (line.unitNanograms === null) return null;
    nanograms += BigInt(line.unitNanograms) * BigInt(quantity);
    units += quantity;
  }
  return units > 0 ? formatWeight(nanograms, unit) : null;
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

function refuse(field: string, name: FieldName, problem: string): { ok: false; message: string; fieldErrors: FieldErrors } {
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
  posted: PostedPackages,
  boxes: ShippingSettings["boxes"],
  unit: WeightUnit,
  lines: readonly AssignableLine[] = [],
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
  const packed = box.map((name, index) => ({ box: name, weight: weight[index]! }));
  // One box holds everything; several say which units each holds.
  if (box.length === 1 || !lines.some((line) => line.ships)) return { ok: true, shipmentId, packages: packed };
  const assigned = parseAssignment({ line: posted.line ?? [], quantity: posted.quantity ?? [] }, box.length, lines);
  if (!assigned.ok) return assigned;
  return { ok: true, shipmentId, packages: packed.map((entry, index) => ({ ...entry, lines: assigned.boxes[index]! })) };
}

/** The packages editor's post: the shipment, a box and a weight per package, and which items each box holds. */
export interface PostedPackages {
  shipmentId?: unknown;
  box: unknown[];
  weight: unknown[];
  /** The shipment's lines the quantities are for, by id, in the editor's order. */
  line?: unknown[];
  /** Per line (in `line`'s order), its quantity in each box in box order: `quantity[line × boxes + box]`. */
  quantity?: unknown[];
}

/** A shipment line as the check of what is in each box sees it (orders/shipment-lines.ts' ShipmentLine fits). */
export type AssignableLine = Pick<ShipmentLine, "id" | "product" | "variant" | "quantity" | "ships">;

/** A quantity typed in a box: blank is none. */
const BoxQuantity = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? "0" : value),
  z
    .string({ error: "must be a whole number, 0 or more" })
    .trim()
    .regex(/^\d{1,6}$/, "must be a whole number, 0 or more")
    .transform(Number),
);

const NOT_AN_ITEM = "is not one of this shipment's items; open the packages again";

const AssignmentForm = z.object({
  line: z
    .array(z.string({ error: NOT_AN_ITEM }).trim().min(1, NOT_AN_ITEM).max(200, NOT_AN_ITEM))
    .max(MAX_PACKED_LINES, `may have at most ${MAX_PACKED_LINES}`),
  quantity: z.array(BoxQuantity).max(MAX_PACKED_LINES * MAX_PACKAGES, `may have at most ${MAX_PACKED_LINES} items, each in at most ${MAX_PACKAGES} boxes`),
});

export type AssignmentResult = Outcome<{ boxes: BoxLine[][] }, { fieldErrors: FieldErrors }>;

/**
 * Which units of the shipment's `lines` each of `boxCount` boxes holds, checked: whole quantities, 0 or more;
 * only lines of this shipment that go in the parcel; every unit of every such line in exactly one box. A
 * refusal names the box and the item as the editor shows them ("Box 2: 3 × Sage apron is more than the 2
 * left"), on the field of that quantity (`packages[1].lines[0]`: box 2, the editor's first item) or of the
 * item (`lines[0]`) when no one box is at fault.
 */
export function parseAssignment(posted: { line: unknown[]; quantity: unknown[] }, boxCount: number, lines: readonly AssignableLine[]): AssignmentResult {
  const parsed = AssignmentForm.safeParse(posted);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const [name, index] = issue.path;
    if (name === "quantity" && typeof index === "number") {
      const at = Math.floor(index / boxCount);
      const line = lines.find((candidate) => candidate.id === posted.line[at]);
      const item = line ? itemName(line) : `item ${at + 1}`;
      return refuse(`packages[${index % boxCount}].lines[${at}]`, { subject: boxNumber(index % boxCount) }, `the quantity of ${item} ${issue.message}`);
    }
    if (name === "line" && typeof index === "number") return refuse(`lines[${index}]`, { label: `Item ${index + 1}` }, issue.message);
    return refuse("lines", { label: "Items" }, issue.message);
  }
  const { line: ids, quantity } = parsed.data;
  if (quantity.length !== ids.length * boxCount) return refuse("lines", {}, "each item needs a quantity in every box; open the packages again");
  const byId = new Map(lines.map((line) => [line.id, line]));
  const seen = new Set<string>();
  for (const [index, id] of ids.entries()) {
    const line = byId.get(id);
    if (!line) return refuse(`lines[${index}]`, { label: `Item ${index + 1}` }, NOT_AN_ITEM);
    if (seen.has(id)) return refuse(`lines[${index}]`, { label: itemName(line) }, "is listed twice; open the packages again");
    seen.add(id);
    const units = quantity.slice(index * boxCount, (index + 1) * boxCount);
    if (!line.ships && units.some((each) => each > 0)) {
      const box = units.findIndex((each) => each > 0);
      return refuse(
        `packages[${box}].lines[${index}]`,
        { subject: boxNumber(box) },
        `${units[box]} × ${itemName(line)} needs no shipping (a gift card or a digital product); leave it out of the boxes`,
      );
    }
    let left = line.quantity;
    for (const [box, each] of units.entries()) {
      if (each > left) {
        const problem =
          left === 0
            ? `${each} × ${itemName(line)} is more than are left: all ${line.quantity} are in earlier boxes`
            : `${each} × ${itemName(line)} is more than the ${left} left`;
        return refuse(`packages[${box}].lines[${index}]`, { subject: boxNumber(box) }, problem);
      }
      left -= each;
    }
    if (line.ships && left > 0) {
      return refuse(
        `lines[${index}]`,
        { label: itemName(line) },
        `${left} of ${line.quantity} ${left === 1 ? "is" : "are"} in no box; put ${left === 1 ? "it" : "them"} in one`,
      );
    }
  }
  const missing = lines.find((line) => line.ships && !seen.has(line.id));
  if (missing) return refuse("lines", { label: itemName(missing) }, `none of its ${missing.quantity} is in a box; put them in the boxes`);
  return {
    ok: true,
    boxes: Array.from({ length: boxCount }, (_, box) =>
      ids.flatMap((lineId, index) => {
        const each = quantity[index * boxCount + box]!;
        return each > 0 ? [{ lineId, quantity: each }] : [];
      }),
    ),
  };
}

/** Shipment.packages as kept: rows saved before lines were assigned have none. */
const StoredPackages = z
  .array(
    z.object({
      box: z.string(),
      weight: z.string(),
      lines: z.array(z.object({ lineId: z.string(), quantity: z.number().int().positive() })).optional(),
    }),
  )
  .min(1);

/** The shipment's stored packages, or null when it ships as mapped from the order (or the stored value is not one). */
function storedPackages(stored: string | null): PackageChoice[] | null {
  const parsed = stored ? StoredPackages.safeParse(JSON.parse(stored)) : null;
  return parsed?.success ? parsed.data : null;
}

/**
 * The packages a shipment ships in: as the merchant set them (the shipment's stored `packages`), else its
 * request's pieces in the default box.
 */
export function currentPackages(stored: string | null, request: Pick<BatchQuoteShipment, "pieces">, defaultBox: string): PackageChoice[] {
  return storedPackages(stored) ?? request.pieces.map((piece) => ({ box: defaultBox, weight: piece.weight }));
}

/**
 * Each box's own lines (its units of the shipment's `lines`), as the merchant put them in its `boxes` boxes
 * (the booked pieces), for its packing slip; null when the stored packages do not say (an order in one box,
 * packages saved before lines were assigned, or packages that no longer fit the shipment's boxes and lines).
 */
export function linesPerBox<L extends { id: string; quantity: number }>(stored: string | null, boxes: number, lines: readonly L[]): L[][] | null {
  const packages = storedPackages(stored);
  if (!packages || boxes < 2 || packages.length !== boxes || packages.some((entry) => entry.lines === undefined)) return null;
  const byId = new Map(lines.map((line) => [line.id, line]));
  const assigned = new Map<string, number>();
  for (const { lineId, quantity } of packages.flatMap((entry) => entry.lines!)) assigned.set(lineId, (assigned.get(lineId) ?? 0) + quantity);
  if ([...assigned].some(([lineId, quantity]) => quantity > (byId.get(lineId)?.quantity ?? 0))) return null;
  return packages.map((entry) => entry.lines!.map(({ lineId, quantity }) => ({ ...byId.get(lineId)!, quantity })));
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
