import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

/**
 * The admin UI extensions the local admin renders: `<build>/extensions/manifest.json`, written by the app's
 * build (scripts/build-extensions.mjs) next to one built module per target.
 */

export const ExtensionModule = z.object({
  handle: z.string().regex(/^[a-z0-9-]+$/),
  name: z.string(),
  apiVersion: z.string(),
  target: z.string().regex(/^(admin|customer-account)\.[a-z0-9.-]+$/),
  /** Relative to the extensions build folder. */
  module: z.string().regex(/^[a-z0-9-]+\/[a-z0-9.-]+\.js$/),
});
export type ExtensionModule = z.infer<typeof ExtensionModule>;

/** The built extensions, or none when the app has not been built (the order page then shows no blocks). */
export function loadExtensionManifest(dir: string): ExtensionModule[] {
  const file = join(dir, "manifest.json");
  if (!existsSync(file)) return [];
  return z.array(ExtensionModule).parse(JSON.parse(readFileSync(file, "utf8")));
}

/** Blocks that render on a resource's details page, e.g. "order-details" → admin.order-details.block.render. */
export function blocksFor(extensions: readonly ExtensionModule[], page: string): ExtensionModule[] {
  return extensions.filter((extension) => extension.target === `admin.${page}.block.render`);
}

/**
 * Print actions of a page's Print menu: "order-details" → admin.order-details.print-action.render (an order's
 * page), "order-index" → admin.order-index.selection-print-action.render (a selection of the order list).
 */
export function printActionsFor(extensions: readonly ExtensionModule[], page: "order-details" | "order-index"): ExtensionModule[] {
  const target = page === "order-details" ? "admin.order-details.print-action.render" : "admin.order-index.selection-print-action.render";
  return extensions.filter((extension) => extension.target === target);
}

/**
 * Action extensions of a page's More actions, each with its should-render companion when the app has one:
 * "order-details" → admin.order-details.action.render (an order's page), "order-index" →
 * admin.order-index.selection-action.render (a selection of the order list).
 */
export function actionsFor(
  extensions: readonly ExtensionModule[],
  page: "order-details" | "order-index",
): Array<{ action: ExtensionModule; shouldRender: ExtensionModule | null }> {
  const target = page === "order-details" ? "admin.order-details.action" : "admin.order-index.selection-action";
  return extensions
    .filter((extension) => extension.target === `${target}.render`)
    .map((action) => ({
      action,
      shouldRender: extensions.find((extension) => extension.handle === action.handle && extension.target === `${target}.should-render`) ?? null,
    }));
}
