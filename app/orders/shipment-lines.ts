import type { Shipment } from "@prisma/client";
import { z } from "zod";
import type { MirroredOrder } from "./order-node";
import type { ShopifyWeightUnit } from "./weights";

/**
 * A shipment's lines (Shipment.lines: what its fulfillment covers) with what the mirrored order says of each:
 * product, variant, SKU, whether it goes in the parcel and what one unit weighs. Pure; the packages editor,
 * the check of a box's lines and the packing slips all read a shipment's lines through it.
 */
export interface ShipmentLine {
  /** The fulfillment order line item's id (Shipment.lines' fulfillmentOrderLineItemId, the mirrored line's id). */
  id: string;
  product: string;
  variant: string | null;
  sku: string;
  quantity: number;
  /** Goes in the parcel: false for gift cards and digital products. A line the mirror no longer has is taken as shipped. */
  ships: boolean;
  /** One unit's weight as the order gives it (what was typed in Consign over Shopify's, when the order was read with it), or null. */
  weight: { value: number; unit: ShopifyWeightUnit } | null;
  /** The fulfillment order's assigned location, when mirrored. */
  location: string | null;
}

const StoredLines = z.array(z.object({ fulfillmentOrderLineItemId: z.string(), quantity: z.number().int().positive() }));

const RequestedItems = z.object({
  pieces: z.array(z.object({ lineItems: z.array(z.object({ sku: z.string(), productName: z.string() })).nullish() })),
});

/** A line as a merchant reads it: "Sage apron — Large", or the product alone when it has no variant. */
export function itemName(line: Pick<ShipmentLine, "product" | "variant">): string {
  return line.variant ? `${line.product} — ${line.variant}` : line.product;
}

/** Each shipment's lines (by shipment id), named from its mirrored order among `orders` (by order id). */
export function linesOfShipments(
  shipments: ReadonlyArray<Pick<Shipment, "id" | "orderId" | "lines" | "request" | "fulfillmentOrderId">>,
  orders: ReadonlyMap<string, MirroredOrder>,
): Map<string, ShipmentLine[]> {
  return new Map(shipments.map((shipment) => [shipment.id, shipmentLines(shipment, orders.get(shipment.orderId))]));
}

/**
 * The shipment's lines, named from the mirrored order (`order`, undefined when the mirror no longer has it: then
 * from the line items the shipment was quoted with, in their order).
 */
export function shipmentLines(shipment: Pick<Shipment, "lines" | "request" | "fulfillmentOrderId">, order: MirroredOrder | undefined): ShipmentLine[] {
  const fulfillmentOrder = order?.fulfillmentOrders.find((fo) => fo.id === shipment.fulfillmentOrderId);
  const mirrored = new Map((fulfillmentOrder?.lines ?? []).map((line) => [line.id, line]));
  const requested = RequestedItems.safeParse(JSON.parse(shipment.request));
  const items = requested.success ? requested.data.pieces.flatMap((piece) => piece.lineItems ?? []) : [];
  return StoredLines.parse(JSON.parse(shipment.lines)).map((line, index): ShipmentLine => {
    const known = mirrored.get(line.fulfillmentOrderLineItemId);
    return {
      id: line.fulfillmentOrderLineItemId,
      product: known?.productTitle ?? items[index]?.productName ?? "Item no longer in the order",
      variant: known?.variantTitle && known.variantTitle !== "Default Title" ? known.variantTitle : null,
      sku: known?.sku ?? items[index]?.sku ?? "",
      quantity: line.quantity,
      ships: known?.requiresShipping !== false,
      weight: known?.weight ?? null,
      location: fulfillmentOrder?.assignedLocationId ?? null,
    };
  });
}
