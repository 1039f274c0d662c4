import { useEffect, useState, type ReactNode } from "react";

/**
 * Renders `children` only in the browser, after hydration, and `fallback` on the server and in the first
 * client render (so both match). For components that read `window` while rendering: @shopify/polaris-viz's
 * charts do (docs/decisions/010).
 */
export function ClientOnly({ children, fallback = null }: { children: () => ReactNode; fallback?: ReactNode }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return <>{mounted ? children() : fallback}</>;
}
