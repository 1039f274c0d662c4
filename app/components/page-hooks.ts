import { useRevalidator } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect } from "react";

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
