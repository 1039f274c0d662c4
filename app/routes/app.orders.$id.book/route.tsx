import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Page } from "@shopify/polaris";
import { useEffect } from "react";
import { LabelImageFormat, TermsOfTrade } from "../../../shipping-api/contract";
import { loadOrderBooking, OrderNotFoundError } from "../../booking/single-booking.server";
import { readPostedForm } from "../../posted-form.server";
import { requestContext } from "../../request-context.server";
import { formatMoney } from "../../shipping/money";
import { TrackingTimeline } from "../../tracking/components/tracking-timeline";
import { orderTimeline } from "../../tracking/tracking-views.server";
import { OrderSignalsCard } from "../../signals/components/order-signals-card";
import { orderSignalsView } from "../../signals/signal-views.server";
import { book, repack } from "./book.server";
import { ShipmentCard } from "./components/shipment-card";
import { PageTitleBar, pageMeta, type PageHandle } from "../../components/page-title";

/**
 * Book one order's shipment on its own (Book Shipment): the picked or another quoted service, signature,
 * insurance, Saturday delivery where the service takes it, the label format, and for international orders
 * the commercial invoice prefilled from the order and editable. Booked shipments show their tracking and
 * their label for download or printing.
 */

function orderNumberParam(value: string | undefined): string {
  if (!value || !/^\d{1,20}$/.test(value)) throw new Response("The order id in the address must be a number, like /app/orders/1001/book.", { status: 400 });
  return value;
}

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { ctx } = await requestContext(request);
  const number = orderNumberParam(params.id);
  // The choices come from the contract here, so the page's bundle does not carry the contract's schemas.
  const choices = { labelFormats: LabelImageFormat.options, termsOfTrade: TermsOfTrade.options };
  try {
    const view = await loadOrderBooking(ctx, number);
    const [tracking, signals] = await Promise.all([orderTimeline(ctx, view.orderId), orderSignalsView(ctx, view.orderId)]);
    return { view, missing: null, choices, tracking, signals };
  } catch (error) {
    if (error instanceof OrderNotFoundError)
      return { view: null, missing: { orderNumber: number, message: error.message }, choices, tracking: [], signals: [] };
    throw error;
  }
};

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { ctx } = await requestContext(request);
  orderNumberParam(params.id);
  const posted = await readPostedForm(request);
  return posted.get("intent") === "repack" ? repack(ctx, posted) : book(ctx, posted);
};

/** "Book #1001", or "#1001 · Booked" once every shipment of the order is booked. */
function bookingTitle(view: { orderName: string; shipments: ReadonlyArray<{ booked: unknown }> }): string {
  return view.shipments.every((shipment) => Boolean(shipment.booked)) ? `${view.orderName} · Booked` : `Book ${view.orderName}`;
}

export const handle: PageHandle<typeof loader> = { title: (data) => (data.view ? bookingTitle(data.view) : "Book shipment") };
export const meta = pageMeta;

export default function BookOrder() {
  const { view, missing, choices, tracking, signals } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  // The packages editor reads its answers through its own fetcher; the page shows booking's.
  const outcome = answer && !("intent" in answer) ? answer : undefined;
  const shopify = useAppBridge();

  useEffect(() => {
    if (outcome?.ok) shopify.toast.show(`Booked: tracking ${outcome.trackingNumber}`);
  }, [outcome, shopify]);

  if (!view) {
    return (
      <Page backAction={{ content: "Orders", url: "/app" }} title="Book shipment">
        <PageTitleBar />
        <Banner tone="warning" title="No rates for this order yet">
          <BlockStack gap="200">
            <p>{missing?.message}</p>
            <Link to={`/app/quotes/new?ids[]=${missing?.orderNumber ?? ""}`}>Get rates for this order</Link>
          </BlockStack>
        </Banner>
      </Page>
    );
  }

  const fieldErrors = outcome && !outcome.ok && outcome.reason === "refused" ? (outcome.fieldErrors ?? {}) : {};
  return (
    <Page
      backAction={{ content: "Orders", url: "/app" }}
      title={bookingTitle(view)}
      secondaryActions={[{ content: "Open in Shopify", url: `shopify://admin/orders/${view.orderNumber}`, target: "_top" }]}
    >
      <PageTitleBar />
      <BlockStack gap="400">
        {outcome?.ok && (
          <Banner tone="success" title="Shipment booked">
            <p data-testid="booked-tracking">
              Tracking number {outcome.trackingNumber} · book number {outcome.bookNumber}
              {outcome.prepayBalance ? ` · prepay balance ${formatMoney(outcome.prepayBalance, "USD")}` : ""}
            </p>
          </Banner>
        )}
        {outcome && !outcome.ok && outcome.reason === "refused" && (
          <Banner tone="critical" title="Not booked">
            <p data-testid="booking-error">{outcome.message}</p>
          </Banner>
        )}
        {outcome && !outcome.ok && outcome.reason === "pending" && (
          <Banner tone="warning" title="Not confirmed yet">
            <p>{outcome.message}</p>
          </Banner>
        )}
        <TrackingTimeline shipments={tracking} names={view.names} />
        <OrderSignalsCard signals={signals} />
        {view.shipments.map((shipment, index) => (
          <ShipmentCard
            key={shipment.shipmentId}
            orderNumber={view.orderNumber}
            shipment={shipment}
            heading={view.shipments.length > 1 ? `Shipment ${index + 1} of ${view.shipments.length}` : "Shipment"}
            fieldErrors={fieldErrors}
            choices={choices}
            boxes={view.boxes}
            names={view.names}
          />
        ))}
      </BlockStack>
    </Page>
  );
}
