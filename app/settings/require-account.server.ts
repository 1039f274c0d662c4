import { redirect } from "@remix-run/node";
import { loadAccount, type AccountSummary, type Db } from "./account.server";
import { onboardingUrl } from "./return-to";

/**
 * For pages that need the shop's Shipping API account: the account, or (thrown) a redirect to onboarding
 * that comes back to this page afterwards.
 */
export async function requireAccount(db: Db, shop: string, request: Request): Promise<AccountSummary> {
  const account = await loadAccount(db, shop);
  if (!account) throw redirect(onboardingUrl(request.url));
  return account;
}
