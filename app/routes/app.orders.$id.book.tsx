import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { TrackingNumbers } from "../components/tracking-numbers";
import { Link, useActionData, useFetcher, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { TitleBar, useAppBridge } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Button, Card, Checkbox, Divider, InlineGrid, InlineStack, Page, Select, Text, TextField } from "@shopify/polaris";
import { useCallback, useEffect, useMemo, useState } from "react";
import { LabelImageFormat, TermsOfTrade, type CommercialInvoice } from "../../shipping-api/contract";
import { requestContext } from "../request-context.server";
import { BookingStatusBadge } from "../batches/components/batch-status";
import { openLabelFile } from "../batches/components/label-file";
import { DocumentsSelect } from "../documents/documents-select";
import { PRINT_CHOICE_NAMES_ONE, type PrintChoice } from "../documents/print-choice";
import { parseBookingForm } from "../booking/book-request";
import {
  bookSingleShipment,
  loadOrderBooking,
  OrderNotFoundError,
  type OptionsPrice,
  type ShipmentBooking,
  type SingleBookingOutcome,
} from "../booking/single-booking.server";
import { formatMoney } from "../shipping/money";
import { PackagesEditor } from "../quoting/components/packages-editor";
import { carrierAndService, type ServiceNames } from "../shipping/service-names";
import { QuotingInputError } from "../quoting/errors";
import { formatWeight } from "../quoting/rate-display";
import { repackShipment } from "../quoting/repack.server";
import type { Outcome } from "../outcome";
import type { FieldErrors } from "../settings/field-errors";
import { readPostedForm } from "../posted-form.server";
import { TrackingTimeline } from "../tracking/components/tracking-timeline";
import { orderTimeline } from "../tracking/tracking-views.server";

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
    return { view, missing: null, choices, tracking: await orderTimeline(ctx, view.orderId) };
  } catch (error) {
    if (error instanceof OrderNotFoundError) return { view: null, missing: { orderNumber: number, message: error.message }, choices, tracking: [] };
    throw error;
  }
};

/** The packages editor's answer (its own fetcher): refused with the message on the field it names, if any. */
type RepackAnswer = { intent: "repack" } & Outcome<object, { fieldErrors?: FieldErrors }>;

/** A booking form that does not parse is refused as booking refuses details it cannot book: on their fields. */
type ActionResult = SingleBookingOutcome | RepackAnswer;

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { ctx } = await requestContext(request);
  orderNumberParam(params.id);
  const posted = await readPostedForm(request);
  if (posted.get("intent") === "repack") {
    // The packages editor: repack this shipment and quote it again (the page then reloads its rates).
    try {
      const outcome = await repackShipment(ctx, { shipmentId: posted.get("shipmentId"), box: posted.getAll("box"), weight: posted.getAll("weight") });
      return json<ActionResult>(
        outcome.ok ? { intent: "repack", ok: true } : { intent: "repack", ok: false, message: `Packages saved, but the re-quote failed: ${outcome.message}` },
      );
    } catch (error) {
      if (error instanceof QuotingInputError)
        return json<ActionResult>(
          { intent: "repack", ok: false, message: error.message, fieldErrors: { [error.field]: error.message } },
          { status: error.status },
        );
      throw error;
    }
  }
  const form = parseBookingForm(posted);
  if (!form.ok) return json<ActionResult>({ ok: false, reason: "refused", message: form.message, fieldErrors: form.fieldErrors }, { status: 400 });
  const outcome = await bookSingleShipment(ctx, form.value);
  // The label itself is fetched from the label route; the page needs only the numbers.
  return json<ActionResult>(outcome.ok ? { ...outcome, label: null } : outcome, {
    status: !outcome.ok && outcome.reason === "refused" && outcome.fieldErrors ? 400 : 200,
  });
};

