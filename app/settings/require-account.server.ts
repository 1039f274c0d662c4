import { redirect } from "@remix-run/node";
import type { Context } from "../context";
import { loadAccount, type AccountSummary } from "./account.server";
import { onboardingUrl } from "./return-to";

/**
 * For pages that need the shop's Shipping API account: the account, or (thrown) a redirect to onboarding
 * that comes back to this page afterwards.
 */
export async function requireAccount(ctx: Pick<Context, "db" | "shop">, request: Request): Promise<AccountSummary> {
  const account = await loadAccount(ctx);
  if (!account) throw redirect(onboardingUrl(request.url));
  return account;
}
