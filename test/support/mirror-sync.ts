import type { PrismaClient } from "@prisma/client";
import type { ShopAdmin } from "../../app/shopify/gateway.server";
import { contextOf } from "../factories/context";

/**
 * Fills the app's order mirror as a first visit does: the real bulk operation on the (local) admin, advanced
 * until it ends. Throws when it fails; returns how many orders it mirrored.
 */
export async function syncOrderMirror(context: ShopAdmin, db: PrismaClient, pollMs = 50): Promise<number> {
  const mirror = await import("../../app/orders/mirror.server");
  const ctx = contextOf(context, db);
  const { syncId } = await mirror.startMirrorSync(ctx);
  let progress = await mirror.advanceMirrorSync(ctx, syncId);
  while (progress.status === "RUNNING") {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    progress = await mirror.advanceMirrorSync(ctx, syncId);
  }
  if (progress.status === "FAILED") throw new Error(`mirror sync failed: ${progress.error}`);
  return progress.ordersSeen;
}
