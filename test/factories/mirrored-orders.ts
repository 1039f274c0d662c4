import type { PrismaClient } from "@prisma/client";
import type { MirroredOrder } from "../../app/orders/order-node";

/** The seed's product without a weight: its orders are blocked for their weight until one is typed. */
export const WEIGHTLESS_PRODUCT = "Enamel Pin Set";

/**
 * The shop's mirrored orders (oldest first) that ship in one go within the US: to a five-digit ZIP, from one open
 * fulfillment order whose products' titles `products` accepts (any, unless given). The mirror is filled first
 * (test/support/mirror-sync.ts); the app's module is imported here once the test has set the app's environment.
 */
export async function domesticOrders(db: PrismaClient, shop: string, products: (titles: readonly string[]) => boolean = () => true): Promise<MirroredOrder[]> {
  const { loadMirroredOrders } = await import("../../app/orders/mirror.server");
  const rows = await db.mirrorOrder.findMany({ where: { shop }, orderBy: { orderCreatedAt: "asc" }, select: { id: true } });
  const orders = await loadMirroredOrders(
    { db, shop },
    rows.map((row) => row.id),
  );
  return orders.filter((order) => {
    const [only, ...more] = order.fulfillmentOrders;
    return (
      order.shippingAddress?.countryCode === "US" &&
      /^\d{5}$/.test(order.shippingAddress.zip ?? "") &&
      only !== undefined &&
      more.length === 0 &&
      only.status === "OPEN" &&
      products(only.lines.map((line) => line.productTitle))
    );
  });
}
