import { abstractFetch, setAbstractFetchFunc } from "@shopify/shopify-api/runtime";

type Fetch = typeof fetch;

/**
 * Builds a fetch that sends Admin API and OAuth requests (`https://{shop}/admin/...`) to the local admin
 * instead, keeping method, headers and body. Everything else goes to `next` unchanged.
 */
export function localAdminFetch(localAdminUrl: string, next: Fetch): Fetch {
  const origin = new URL(localAdminUrl);
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol === "https:" && url.pathname.startsWith("/admin/")) {
      const target = new URL(url.pathname + url.search, origin);
      const headers = new Headers(input instanceof Request ? input.headers : undefined);
      new Headers(init?.headers).forEach((value, key) => headers.set(key, value));
      // The local admin serves one store; it is told which shop the app meant.
      headers.set("x-shopify-shop-domain", url.host);
      return next(target, { ...init, headers, body: init?.body ?? (input instanceof Request ? input.body : undefined) });
    }
    return next(input, init);
  };
}

/**
 * Points @shopify/shopify-api's HTTP at the local admin. It is the only code path that differs in
 * local-admin mode (docs/decisions/003-local-admin-through-abstract-fetch.md).
 */
export function installLocalAdminFetch(localAdminUrl: string): void {
  setAbstractFetchFunc(localAdminFetch(localAdminUrl, abstractFetch) as Parameters<typeof setAbstractFetchFunc>[0]);
}

/**
 * shopify-app-remix only lets Shopify's admin origins frame the app (`frame-ancestors` in the CSP); in
 * local-admin mode the local admin frames it, so its origin is added.
 */
export function allowLocalAdminToFrame(headers: Headers, localAdminUrl: string): void {
  const policy = headers.get("Content-Security-Policy");
  if (!policy) return;
  const origin = new URL(localAdminUrl).origin;
  headers.set(
    "Content-Security-Policy",
    policy.replace(/frame-ancestors ([^;]*)/, (_directive, sources: string) => `frame-ancestors ${sources} ${origin}`),
  );
}