export default function BookOrder() {
  const { view, missing, choices, tracking } = useLoaderData<typeof loader>();
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
        <TitleBar title="Book shipment" />
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
      title={view.shipments.every((shipment) => shipment.booked) ? `${view.orderName} · Booked` : `Book ${view.orderName}`}
      secondaryActions={[{ content: "Open in Shopify", url: `shopify://admin/orders/${view.orderNumber}`, target: "_top" }]}
    >
      <TitleBar title={view.shipments.every((shipment) => shipment.booked) ? `${view.orderName} · Booked` : `Book ${view.orderName}`} />
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

type Invoice = CommercialInvoice;
type ItemDraft = { description: string; quantity: string; unitValue: string; htsNumber: string; countryOfOrigin: string };

function itemDrafts(invoice: Invoice | null): ItemDraft[] {
  return (invoice?.items ?? []).map((item) => ({
    description: item.description,
    quantity: String(item.quantity),
    unitValue: item.unitValue,
    htsNumber: item.htsNumber,
    countryOfOrigin: item.countryOfOrigin,
  }));
}

interface Choices {
  labelFormats: readonly string[];
  termsOfTrade: readonly string[];
}

function ShipmentCard({
  orderNumber,
  shipment,
  heading,
  fieldErrors,
  choices,
  boxes,
  names,
}: {
  orderNumber: string;
  shipment: ShipmentBooking;
  heading: string;
  fieldErrors: FieldErrors;
  choices: Choices;
  boxes: string[];
  names: ServiceNames;
}) {
  const [repacking, setRepacking] = useState(false);
  const closeEditor = useCallback(() => setRepacking(false), []);
  const bookable = !shipment.booked && !shipment.blocked;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {heading}
          </Text>
          <Text as="span" tone="subdued">
            to {shipment.destination}
          </Text>
          <BookingStatusBadge status={shipment.bookingStatus} />
        </InlineStack>
        {bookable && shipment.packages.length > 0 && (
          <InlineStack gap="200" blockAlign="center">
            <Text as="span">
              <span data-testid="booking-packages">
                {shipment.packages.map((entry) => `${entry.box}, ${formatWeight(entry.weight, shipment.weightUnit)}`).join(" + ")}
              </span>
            </Text>
            {!repacking && (
              <Button variant="plain" onClick={() => setRepacking(true)}>
                Change packages
              </Button>
            )}
          </InlineStack>
        )}
        {bookable && repacking && (
          <PackagesEditor
            shipment={{ id: shipment.shipmentId, packages: shipment.packages, weightUnit: shipment.weightUnit }}
            boxes={boxes}
            onDone={closeEditor}
          />
        )}
        {shipment.booked ? (
          <BookedShipment orderNumber={orderNumber} shipmentId={shipment.shipmentId} booked={shipment.booked} names={names} />
        ) : shipment.blocked ? (
          <Banner tone="info">
            <p data-testid="booking-blocked">{shipment.blocked}</p>
          </Banner>
        ) : (
          <BookingForm orderNumber={orderNumber} shipment={shipment} fieldErrors={fieldErrors} choices={choices} names={names} />
        )}
        {shipment.bookingError && shipment.bookingStatus === "FAILED" && (
          <Text as="p" tone="critical">
            Last attempt: {shipment.bookingError}
          </Text>
        )}
      </BlockStack>
    </Card>
  );
}

function BookedShipment({
  orderNumber,
  shipmentId,
  booked,
  names,
}: {
  orderNumber: string;
  shipmentId: string;
  booked: NonNullable<ShipmentBooking["booked"]>;
  names: ServiceNames;
}) {
  const [error, setError] = useState<string | null>(null);
  const [documents, setDocuments] = useState<PrintChoice>("labels");
  const open = async (mode: "download" | "print") => {
    setError(null);
    setError(await openLabelFile(`/app/orders/${orderNumber}/label?shipment=${encodeURIComponent(shipmentId)}&documents=${documents}`, mode));
  };
  return (
    <BlockStack gap="200">
      <TrackingNumbers numbers={booked.trackingNumbers} testId="shipment-tracking" />
      <Text as="p">
        {[
          booked.carrierCode && booked.serviceCode ? carrierAndService(names, { carrierCode: booked.carrierCode, serviceCode: booked.serviceCode }) : null,
          booked.shippingCost && booked.currency ? formatMoney(booked.shippingCost, booked.currency) : null,
          `book number ${booked.bookNumber}`,
        ]
          .filter((part) => part !== null)
          .join(" · ")}
      </Text>
      <InlineStack gap="200">
        <DocumentsSelect value={documents} onChange={setDocuments} names={PRINT_CHOICE_NAMES_ONE} />
        <Button variant="primary" onClick={() => void open("download")}>
          {`Download ${PRINT_CHOICE_NAMES_ONE[documents]}`}
        </Button>
        <Button onClick={() => void open("print")}>{`Print ${PRINT_CHOICE_NAMES_ONE[documents]}`}</Button>
      </InlineStack>
      {error && (
        <Text as="p" tone="critical">
          {error}
        </Text>
      )}
    </BlockStack>
  );
}

