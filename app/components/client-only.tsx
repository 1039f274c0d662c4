import { useSyncExternalStore, type ReactNode } from "react";

/**
 * Renders `children` only in the browser, after hydration, and `fallback` on the server and in the first
 * client render (so both match). For components that read `window` while rendering: @shopify/polaris-viz's
 * charts do (docs/decisions/010).
 */
export function ClientOnly({ children, fallback = null }: { children: () => ReactNode; fallback?: ReactNode }) {
  // The server's snapshot (false) is used on the server and while hydrating; after that, the client's (true).
  const inBrowser = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  return <>{inBrowser ? children() : fallback}</>;
}

/** Whether the page is hydrated never changes once it is, so there is nothing to subscribe to. */
const subscribeToNothing = () => () => {};
