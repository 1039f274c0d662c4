import type { Context } from "../context";
import { storedQuotes } from "./stored-rates";

/** The currency of the shop's latest rates (what its rules and totals are described in), or null before any. */
export async function latestRatesCurrency(ctx: Pick<Context, "db" | "shop">): Promise<string | null> {
  const latest = await ctx.db.shipment.findFirst({
    where: { shop: ctx.shop, rates: { not: null } },
    orderBy: { quotedAt: "desc" },
    select: { rates: true, quotedAt: true },
  });
  return latest ? (storedQuotes(latest)[0]?.currency ?? null) : null;
}