function BookingForm({
  orderNumber,
  shipment,
  fieldErrors,
  choices,
  names,
}: {
  orderNumber: string;
  shipment: ShipmentBooking;
  fieldErrors: FieldErrors;
  choices: Choices;
  names: ServiceNames;
}) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const [quoteId, setQuoteId] = useState(String(shipment.selectedQuoteId ?? shipment.rates[0]?.quoteId ?? ""));
  const rate = useMemo(() => shipment.rates.find((entry) => String(entry.quoteId) === quoteId), [shipment.rates, quoteId]);
  const [signature, setSignature] = useState(shipment.defaults.signatureOptionCode ?? "");
  const [insurance, setInsurance] = useState(shipment.defaults.insuranceAmount ?? "");
  const [saturday, setSaturday] = useState(false);
  const [labelFormat, setLabelFormat] = useState<string>(shipment.defaults.labelFormat);
  const [recharge, setRecharge] = useState(false);
  const [terms, setTerms] = useState<string>(shipment.invoice?.termsOfTrade ?? "DAP");
  const [items, setItems] = useState<ItemDraft[]>(itemDrafts(shipment.invoice));
  const signatureOptions = rate?.signatureOptions ?? [];
  const signatureValue = signatureOptions.some((option) => option.code === signature) ? signature : "";
  const booking = navigation.state !== "idle" && navigation.formMethod === "POST";

  // The quote on file was made without signature and insurance: price the choice before anything is spent.
  const price = useFetcher<OptionsPrice>();
  const withOptions = signatureValue !== "" || insurance.trim() !== "";
  useEffect(() => {
    if (!rate || !withOptions) return;
    const query = new URLSearchParams({ shipmentId: shipment.shipmentId, quoteId, signatureOptionCode: signatureValue, insuranceAmount: insurance.trim() });
    const timer = setTimeout(() => price.load(`/app/orders/${orderNumber}/price?${query.toString()}`), 400);
    return () => clearTimeout(timer);
    // `price` is a new object each render; the inputs are what matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rate, withOptions, orderNumber, shipment.shipmentId, quoteId, signatureValue, insurance]);
  const current = withOptions && price.state === "idle" ? price.data : undefined;
  const total = !rate
    ? null
    : !withOptions
      ? { amount: rate.totalAmount, currency: rate.currency }
      : current?.ok
        ? { amount: current.total, currency: current.currency }
        : null;

  const setItem = (index: number, field: keyof ItemDraft, value: string) =>
    setItems((current) => current.map((item, at) => (at === index ? { ...item, [field]: value } : item)));
  const book = () => {
    const fields: Record<string, string> = {
      shipmentId: shipment.shipmentId,
      quoteId,
      signatureOptionCode: signatureValue,
      insuranceAmount: insurance,
      labelFormat,
      saturdayDelivery: saturday && rate?.saturdayDelivery ? "on" : "",
      approvePrepayRecharge: recharge ? "on" : "",
    };
    if (shipment.international && shipment.invoice) {
      fields.termsOfTrade = terms;
      items.forEach((item, index) => {
        for (const [key, value] of Object.entries(item)) fields[`items[${index}].${key}`] = value;
      });
    }
    submit(fields, { method: "post" });
  };

  return (
    <BlockStack gap="300">
      <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
        <Select
          label="Service"
          options={shipment.rates.map((entry) => ({
            value: String(entry.quoteId),
            label: `${carrierAndService(names, entry)} — ${formatMoney(entry.totalAmount, entry.currency)} (quoted)`,
          }))}
          value={quoteId}
          onChange={setQuoteId}
          error={fieldErrors.quoteId}
        />
        <Select
          label="Signature"
          options={[{ value: "", label: "No signature" }, ...signatureOptions.map((option) => ({ value: option.code, label: option.label }))]}
          value={signatureValue}
          onChange={setSignature}
          disabled={signatureOptions.length === 0}
          helpText={signatureOptions.length === 0 ? "This service offers no signature options." : undefined}
        />
        <TextField
          label="Insure for"
          prefix="$"
          value={insurance}
          onChange={setInsurance}
          autoComplete="off"
          placeholder="No insurance"
          error={fieldErrors.insuranceAmount}
          helpText="The value covered if the package is lost or damaged. Leave empty for none."
        />
        <Select
          label="Label format"
          options={choices.labelFormats.map((format) => ({ value: format, label: format }))}
          value={labelFormat}
          onChange={setLabelFormat}
          helpText="Your default comes from Settings. Not every carrier prints every format."
        />
      </InlineGrid>
      {rate?.saturdayDelivery && (
        <Checkbox label="Saturday delivery" checked={saturday} onChange={setSaturday} helpText="This service can deliver on Saturday, for a surcharge." />
      )}
      <Checkbox label="Recharge my prepay balance if it does not cover this label" checked={recharge} onChange={setRecharge} />
      <Text as="p" tone="subdued">
        Returns go to {shipment.returnTo ?? "your sender address"} (<Link to="/app/settings">change in Settings</Link>).
      </Text>

      {shipment.international && shipment.invoice && (
        <BlockStack gap="300">
          <Divider />
          <Text as="h3" variant="headingSm">
            Commercial invoice
          </Text>
          <Select
            label="Terms of trade"
            options={choices.termsOfTrade.map((code) => ({ value: code, label: code }))}
            value={terms}
            onChange={setTerms}
            error={fieldErrors.termsOfTrade}
          />
          {items.map((item, index) => (
            <div key={index} data-testid="invoice-item">
              <InlineGrid columns={{ xs: 1, md: "3fr 1fr 1fr 1fr 1fr auto" }} gap="200" alignItems="end">
                <TextField
                  label="Description"
                  value={item.description}
                  onChange={(value) => setItem(index, "description", value)}
                  autoComplete="off"
                  error={fieldErrors[`items[${index}].description`]}
                />
                <TextField
                  label="Quantity"
                  type="number"
                  value={item.quantity}
                  onChange={(value) => setItem(index, "quantity", value)}
                  autoComplete="off"
                  error={fieldErrors[`items[${index}].quantity`]}
                />
                <TextField
                  label="Unit value"
                  value={item.unitValue}
                  onChange={(value) => setItem(index, "unitValue", value)}
                  autoComplete="off"
                  error={fieldErrors[`items[${index}].unitValue`]}
                />
                <TextField
                  label="HS code"
                  value={item.htsNumber}
                  onChange={(value) => setItem(index, "htsNumber", value)}
                  autoComplete="off"
                  error={fieldErrors[`items[${index}].htsNumber`]}
                />
                <TextField
                  label="Origin"
                  value={item.countryOfOrigin}
                  onChange={(value) => setItem(index, "countryOfOrigin", value)}
                  autoComplete="off"
                  maxLength={2}
                  error={fieldErrors[`items[${index}].countryOfOrigin`]}
                />
                <Button
                  variant="plain"
                  tone="critical"
                  disabled={items.length === 1}
                  onClick={() => setItems((current) => current.filter((_, at) => at !== index))}
                  accessibilityLabel={`Remove item ${index + 1}`}
                >
                  Remove
                </Button>
              </InlineGrid>
            </div>
          ))}
          <InlineStack>
            <Button onClick={() => setItems((current) => [...current, { description: "", quantity: "1", unitValue: "", htsNumber: "", countryOfOrigin: "" }])}>
              Add item
            </Button>
          </InlineStack>
        </BlockStack>
      )}

      {rate && (
        <Card background="bg-surface-secondary">
          <BlockStack gap="100">
            <Text as="p" fontWeight="semibold">
              <span data-testid="booking-price">
                {total
                  ? `Booking charges ${formatMoney(total.amount, total.currency)}`
                  : withOptions && current && !current.ok
                    ? "Not priced"
                    : "Pricing your options…"}
              </span>
            </Text>
            {!withOptions && <Text as="p" tone="subdued">{`The quoted price of ${rate.serviceDescription}: no signature, no insurance.`}</Text>}
            {current?.ok && (
              <Text as="p" tone="subdued">
                <span data-testid="booking-price-breakdown">
                  {[
                    `${formatMoney(current.base, current.currency)} base`,
                    ...current.surcharges.map((surcharge) => `${formatMoney(surcharge.amount, current.currency)} ${surcharge.description}`),
                  ].join(" + ")}
                  {current.total !== current.quotedTotal ? ` (quoted ${formatMoney(current.quotedTotal, current.currency)} without these options)` : ""}
                </span>
              </Text>
            )}
            {current && !current.ok && (
              <Text as="p" tone="critical">
                {current.message}
              </Text>
            )}
            {saturday && rate.saturdayDelivery && (
              <Text as="p" tone="subdued">
                Plus the Saturday delivery surcharge, which the carrier prices when the label is booked.
              </Text>
            )}
          </BlockStack>
        </Card>
      )}
      <InlineStack align="end">
        <Button variant="primary" onClick={book} loading={booking} disabled={!rate || (withOptions && !total)}>
          {total ? `Book shipment for ${formatMoney(total.amount, total.currency)}` : "Book shipment"}
        </Button>
      </InlineStack>
    </BlockStack>
  );
}
