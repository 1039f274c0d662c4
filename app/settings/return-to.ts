/**
 * Where onboarding sends the merchant back to. Pages that need a Shipping API account redirect to
 * `/app/onboarding?returnTo=<the page>`; the page is kept without the embedding parameters Shopify adds to
 * every request (they are fresh on the next one) and without Remix's own.
 */

const EMBEDDING_PARAMS = ["embedded", "host", "shop", "id_token", "hmac", "locale", "session", "timestamp", "appLoadId", "_data", "index"];

/** The parameters that keep the embedded app authenticated across a document redirect. */
const CARRIED_PARAMS = ["embedded", "host", "shop", "id_token", "locale"];

export const AFTER_ONBOARDING = "/app/settings";

/** The app page a request was for, as a returnTo value: path and the page's own parameters. */
export function returnToOf(requestUrl: string): string {
  const url = new URL(requestUrl);
  for (const name of EMBEDDING_PARAMS) url.searchParams.delete(name);
  url.searchParams.delete("returnTo");
  const search = url.searchParams.toString();
  return `${url.pathname}${search ? `?${search}` : ""}`;
}

/** The onboarding URL for a request that needs an account, carrying the embedding parameters along. */
export function onboardingUrl(requestUrl: string): string {
  const from = new URL(requestUrl);
  const params = new URLSearchParams();
  for (const name of CARRIED_PARAMS) {
    const value = from.searchParams.get(name);
    if (value !== null) params.set(name, value);
  }
  params.set("returnTo", returnToOf(requestUrl));
  return `/app/onboarding?${params.toString()}`;
}

/**
 * A returnTo value that is safe to redirect to: a path inside the app (never another origin, never
 * onboarding itself); anything else is the Settings page.
 */
export function safeReturnTo(value: string | null | undefined): string {
  if (!value || !value.startsWith("/app") || value.startsWith("//") || value.includes("\\")) return AFTER_ONBOARDING;
  const url = new URL(value, "http://app.invalid");
  if (url.origin !== "http://app.invalid" || !/^\/app(\/|$)/.test(url.pathname) || url.pathname.startsWith("/app/onboarding")) {
    return AFTER_ONBOARDING;
  }
  return `${url.pathname}${url.search}`;
}

/**
 * Settings opened to fix something a page needed (a sender address for quoting): the Settings URL that
 * returns to the page of `requestUrl` once saved.
 */
export function settingsUrlReturningTo(requestUrl: string): string {
  return `${AFTER_ONBOARDING}?${new URLSearchParams({ returnTo: returnToOf(requestUrl) }).toString()}`;
}

/** Where Settings goes after a save: its safe returnTo, or null to stay (none given, or Settings itself). */
export function settingsReturnTo(requestUrl: string): string | null {
  const value = new URL(requestUrl).searchParams.get("returnTo");
  const target = safeReturnTo(value);
  return value && new URL(target, "http://app.invalid").pathname !== AFTER_ONBOARDING ? target : null;
}
