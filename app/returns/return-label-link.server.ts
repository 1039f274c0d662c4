import { describeError } from "../../shipping-api/client";
import type { Context } from "../context";
import { shippingClientFor } from "../shipping/client.server";

/**
 * The return label behind its link (docs/decisions/041): the link Shopify sends the customer carries a random token
 * (Shipment.labelToken), the only access, valid until labelTokenExpiresAt and while the label is not voided. The
 * route has no shop of its own: the label's shipment says which shop's account redraws it.
 */

export type ReturnLabelFile = { kind: "found"; pdf: Buffer; filename: string } | { kind: "not_found" } | { kind: "unavailable" };

/** Tokens are 32 base64url characters; anything else is not one the app issued. */
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

export async function loadReturnLabel(ctx: Pick<Context, "db" | "log" | "now">, token: string): Promise<ReturnLabelFile> {
  if (!TOKEN.test(token)) return { kind: "not_found" };
  const shipment = await ctx.db.shipment.findUnique({
    where: { labelToken: token },
    select: { id: true, shop: true, kind: true, orderName: true, bookNumber: true, trackingNumber: true, labelTokenExpiresAt: true, trackingStopReason: true },
  });
  if (!shipment || shipment.kind !== "RETURN" || !shipment.bookNumber) return { kind: "not_found" };
  if (!shipment.labelTokenExpiresAt || shipment.labelTokenExpiresAt <= ctx.now() || shipment.trackingStopReason === "VOIDED") return { kind: "not_found" };
  const client = await shippingClientFor(ctx.db, shipment.shop, { timeoutMs: 10_000, retry: { attempts: 2 } });
  const label = await client.getShipmentLabel({ bookNumber: shipment.bookNumber });
  if (!label.ok) {
    ctx.log.warn({ shipmentId: shipment.id, shop: shipment.shop }, `return label: ${describeError(label.error)}`);
    return { kind: "unavailable" };
  }
  const name = `return-${shipment.orderName.replace(/[^A-Za-z0-9]+/g, "")}-${shipment.trackingNumber ?? shipment.bookNumber}.pdf`;
  return { kind: "found", pdf: Buffer.from(label.value.labelImage, "base64"), filename: name };
}
