import { useRevalidator } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useCallback, useEffect, useLayoutEffect, useRef } from "react";

/**
 * Reloads the route's data every `intervalMs` while `active` (work the page shows is still running in the
 * background). A beat is skipped while a reload is still under way, so slow loaders never pile up.
 */
export function useRevalidateWhile(active: boolean, intervalMs: number): void {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs, revalidator]);
}

/** Shows a successful action's message as a toast; a failure is the page's to explain where it happened. */
export function useSuccessToast(outcome: { ok: boolean; message?: string } | undefined): void {
  const shopify = useAppBridge();
  useEffect(() => {
    if (outcome?.ok && outcome.message) shopify.toast.show(outcome.message);
  }, [outcome, shopify]);
}

/** useLayoutEffect in the browser; on the server (where it would warn and never run) useEffect. */
const useClientLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/**
 * A function that stays the same object across renders and always calls the latest `fn`. Lists hand it to their
 * rows (or a Polaris IndexTable's selection context) so that a render of the page does not render every row again:
 * a row whose own props did not change is skipped (`memo`), which keeps a click's next paint fast on a page of 50.
 */
export function useSteadyCallback<Args extends unknown[], Result>(fn: (...args: Args) => Result): (...args: Args) => Result {
  const latest = useRef(fn);
  useClientLayoutEffect(() => {
    latest.current = fn;
  });
  return useCallback((...args: Args) => latest.current(...args), []);
}
