import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { CustomerTrackingView, type CustomerTrackingEvent } from "../../../app/extension/customer-tracking-view";
import { api } from "./api";

/**
 * customer-account.order-status.fulfillment-details.render-after: the parcel of a fulfillment Consign wrote, in
 * the fulfillment's delivery card on the customer's order status page. The data comes from the app
 * (`/api/customer-tracking/:fulfillmentId`) with the customer account's session token as Bearer. A fulfillment
 * Consign did not write (404) shows nothing: Shopify's card already says all there is.
 *
 * The app's URL: the Shopify CLI replaces `process.env.APP_URL` when it builds the extension (`shopify app dev`
 * sets it; run `shopify app deploy` with APP_URL set to the app's URL). Empty, the path stays relative, which
 * the local admin's order status stand-in resolves against the app (docs/decisions/035).
 */
declare const process: { env: { APP_URL?: string } };
const APP_URL = (process.env.APP_URL ?? "").replace(/\/+$/, "");

export default async () => {
  render(<ParcelTracking />, document.body);
};

type Load = { state: "loading" } | { state: "none" } | { state: "failed"; message: string } | { state: "loaded"; view: CustomerTrackingView };

async function loadView(fulfillmentId: string): Promise<Load> {
  const number = fulfillmentId.slice(fulfillmentId.lastIndexOf("/") + 1);
  try {
    const token = await api().sessionToken.get();
    const response = await fetch(`${APP_URL}/api/customer-tracking/${number}`, { headers: { authorization: `Bearer ${token}` } });
    if (response.status === 404) return { state: "none" };
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) return { state: "failed", message: "Tracking is not available right now. Reload the page in a few minutes." };
    const view = CustomerTrackingView.safeParse(body);
    return view.success ? { state: "loaded", view: view.data } : { state: "failed", message: "Tracking is not available right now. Reload the page." };
  } catch {
    return { state: "failed", message: "Tracking could not be loaded. Check your connection and reload the page." };
  }
}

/** "Nov 27, 2026, 9:10 AM" in the customer's locale and time zone. */
const when = (at: string) => api().i18n.formatDate(new Date(at), { dateStyle: "medium", timeStyle: "short" });

function ParcelTracking() {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  useEffect(() => {
    void loadView(api().fulfillmentId).then(setLoad);
  }, []);
  if (load.state === "loading") return <s-spinner accessibilityLabel="Loading tracking" />;
  if (load.state === "none") return null;
  if (load.state === "failed") return <s-banner tone="warning">{load.message}</s-banner>;
  return <Parcel view={load.view} />;
}

function Parcel({ view }: { view: CustomerTrackingView }) {
  return (
    <s-section heading="Track your parcel">
      <s-stack gap="base">
        <s-stack gap="small-200">
          <s-stack direction="inline" gap="small" alignItems="center">
            <s-text type="strong">{view.carrier}</s-text>
            {view.service && <s-text color="subdued">{view.service}</s-text>}
            <s-badge tone={view.tone}>{view.status}</s-badge>
          </s-stack>
          {view.trackingNumbers.map((number, index) => (
            <s-text key={number}>
              {view.trackingNumbers.length > 1 ? `Box ${index + 1} of ${view.trackingNumbers.length}: tracking number ` : "Tracking number "}
              <s-text type="strong">{number}</s-text>
            </s-text>
          ))}
          {view.latest && <s-paragraph>{latestLine(view.latest)}</s-paragraph>}
          <s-paragraph>{view.nextStep}</s-paragraph>
        </s-stack>
        {view.events.length > 0 && (
          <s-stack gap="small-200">
            <s-heading>Updates from {view.carrier}</s-heading>
            <s-ordered-list>
              {view.events.map((event, index) => (
                <s-list-item key={`${event.at}-${index}`}>
                  <s-text type="strong">{event.status}</s-text> · {event.message}
                  {event.box ? ` (${event.box})` : ""}
                  <s-text color="subdued"> · {[event.place, when(event.at)].filter(Boolean).join(" · ")}</s-text>
                </s-list-item>
              ))}
            </s-ordered-list>
          </s-stack>
        )}
      </s-stack>
    </s-section>
  );
}

/** "Arrived at facility in Memphis, TN, United States on Nov 27, 2026, 9:10 AM." */
function latestLine(event: CustomerTrackingEvent): string {
  return `Latest: ${event.message}${event.place ? ` in ${event.place}` : ""}, ${when(event.at)}.`;
}
