import type { Context } from "../context";
import { loadOrdersWithCustoms } from "../orders/customs.server";
import type { ShippingSettings } from "../settings/settings";
import { orderFacts, ShippingRuleSchema, type OrderFacts, type ShippingRule, type ShippingRuleData } from "./shipping-rules";

/** The shop's shipping rules as kept (ShippingRule rows), in their order; each validated as it is read. */

export async function loadShippingRules({ db, shop }: Pick<Context, "db" | "shop">): Promise<ShippingRule[]> {
  const rows = await db.shippingRule.findMany({ where: { shop }, orderBy: [{ position: "asc" }, { createdAt: "asc" }] });
  return rows.map((row) => ({ id: row.id, ...ShippingRuleSchema.parse(JSON.parse(row.data)) }));
}

/** Adds a rule at the end of the list, or replaces rule `id` of the shop in its place; null when there is no such rule. */
export async function saveShippingRule({ db, shop }: Pick<Context, "db" | "shop">, id: string | null, rule: ShippingRuleData): Promise<{ id: string } | null> {
  const data = JSON.stringify(rule);
  if (id !== null) {
    const updated = await db.shippingRule.updateMany({ where: { id, shop }, data: { name: rule.name, data } });
    return updated.count === 1 ? { id } : null;
  }
  const last = await db.shippingRule.findFirst({ where: { shop }, orderBy: { position: "desc" }, select: { position: true } });
  const created = await db.shippingRule.create({ data: { shop, position: (last?.position ?? -1) + 1, name: rule.name, data }, select: { id: true } });
  return created;
}

export async function deleteShippingRule({ db, shop }: Pick<Context, "db" | "shop">, id: string): Promise<boolean> {
  return (await db.shippingRule.deleteMany({ where: { id, shop } })).count === 1;
}

/** Puts the shop's rules in the order of `ids` (each of its rules once); false when `ids` is not exactly its rules. */
export async function reorderShippingRules({ db, shop }: Pick<Context, "db" | "shop">, ids: readonly string[]): Promise<boolean> {
  const rows = await db.shippingRule.findMany({ where: { shop }, select: { id: true } });
  const known = new Set(rows.map((row) => row.id));
  if (ids.length !== known.size || new Set(ids).size !== ids.length || !ids.every((id) => known.has(id))) return false;
  await db.$transaction(ids.map((id, position) => db.shippingRule.update({ where: { id }, data: { position } })));
  return true;
}

/**
 * The facts the rules' conditions read of each mirrored order (with the line details typed in Consign), shipped
 * from the sender of `settings`; orders not in the mirror are absent.
 */
export async function loadOrderFacts(
  ctx: Pick<Context, "db" | "shop">,
  settings: Pick<ShippingSettings, "sender" | "packagingWeight">,
  orderIds: readonly string[],
): Promise<Map<string, OrderFacts>> {
  if (orderIds.length === 0) return new Map();
  const orders = await loadOrdersWithCustoms(ctx, orderIds);
  const senderCountry = settings.sender?.country ?? "";
  return new Map(orders.map((order) => [order.id, orderFacts(order, { senderCountry, packagingWeight: settings.packagingWeight })]));
}
