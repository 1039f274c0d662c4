import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { OrderShipmentsView, type BlockShipment } from "../../../app/extension/order-shipments-view";

/**
 * admin.order-details.block.render: Consign's shipments of the order on Shopify's order page. The data
 * comes from the app (`/api/order-shipments/:id`); Shopify resolves the relative URL against the app's URL
 * and adds the session token as Bearer. Links use the admin's `app:` protocol to open the app at a path.
 */
export default async () => {
  render(<OrderShipmentsBlock />, document.body);
};

type Load = { state: "loading" } | { state: "failed"; message: string } | { state: "loaded"; view: OrderShipmentsView };

/** `/app/orders/1/book` → `app:app/orders/1/book`, a path inside the app. */
const appLink = (path: string) => `app:${path.replace(/^\//, "")}`;

async function loadView(orderId: string): Promise<Load> {
  const number = orderId.slice(orderId.lastIndexOf("/") + 1);
  try {
    const response = await fetch(`/api/order-shipments/${number}`);
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = body && typeof body === "object" && "error" in body ? String(body.error) : `The app answered ${response.status}.`;
      return { state: "failed", message: error };
    }
    const view = OrderShipmentsView.safeParse(body);
    return view.success
      ? { state: "loaded", view: view.data }
      : { state: "failed", message: "Consign answered in a form this block does not understand. Reload the page." };
  } catch {
    return { state: "failed", message: "Consign could not be reached. Reload the page to try again." };
  }
}

function OrderShipmentsBlock() {
  const orderId = shopify.data.selected[0]?.id ?? null;
  const [load, setLoad] = useState<Load>({ state: "loading" });
  useEffect(() => {
    if (orderId) void loadView(orderId).then(setLoad);
    else setLoad({ state: "failed", message: "This block shows on an order's page." });
  }, [orderId]);

  return (
    <s-admin-block heading="Consign shipping">
      {load.state === "loading" && <s-spinner accessibilityLabel="Loading shipments" />}
      {load.state === "failed" && (
        <s-banner tone="critical" heading="Shipments could not be loaded">
          <s-paragraph>{load.message}</s-paragraph>
        </s-banner>
      )}
      {load.state === "loaded" && <OrderShipments view={load.view} />}
    </s-admin-block>
  );
}

function OrderShipments({ view }: { view: OrderShipmentsView }) {
  return (
    <s-stack gap="base">
      {view.blockers.length > 0 && (
        <s-banner tone="warning" heading="This order cannot be shipped yet">
          <s-unordered-list>
            {view.blockers.map((reason) => (
              <s-list-item key={reason}>{reason}</s-list-item>
            ))}
          </s-unordered-list>
        </s-banner>
      )}
      {view.shipments.length === 0 ? (
        <s-stack gap="small">
          <s-paragraph>No shipping label yet. Get rates from every carrier and book a label in Consign.</s-paragraph>
          {view.blockers.length === 0 && (
            <s-button variant="primary" href={appLink(view.createLabelPath)}>
              Create shipping label
            </s-button>
          )}
        </s-stack>
      ) : (
        view.shipments.map((shipment) => <ShipmentSummary key={shipment.id} shipment={shipment} bookPath={view.bookPath} />)
      )}
    </s-stack>
  );
}

function ShipmentSummary({ shipment, bookPath }: { shipment: BlockShipment; bookPath: string }) {
  const tracking = shipment.tracking;
  return (
    <s-section>
      <s-stack gap="small-200">
        <s-stack direction="inline" gap="small" alignItems="center">
          <s-text type="strong">{[shipment.carrier, shipment.service].filter(Boolean).join(" · ") || "Shipment"}</s-text>
          {shipment.cost && <s-text>{shipment.cost}</s-text>}
          <s-badge tone={shipment.tone === "attention" ? "warning" : shipment.tone === "info" ? "neutral" : shipment.tone}>{shipment.labelStatus}</s-badge>
        </s-stack>
        {shipment.trackingNumbers.length === 1 && (
          <s-text>
            Tracking <s-text type="strong">{shipment.trackingNumbers[0]}</s-text>
          </s-text>
        )}
        {shipment.trackingNumbers.length > 1 &&
          shipment.trackingNumbers.map((number, index) => (
            <s-text key={number}>
              Box {index + 1} of {shipment.trackingNumbers.length}: tracking <s-text type="strong">{number}</s-text>
            </s-text>
          ))}
        {shipment.trackingNumber && (
          <s-text color="subdued">
            {tracking ? `${tracking.status}${tracking.place ? ` · ${tracking.place}` : ""} · ${tracking.atText}` : "No carrier scan yet"}
          </s-text>
        )}
        <s-stack direction="inline" gap="small">
          {shipment.labelPath && (
            <s-button href={appLink(shipment.labelPath)} target="_blank">
              Reprint label
            </s-button>
          )}
          <s-button variant="tertiary" href={appLink(bookPath)}>
            Open booking page
          </s-button>
        </s-stack>
      </s-stack>
    </s-section>
  );
}
