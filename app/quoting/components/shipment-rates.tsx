import { useFetcher, type FetcherWithComponents } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Checkbox, DataTable, InlineStack, RadioButton, Text } from "@shopify/polaris";
import { memo, useCallback, useEffect, useState } from "react";
import type { Outcome } from "../../outcome";
import { formatMoney } from "../../shipping/money";
import { PackagesEditor } from "./packages-editor";
import type { RateOption, ShipmentView } from "../run-view.server";
import type { loader as ratesLoader } from "../../routes/app.quotes.$runId.rates";
import { carrierName, serviceName, type ServiceNames } from "../../shipping/service-names";
import { WrappingText } from "../../components/wrapping-text";
import { surchargesText } from "../rate-display";
import { RATES_TABLE_COLUMNS } from "../rates-table-size";

/**
 * One shipment on the rates page: a compact line (destination and weight, the picked carrier and service
 * by name, delivery speed, total, why it was picked, what needs doing) and, when its order is expanded,
 * every rate with the pick preselected.
 */

/** Column widths of the compact line, shared by every row so the page reads as a table. */
export const SUMMARY_COLUMNS = "minmax(180px, 1.4fr) minmax(200px, 1.6fr) minmax(140px, 1fr) 90px minmax(150px, auto)";

interface ShipmentRatesProps {
  runId: string;
  shipment: ShipmentView;
  heading: string;
  names: ServiceNames;
  /** The shop's box names, for the packages editor. */
  boxes: string[];
  expanded: boolean;
  included: boolean;
  /** The merchant kept the shipment in the batch or left it out; its pick goes with it (for the totals). */
  onIncludedChange: (shipmentId: string, pick: { currency: string; totalAmount: string } | undefined, included: boolean) => void;
}

type RefusableFetcher = FetcherWithComponents<Outcome<{ message: string }>>;

/**
 * A page of the run shows 50 orders: a line renders again only when its own props change (memo), and it holds no
 * fetcher of its own (a fetcher renders with every change of the router's state: a navigation starting, another
 * line's rates arriving). The few lines that can be re-quoted hold that fetcher; an unfolded line's rates hold theirs.
 */
export const ShipmentRates = memo(function ShipmentRates(props: ShipmentRatesProps) {
  const { shipment } = props;
  const canRequote = shipment.locked === null && (shipment.status === "FAILED" || shipment.selectedExpired);
  return canRequote ? <RequotableLine {...props} /> : <ShipmentLine {...props} requote={null} />;
});

function RequotableLine(props: ShipmentRatesProps) {
  const requote = useFetcher<Outcome<{ message: string }>>();
  return <ShipmentLine {...props} requote={requote} />;
}

function ShipmentLine({
  runId,
  shipment,
  heading,
  names,
  boxes,
  expanded,
  included,
  onIncludedChange,
  requote,
}: ShipmentRatesProps & { requote: RefusableFetcher | null }) {
  const [editing, setEditing] = useState(false);
  const closeEditor = useCallback(() => setEditing(false), []);
  const refused = requote?.data && !requote.data.ok ? requote.data.message : undefined;
  const picked = shipment.options.find((option) => option.quoteId === shipment.selectedQuoteId);
  const requoteButton = requote && (
    <requote.Form method="post">
      <input type="hidden" name="intent" value="requote" />
      <input type="hidden" name="shipmentIds" value={shipment.id} />
      <Button submit size="slim" loading={requote.state !== "idle"} accessibilityLabel={`Re-quote ${heading}`}>
        Re-quote
      </Button>
    </requote.Form>
  );

  return (
    <div
      data-testid="quote-shipment"
      data-shipment-id={shipment.id}
      data-status={shipment.status}
      data-destination-country={shipment.country}
      data-rate-count={shipment.rateCount}
    >
      <BlockStack gap="200">
        <div style={{ display: "grid", gridTemplateColumns: SUMMARY_COLUMNS, gap: "12px", alignItems: "start" }}>
          <BlockStack gap="050">
            <Text as="span" variant="bodySm" tone="subdued">
              {heading}
            </Text>
            <Text as="span">
              <span data-testid="shipment-weight">{shipment.weight}</span>
              {shipment.packages.length > 1 && <span data-testid="package-count">{` in ${shipment.packages.length} packages`}</span>} · {shipment.destination}
            </Text>
          </BlockStack>
          <BlockStack gap="050">
            {picked ? (
              <>
                <Text as="span" fontWeight="semibold">
                  <span data-testid="picked-carrier">{carrierName(names, picked.carrierCode)}</span>
                </Text>
                <Text as="span">
                  <span data-testid="picked-service">{serviceName(names, picked)}</span>
                </Text>
              </>
            ) : (
              <Text as="span" tone="subdued">
                {shipment.status === "PENDING" ? "Quoting…" : "No rate picked"}
              </Text>
            )}
            {shipment.choice.flag && (
              <span data-testid="choice-flag" data-slower={shipment.choice.slower}>
                <Badge tone="warning">{shipment.choice.flag}</Badge>
              </span>
            )}
            {shipment.selectionReason && (
              <Text as="span" variant="bodySm" tone={shipment.selectedExpired ? "caution" : "subdued"}>
                <span data-testid="pick-reason">{shipment.selectionReason}</span>
                {shipment.selectedExpired && " — these rates have expired; re-quote before booking."}
              </Text>
            )}
            {shipment.packingNote && (
              <Text as="span" variant="bodySm" tone="subdued">
                <span data-testid="packing-note">{shipment.packingNote}</span>
              </Text>
            )}
          </BlockStack>
          <Text as="span" tone="subdued">
            <span data-testid="picked-speed">{picked?.speed ?? "—"}</span>
          </Text>
          <Text as="span" alignment="end" fontWeight="semibold">
            <span data-testid="picked-total">{picked ? formatMoney(picked.totalAmount, picked.currency) : "—"}</span>
          </Text>
          <InlineStack gap="200" blockAlign="center" align="end">
            {shipment.status === "PENDING" && <Badge tone="info">Quoting…</Badge>}
            {shipment.status === "FAILED" && <Badge tone="critical">Not quoted</Badge>}
            {shipment.selectedExpired && <Badge tone="warning">Rates expired</Badge>}
            {shipment.locked && <Badge>{shipment.locked}</Badge>}
            {requoteButton}
            {shipment.locked === null && shipment.status !== "PENDING" && !editing && (
              <Button size="slim" variant="tertiary" onClick={() => setEditing(true)} accessibilityLabel={`Change the packages of ${heading}`}>
                Packages
              </Button>
            )}
            {shipment.ready && <Checkbox label="Include in batch" checked={included} onChange={(checked) => onIncludedChange(shipment.id, picked, checked)} />}
          </InlineStack>
        </div>

        {shipment.error && (
          <Banner
            tone={shipment.status === "FAILED" ? "critical" : "warning"}
            title={shipment.status === "FAILED" ? "Could not be quoted" : "The last re-quote failed"}
          >
            <p data-testid="failed-reason">{shipment.error}</p>
          </Banner>
        )}

        {editing && <PackagesEditor shipment={shipment} boxes={boxes} onDone={closeEditor} />}

        {refused && (
          <Banner tone="critical">
            <p>{refused}</p>
          </Banner>
        )}

        {expanded && shipment.rateCount > 0 && <AllRates runId={runId} shipment={shipment} names={names} />}
      </BlockStack>
    </div>
  );
}

