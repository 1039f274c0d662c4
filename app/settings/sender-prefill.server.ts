import { Address } from "../../shipping-api/contract";
import type { Context } from "../context";
import { loadSettings, saveSettings } from "./account.server";
import { toAddress } from "./addresses";
import type { ShippingSettings } from "./settings";
import { loadPrimarySenderLocation } from "./shop-profile.server";

/**
 * The shop's settings, with a sender address on first use: a shop that has none yet gets its primary
 * Shopify location's address, saved with the location's id so Settings shows it chosen and editable. Rates
 * need a sender, and a new merchant should not have to visit Settings before the first quote. When the
 * primary location cannot be read or is no usable sender (a fulfillment service's, an incomplete address,
 * no phone for the label), the settings stay as they were and the merchant is asked to choose one.
 */
export async function settingsWithSender(
  ctx: Pick<Context, "db" | "shop" | "shopify" | "log">,
  /** The shop's settings when the caller has read them already. */
  loaded?: ShippingSettings,
): Promise<ShippingSettings> {
  const settings = loaded ?? (await loadSettings(ctx));
  if (settings.sender) return settings;
  const primary = await loadPrimarySenderLocation(ctx).catch((error: unknown) => {
    ctx.log.warn({ err: error }, "the primary location could not be read for the sender address");
    return null;
  });
  // Carriers print the sender's phone on the label: Settings requires one, so a location without it is not used.
  if (!primary || primary.sender.phone === "") return settings;
  const sender = Address.safeParse(toAddress(primary.sender));
  if (!sender.success) return settings;
  const prefilled: ShippingSettings = { ...settings, sender: sender.data, senderLocationId: primary.id };
  await saveSettings(ctx, prefilled);
  return prefilled;
}
