import { Form, useNavigation, useSearchParams } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Select, Text } from "@shopify/polaris";
import { plural } from "../../../plural";
import { isFiltered } from "../../../quoting/rates-filter";
import type { QuoteRunView } from "../../../quoting/run-view.server";
import { formatMoney, sumAmounts } from "../../../shipping/money";
import { carrierName } from "../../../shipping/service-names";

/** A shipment's picked rate: what leaving it out of the batch takes off the grand total. */
export interface Pick {
  currency: string;
  totalAmount: string;
}

/** The amount with the opposite sign ("12.50" → "-12.50"). */
const negated = (amount: string) => (amount.startsWith("-") ? amount.slice(1) : `-${amount}`);

/**
 * "$312.40" or "$312.40 + £20.10": the run's ready rates summed per currency (the server's totals), less the rates
 * of the shipments the merchant left out.
 */
function grandTotal(totals: ReadonlyArray<{ currency: string; total: string }>, left: Iterable<Pick>): string {
  const byCurrency = new Map<string, string[]>(totals.map((total) => [total.currency, [total.total]]));
  for (const rate of left) byCurrency.set(rate.currency, [...(byCurrency.get(rate.currency) ?? []), negated(rate.totalAmount)]);
  if (byCurrency.size === 0) return formatMoney("0", "USD");
  return [...byCurrency]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amounts]) => formatMoney(sumAmounts(amounts), currency))
    .join(" + ");
}

/** The grand total, Create batch and the filters, which stay in view while the merchant scrolls hundreds of orders. */
export function RatesBar({ view, excluded }: { view: QuoteRunView; excluded: ReadonlyMap<string, Pick> }) {
  const navigation = useNavigation();
  const [searchParams, setSearchParams] = useSearchParams();
  const { run, names, filter } = view;
  const counts = view.filterCounts;
  const batchCount = Math.max(0, view.counts.ready - excluded.size);
  /** Sets (or clears) one filter, back to the first page; the others are kept. */
  const setFilter = (name: "attention" | "international" | "carrier", value: string | null) => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(name, value);
    else next.delete(name);
    next.delete("page");
    setSearchParams(next);
  };
  return (
    <div data-testid="rates-sticky-bar" style={{ position: "sticky", top: 0, zIndex: 20 }}>
      <Card>
        <BlockStack gap="300">
          <InlineStack gap="400" align="space-between" blockAlign="center">
            <Text as="p" variant="headingMd">
              {`${plural(batchCount, "shipment")} picked · `}
              <span data-testid="grand-total">{grandTotal(view.readyTotals, excluded.values())}</span>
            </Text>
            <Form method="post" action="/app/batches/new">
              <input type="hidden" name="runId" value={run.id} />
              {/* The run's ready shipments are read on the server; only those left out are sent. */}
              {[...excluded.keys()].map((id) => (
                <input key={id} type="hidden" name="excludedShipmentIds" value={id} />
              ))}
              <Button submit variant="primary" disabled={batchCount === 0 || navigation.state !== "idle"}>
                {`Create batch (${plural(batchCount, "shipment")})`}
              </Button>
            </Form>
          </InlineStack>
          <InlineStack gap="200" blockAlign="center">
            <Text as="span" tone="subdued">
              Show:
            </Text>
            <Button pressed={!isFiltered(filter)} size="slim" onClick={() => setSearchParams(new URLSearchParams())}>
              {`All (${counts.all})`}
            </Button>
            <Button pressed={filter.attention === "1"} size="slim" onClick={() => setFilter("attention", filter.attention ? null : "1")}>
              {`Needs attention (${counts.attention})`}
            </Button>
            <Button pressed={filter.international === "1"} size="slim" onClick={() => setFilter("international", filter.international ? null : "1")}>
              {`International (${counts.international})`}
            </Button>
            <div style={{ minWidth: 220 }}>
              <Select
                label="Carrier"
                labelInline
                value={filter.carrier ?? ""}
                onChange={(value) => setFilter("carrier", value || null)}
                options={[
                  { label: "Any carrier", value: "" },
                  ...counts.carriers.map((carrier) => ({
                    label: `${carrierName(names, carrier.carrierCode)} (${carrier.orders})`,
                    value: carrier.carrierCode,
                  })),
                ]}
              />
            </div>
          </InlineStack>
        </BlockStack>
      </Card>
    </div>
  );
}
