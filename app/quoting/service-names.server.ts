import { describeError } from "../../shipping-api/client";
import type { Context } from "../context";
import { NotConnectedError } from "../shipping/client.server";
import { NO_NAMES, serviceNamesOf, type ServiceNames } from "../shipping/service-names";

/**
 * The shop's carrier and service names from List Services, kept for a few minutes per shop: the rates page
 * reloads every second while it quotes, and names change only when the account's catalog does. Without an
 * account, or while the Shipping API cannot be read, pages fall back to the quotes' own descriptions (see
 * serviceName), and the next load asks again.
 */

const KEEP_MS = 5 * 60 * 1000;
/** How long a page waits for List Services before it shows the quotes' own descriptions instead. */
const WAIT_MS = 5_000;
const kept = new Map<string, { names: ServiceNames; until: number }>();

/** `answer`, or "late" when it has not settled within `ms`. */
async function within<T>(answer: Promise<T>, ms: number): Promise<T | "late"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), ms);
    timer.unref?.();
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function loadServiceNames(ctx: Pick<Context, "shop" | "now" | "shipping">): Promise<ServiceNames> {
  const { shop } = ctx;
  const now = ctx.now().getTime();
  const hit = kept.get(shop);
  if (hit && hit.until > now) return hit.names;
  try {
    const client = await ctx.shipping();
    const answer = await within(client.listServices(), WAIT_MS);
    if (answer === "late") {
      console.warn(`[consign] ${shop}: service names unavailable (no answer within ${WAIT_MS / 1000} s); pages show the quotes' descriptions`);
      return NO_NAMES;
    }
    if (!answer.ok) {
      console.warn(`[consign] ${shop}: service names unavailable (${describeError(answer.error)}); pages show the quotes' descriptions`);
      return NO_NAMES;
    }
    const names = serviceNamesOf(answer.value.services);
    kept.set(shop, { names, until: now + KEEP_MS });
    return names;
  } catch (error) {
    // Without an account there are no names to read: the quotes' descriptions are all there is.
    if (error instanceof NotConnectedError) return NO_NAMES;
    console.warn(`[consign] ${shop}: service names unavailable (${error instanceof Error ? error.message : String(error)})`);
    return NO_NAMES;
  }
}
