import type { FetcherWithComponents } from "@remix-run/react";
import { Badge, BlockStack, Button, Checkbox, DataTable, InlineStack, Text } from "@shopify/polaris";
import { useState } from "react";
import { plural } from "../../../plural";
import type { QuoteRunView } from "../../../quoting/run-view.server";
import { formatMoney } from "../../../shipping/money";
import { carrierName } from "../../../shipping/service-names";
import { SummaryLayout } from "../../../components/summary-layout";

/** The run's counts, its bulk actions (Apply rule, re-quote expired or failed shipments) and the picked rates' totals by carrier. */
export function RunSummary({ view, bulk }: { view: QuoteRunView; bulk: FetcherWithComponents<unknown> }) {
  const [overrideManual, setOverrideManual] = useState(false);
  const { run, names } = view;
  return (
    <SummaryLayout
      counts={
        <>
          <Badge tone="success">{`${view.counts.ready} ready`}</Badge>
          {view.counts.expired > 0 && <Badge tone="warning">{`${view.counts.expired} expired`}</Badge>}
          {view.counts.failed > 0 && <Badge tone="critical">{`${view.counts.failed} failed`}</Badge>}
          {view.counts.blockedOrders > 0 && <Badge tone="attention">{`${plural(view.counts.blockedOrders, "order")} blocked`}</Badge>}
          {view.counts.pending > 0 && <Badge tone="info">{`${view.counts.pending} quoting`}</Badge>}
        </>
      }
      actions={
        <>
          <bulk.Form method="post">
            <input type="hidden" name="intent" value="apply-rule" />
            <InlineStack gap="200" blockAlign="center">
              <Button submit disabled={run.status === "RUNNING"} loading={bulk.state !== "idle" && bulk.formData?.get("intent") === "apply-rule"}>
                Apply rule
              </Button>
              <Checkbox label="Also replace rates you chose" checked={overrideManual} onChange={setOverrideManual} />
              {overrideManual && <input type="hidden" name="overrideManual" value="on" />}
            </InlineStack>
          </bulk.Form>
          {(
            [
              { which: "expired", count: view.counts.expired },
              { which: "failed", count: view.counts.failed },
            ] as const
          )
            .filter(({ count }) => count > 0)
            .map(({ which, count }) => (
              <bulk.Form method="post" key={which}>
                <input type="hidden" name="intent" value="requote-run" />
                <input type="hidden" name="which" value={which} />
                <Button submit disabled={bulk.state !== "idle"}>{`Re-quote ${plural(count, `${which} shipment`)}`}</Button>
              </bulk.Form>
            ))}
        </>
      }
      aside={
        <BlockStack gap="300">
          <Text as="h2" variant="headingSm">
            Picked rates by carrier
          </Text>
          <div data-testid="carrier-totals">
            {view.totals.length === 0 ? (
              <Text as="p" tone="subdued">
                No rates ready yet.
              </Text>
            ) : (
              <DataTable
                columnContentTypes={["text", "numeric", "numeric"]}
                headings={["Carrier", "Shipments", "Total"]}
                rows={view.totals.map((total) => [
                  carrierName(names, total.carrierCode),
                  total.count,
                  total.amounts.map((amount) => formatMoney(amount.total, amount.currency)).join(" + "),
                ])}
              />
            )}
          </div>
        </BlockStack>
      }
    />
  );
}
