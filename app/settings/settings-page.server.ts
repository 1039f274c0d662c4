import { describeError, type ShippingApiError } from "../../shipping-api/client";
import type { ProviderAccount, Service } from "../../shipping-api/contract";
import type { Context } from "../context";
import { saveSettings } from "./account.server";
import { buildCatalog, type Catalog } from "./catalog";
import type { FieldErrors } from "../field-errors";
import type { Outcome } from "../outcome";
import { checkAgainstCatalog, parseSettingsForm, settingsFormValues, settingsRefused, type SettingsFormValues } from "./settings-form";
import type { SenderLocation } from "./addresses";
import { settingsWithSender } from "./sender-prefill.server";
import { loadSenderLocations } from "./shop-profile.server";
import { latestRatesCurrency } from "../shipping/stored-rates.server";

/**
 * The Settings page (for a shop with an account: see requireAccount): everything it shows is read in parallel (saved settings, Shopify locations, the
 * account's services and provider accounts), and a part that cannot be read becomes a problem the page
 * explains instead of an error page.
 */

export interface SettingsProblem {
  /** `reconnect`: the stored credentials were refused; the others: try again later. */
  kind: "service" | "reconnect" | "locations";
  message: string;
}

export interface SettingsPage {
  values: SettingsFormValues;
  locations: SenderLocation[];
  /** Null while the Shipping API cannot be read. */
  catalog: Catalog | null;
  /** The currency the account's rates come in (its latest quote's), for the rule's price ceiling; null before any quote. */
  ratesCurrency: string | null;
  problems: SettingsProblem[];
}

type AccountCatalog = { ok: true; services: Service[]; providerAccounts: ProviderAccount[] } | { ok: false; error: ShippingApiError };

export async function readAccountCatalog(ctx: Pick<Context, "shipping">): Promise<AccountCatalog> {
  const client = await ctx.shipping();
  const [services, providerAccounts] = await Promise.all([client.listServices(), client.listProviderAccounts()]);
  if (!services.ok) return { ok: false, error: services.error };
  if (!providerAccounts.ok) return { ok: false, error: providerAccounts.error };
  return { ok: true, services: services.value.services, providerAccounts: providerAccounts.value.providerAccounts };
}

function catalogProblem(error: ShippingApiError): SettingsProblem {
  if (error.kind === "unauthorized" || error.kind === "forbidden") {
    return {
      kind: "reconnect",
      message: `The Shipping API no longer accepts the stored credentials (${describeError(error)}). Connect the account again with its current password.`,
    };
  }
  return {
    kind: "service",
    message: `Carrier services and provider accounts could not be loaded: ${describeError(error)}. Your saved settings are shown and can still be saved; reload this page in a minute to choose services again.`,
  };
}

export async function loadSettingsPage(ctx: Pick<Context, "db" | "shop" | "shipping" | "shopify" | "log" | "now">): Promise<SettingsPage> {
  const [settings, locations, catalog, ratesCurrency] = await Promise.all([
    settingsWithSender(ctx),
    loadSenderLocations(ctx).then(
      (found) => ({ ok: true as const, found }),
      (error: unknown) => ({ ok: false as const, message: error instanceof Error ? error.message : String(error) }),
    ),
    readAccountCatalog(ctx),
    latestRatesCurrency(ctx),
  ]);
  const problems: SettingsProblem[] = [];
  if (!catalog.ok) problems.push(catalogProblem(catalog.error));
  if (!locations.ok) {
    problems.push({
      kind: "locations",
      message: `Your Shopify locations could not be read (${locations.message}). You can still type the sender address; reload to pick a location.`,
    });
  }
  return {
    values: settingsFormValues(settings),
    locations: locations.ok ? locations.found : [],
    catalog: catalog.ok ? buildCatalog(catalog.services, catalog.providerAccounts) : null,
    ratesCurrency,
    problems,
  };
}

export type SaveSettingsOutcome = Outcome<{ checkedAgainstCatalog: boolean }, { fieldErrors: FieldErrors }>;

/**
 * Saves what the Settings page posted. The values are checked first; then, when the Shipping API answers,
 * against what the account offers. While it does not answer, valid settings are saved unchecked: choices it
 * no longer offers are skipped when quoting (mappingSettings keeps only offered outbound services).
 */
export async function saveSettingsForm(ctx: Pick<Context, "db" | "shop" | "shipping">, body: unknown): Promise<SaveSettingsOutcome> {
  const parsed = parseSettingsForm(body);
  if (!parsed.ok) return parsed;
  const catalog = await readAccountCatalog(ctx);
  if (catalog.ok) {
    const errors = checkAgainstCatalog(parsed.settings, catalog);
    if (Object.keys(errors).length > 0) return settingsRefused(errors, parsed.settings.boxes);
  }
  await saveSettings(ctx, parsed.settings);
  return { ok: true, checkedAgainstCatalog: catalog.ok };
}
