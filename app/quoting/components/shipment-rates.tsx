import { useFetcher } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Checkbox, DataTable, InlineStack, RadioButton, Text } from "@shopify/polaris";
import { formatMoney } from "../money";
import type { RateOption, ShipmentView } from "../run-view.server";

/** One shipment on the rates page: its rates with the pick preselected, why, and what needs doing. */

function surcharges(option: RateOption): string {
  return option.surcharges.length === 0 ? "—" : option.surcharges.map((charge) => `${charge.description} ${formatMoney(charge.amount, option.currency)}`).join(", ");
}

function weight(option: RateOption): string {
  return `${option.quotedWeight} (${option.quotedWeightType})`;
}

export function ShipmentRates({
  shipment,
  heading,
  included,
  onIncludedChange,
}: {
  shipment: ShipmentView;
  heading: string;
  included: boolean;
  onIncludedChange: (included: boolean) => void;
}) {
  const pick = useFetcher<{ ok: boolean; error?: string }>();
  const requote = useFetcher<{ ok: boolean; error?: string }>();
  const refused = [pick.data, requote.data].find((data) => data && !data.ok)?.error;
  const choosing = pick.state !== "idle" ? Number(pick.formData?.get("quoteId")) : null;
  const selected = choosing ?? shipment.selectedQuoteId;
  const requoting = requote.state !== "idle";
  const canRequote = shipment.locked === null && (shipment.status === "FAILED" || shipment.selectedExpired);
  const requoteButton = canRequote && (
    <requote.Form method="post">
      <input type="hidden" name="intent" value="requote" />
      <input type="hidden" name="shipmentIds" value={shipment.id} />
      <Button submit loading={requoting} accessibilityLabel={`Re-quote ${heading}`}>
        Re-quote
      </Button>
    </requote.Form>
  );

  return (
    <div data-testid="quote-shipment" data-shipment-id={shipment.id} data-status={shipment.status} data-destination-country={shipment.country}>
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="center" align="space-between">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h3" variant="headingSm">
              {heading}
            </Text>
            <Text as="span" tone="subdued">
              {shipment.destination} · {shipment.weight}
            </Text>
            {shipment.status === "PENDING" && <Badge tone="info">Quoting…</Badge>}
            {shipment.selectedExpired && <Badge tone="warning">Rates expired</Badge>}
            {shipment.locked && <Badge>{shipment.locked}</Badge>}
          </InlineStack>
          <InlineStack gap="200" blockAlign="center">
            {requoteButton}
            {shipment.ready && (
              <Checkbox label="Include in batch" checked={included} onChange={onIncludedChange} />
            )}
          </InlineStack>
        </InlineStack>

        {shipment.error && (
          <Banner tone={shipment.status === "FAILED" ? "critical" : "warning"} title={shipment.status === "FAILED" ? "Could not be quoted" : "The last re-quote failed"}>
            <p data-testid="failed-reason">{shipment.error}</p>
          </Banner>
        )}

        {refused && (
          <Banner tone="critical">
            <p>{refused}</p>
          </Banner>
        )}

        {shipment.selectionReason && (
          <Text as="p" tone={shipment.selectedExpired ? "caution" : "subdued"}>
            <span data-testid="pick-reason">{shipment.selectionReason}</span>
            {shipment.selectedExpired && " — these rates have expired; re-quote before booking."}
          </Text>
        )}

        {shipment.options.length > 0 && (
          <DataTable
            hideScrollIndicator
            increasedTableDensity
            columnContentTypes={["text", "text", "text", "numeric", "text", "text", "text"]}
            headings={["", "Carrier", "Service", "Total", "Surcharges", "Zone", "Quoted weight"]}
            rows={shipment.options.map((option) => [
              <span key="pick" data-testid="rate-option" data-quote-id={option.quoteId} data-selected={option.quoteId === shipment.selectedQuoteId}>
                <RadioButton
                  label={`Ship with ${option.carrierCode} ${option.serviceDescription}`}
                  labelHidden
                  name={`rate-${shipment.id}`}
                  id={`rate-${shipment.id}-${option.quoteId}`}
                  checked={option.quoteId === selected}
                  disabled={option.expired || shipment.locked !== null || pick.state !== "idle"}
                  onChange={() => pick.submit({ intent: "select", shipmentId: shipment.id, quoteId: String(option.quoteId) }, { method: "post" })}
                />
              </span>,
              option.carrierCode,
              <InlineStack key="service" gap="100" blockAlign="center">
                <span>{option.serviceDescription}</span>
                {option.expired && <Badge tone="warning">Expired</Badge>}
                {option.observedTransit && (
                  <Text as="span" tone="subdued" variant="bodySm">
                    <span data-testid="observed-transit">{option.observedTransit}</span>
                  </Text>
                )}
              </InlineStack>,
              formatMoney(option.totalAmount, option.currency),
              surcharges(option),
              option.zone || "—",
              weight(option),
            ])}
          />
        )}
      </BlockStack>
    </div>
  );
}
