import { carrierAndService, type ServiceNames } from "../../../shipping/service-names";
import { Link, useFetcher, useNavigation, useSubmit } from "@remix-run/react";
import { BlockStack, Button, Checkbox, InlineGrid, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import { useEffect, useMemo, useState } from "react";
import type { OptionsPrice, ShipmentBooking } from "../../../booking/single-booking.server";
import type { FieldErrors } from "../../../field-errors";
import { formatMoney } from "../../../shipping/money";
import { BookingPrice } from "./booking-price";
import { InvoiceFields, itemDrafts, type ItemDraft } from "./invoice-fields";

export interface Choices {
  labelFormats: readonly string[];
  termsOfTrade: readonly string[];
}

/** The booking form of a shipment not booked yet: service, signature, insurance, label format, the invoice, and what booking charges. */
export function BookingForm({
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
        <InvoiceFields termsOfTrade={choices.termsOfTrade} terms={terms} setTerms={setTerms} items={items} setItems={setItems} fieldErrors={fieldErrors} />
      )}

      {rate && <BookingPrice rate={rate} total={total} withOptions={withOptions} current={current} saturday={saturday} />}
      <InlineStack align="end">
        <Button variant="primary" onClick={book} loading={booking} disabled={!rate || (withOptions && !total)}>
          {total ? `Book shipment for ${formatMoney(total.amount, total.currency)}` : "Book shipment"}
        </Button>
      </InlineStack>
    </BlockStack>
  );
}