/**
 * Every rate of an unfolded shipment, read when it unfolds (and again after a pick or re-quote, as Remix revalidates),
 * with the pick preselected: choosing another picks it.
 */
function AllRates({ runId, shipment, names }: { runId: string; shipment: ShipmentView; names: ServiceNames }) {
  const rates = useFetcher<typeof ratesLoader>();
  const pick = useFetcher<Outcome<{ message: string }>>();
  const ratesPath = `/app/quotes/${runId}/rates?${new URLSearchParams({ shipment: shipment.id })}`;
  useEffect(() => {
    if (rates.state === "idle" && rates.data === undefined) rates.load(ratesPath);
  }, [rates, ratesPath]);
  const options: RateOption[] = rates.data?.options ?? [];
  const refused = pick.data && !pick.data.ok ? pick.data.message : undefined;
  const choosing = pick.state !== "idle" ? Number(pick.formData?.get("quoteId")) : null;
  const selected = choosing ?? shipment.selectedQuoteId;
  return (
    <>
      {refused && (
        <Banner tone="critical">
          <p>{refused}</p>
        </Banner>
      )}
      {options.length === 0 ? (
        // As tall as the table that replaces it (measured by the loader), so nothing below moves when the rates arrive.
        <div style={{ minHeight: shipment.ratesHeight }}>
          <Text as="p" tone="subdued">
            <span data-testid="rates-loading">{`Reading ${shipment.rateCount} rates…`}</span>
          </Text>
        </div>
      ) : (
        // Never shorter than the space kept while the rates loaded: a row measured a line too tall leaves a gap, not a jump.
        <div style={{ minHeight: shipment.ratesHeight }}>
          <DataTable
            hideScrollIndicator
            increasedTableDensity
            columnContentTypes={["text", "text", "text", "text", "numeric", "text", "text", "text"]}
            headings={["", "Carrier", "Service", "Delivery", "Total", "Surcharges", "Zone", "Billed weight"]}
            rows={options.map((option) => [
              <span key="pick" data-testid="rate-option" data-quote-id={option.quoteId} data-selected={option.quoteId === shipment.selectedQuoteId}>
                <RadioButton
                  label={`Ship with ${carrierName(names, option.carrierCode)} ${serviceName(names, option)}`}
                  labelHidden
                  name={`rate-${shipment.id}`}
                  id={`rate-${shipment.id}-${option.quoteId}`}
                  checked={option.quoteId === selected}
                  disabled={option.expired || shipment.locked !== null || pick.state !== "idle"}
                  onChange={() => pick.submit({ intent: "select", shipmentId: shipment.id, quoteId: String(option.quoteId) }, { method: "post" })}
                />
              </span>,
              <WrappingText key="carrier" maxWidth={RATES_TABLE_COLUMNS.carrier}>
                {carrierName(names, option.carrierCode)}
              </WrappingText>,
              <InlineStack key="service" gap="100" blockAlign="center">
                <WrappingText maxWidth={RATES_TABLE_COLUMNS.service}>{serviceName(names, option)}</WrappingText>
                {option.expired && <Badge tone="warning">Expired</Badge>}
              </InlineStack>,
              option.observedTransit ? (
                <span key="speed" data-testid="observed-transit">
                  {option.observedTransit}
                </span>
              ) : (
                <WrappingText key="speed" maxWidth={RATES_TABLE_COLUMNS.speed}>
                  {option.speed}
                </WrappingText>
              ),
              formatMoney(option.totalAmount, option.currency),
              <WrappingText key="surcharges" maxWidth={RATES_TABLE_COLUMNS.surcharges}>
                {surchargesText(option.surcharges, option.currency)}
              </WrappingText>,
              option.zone || "—",
              option.billedWeight,
            ])}
          />
        </div>
      )}
    </>
  );
}
