import { Banner } from "@shopify/polaris";
import type { currentMirrorSync } from "../mirror-sync.server";

/** Where reading the shop's open orders from Shopify stands: queued, never run, running (with how far), or failed. */
export function MirrorSyncBanners({ sync, onSync }: { sync: Awaited<ReturnType<typeof currentMirrorSync>>; onSync: () => void }) {
  return (
    <>
      {sync.status === "QUEUED" && (
        <Banner tone="info" title="Your first order sync is queued…">
          <p>Consign reads your open orders from Shopify once after install. This page updates by itself as it runs.</p>
        </Banner>
      )}
      {sync.status === "NONE" && (
        <Banner tone="info" title="Your orders have not been read from Shopify yet" action={{ content: "Sync orders", onAction: onSync }}>
          <p>Choose “Sync orders” to read your open orders; new orders arrive by themselves after that.</p>
        </Banner>
      )}
      {sync.status === "RUNNING" && (
        <Banner tone="info" title="Reading your open orders from Shopify…">
          <p>
            This runs once after install and whenever you sync. The list fills in as your orders are saved
            {sync.saved === null ? "." : ` (${Math.floor(sync.saved * 100)} % so far).`}
          </p>
        </Banner>
      )}
      {sync.status === "FAILED" && (
        <Banner tone="critical" title="Orders could not be read from Shopify">
          <p>{sync.error} Try “Sync orders” again; if it keeps failing, check the app’s access in Shopify.</p>
        </Banner>
      )}
    </>
  );
}
