import { z } from "zod";
import { ORDER_FOR_SHIPPING } from "../orders/order-documents";
import type { AdminDocument } from "./admin-document";
import { adminQuery, type ShopAdmin } from "./gateway.server";

/**
 * Compile-time checks of the typed gateway, run by `npm run typecheck` (tsc reads this file; vitest does not):
 * each call marked @ts-expect-error must fail to compile, or the typecheck fails on the unused directive.
 */
const Order = z.object({ order: z.object({ id: z.string(), name: z.string() }).nullable() });

export async function typedGatewayChecks(context: ShopAdmin) {
  // What the document selects, nullable where Shopify may send null, with its variables: compiles.
  const { order } = await adminQuery(context, ORDER_FOR_SHIPPING, Order, { id: "gid://shopify/Order/1" });
  const name: string | undefined = order?.name;

  // @ts-expect-error the schema reads a field the document does not select (note)
  await adminQuery(context, ORDER_FOR_SHIPPING, z.object({ order: z.object({ note: z.string() }).nullable() }), { id: "gid://shopify/Order/1" });
  // @ts-expect-error the schema rejects the null Shopify sends for an order it does not find
  await adminQuery(context, ORDER_FOR_SHIPPING, z.object({ order: z.object({ id: z.string() }) }), { id: "gid://shopify/Order/1" });
  // @ts-expect-error the schema expects a number where the document selects a string
  await adminQuery(context, ORDER_FOR_SHIPPING, z.object({ order: z.object({ name: z.number() }).nullable() }), { id: "gid://shopify/Order/1" });
  // @ts-expect-error a variable the document does not declare
  await adminQuery(context, ORDER_FOR_SHIPPING, Order, { orderId: "gid://shopify/Order/1" });
  // @ts-expect-error the document's required variable is missing
  await adminQuery(context, ORDER_FOR_SHIPPING, Order);
  // @ts-expect-error a document without generated types
  await adminQuery(context, "query { shop { name } }", z.object({ shop: z.object({ name: z.string() }) }));

  const untyped = "query Untyped { shop { name } }" as AdminDocument<{ shop: { name: string } }, Record<string, never>>;
  // A document without variables takes none.
  await adminQuery(context, untyped, z.object({ shop: z.object({ name: z.string() }) }));
  return name;
}
