import { describeError } from "../../shipping-api/client";
import { type Db } from "../settings/account.server";
import { shippingClientFor } from "../shipping/client.server";
import { NO_NAMES, serviceNamesOf, type ServiceNames } from "../shipping/service-names";

/**
 * The shop's carrier and service names from List Services, kept for a few minutes per shop: the rates page
 * reloads every second while it quotes, and names change only when the account's catalog does. Without an
 * account, or while the Shipping API cannot be read, pages fall back to the quotes' own descriptions (see
 * serviceName), and the next load asks again.
 */

const KEEP_MS = 5 * 60 * 1000;
const kept = new Map<string, { names: ServiceNames; until: number }>();

export async function loadServiceNames(db: Db, shop: string, now: Date = new Date()): Promise<ServiceNames> {
  const hit = kept.get(shop);
  if (hit && hit.until > now.getTime()) return hit.names;
  try {
    if (!(await db.shippingAccount.findUnique({ where: { shop }, select: { shop: true } }))) return NO_NAMES;
    const client = await shippingClientFor(db, shop, { timeoutMs: 5_000, retry: { attempts: 1 } });
    const answer = await client.listServices();
    if (!answer.ok) {
      console.warn(`[consign] ${shop}: service names unavailable (${describeError(answer.error)}); pages show the quotes' descriptions`);
      return NO_NAMES;
    }
    const names = serviceNamesOf(answer.value.services);
    kept.set(shop, { names, until: now.getTime() + KEEP_MS });
    return names;
  } catch (error) {
    console.warn(`[consign] ${shop}: service names unavailable (${error instanceof Error ? error.message : String(error)})`);
    return NO_NAMES;
  }
}
