import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { TitleBar } from "@shopify/app-bridge-react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  DataTable,
  Divider,
  InlineStack,
  Page,
  Pagination,
  ProgressBar,
  Select,
  Text,
} from "@shopify/polaris";
import { useMemo, useState } from "react";
import { z } from "zod";
import { useRevalidateWhile, useSuccessToast } from "../components/page-hooks";
import { SummaryLayout } from "../components/summary-layout";
import { ShipmentRates } from "../quoting/components/shipment-rates";
import { LineDetailsForm } from "../quoting/components/line-details-form";
import { QuotingInputError } from "../quoting/errors";
import { formatMoney, sumAmounts } from "../shipping/money";
import { requoteShipments } from "../quoting/requote.server";
import { repackShipment } from "../quoting/repack.server";
import { describePaid } from "../quoting/customer-choice";
import { saveLineDetailsAndRequote } from "../quoting/blocked-fix.server";
import { RatesFilter, isFiltered } from "../quoting/rates-filter";
import { loadQuoteRunView } from "../quoting/run-view.server";
import { carrierName } from "../shipping/service-names";
import { applyRule, selectRate } from "../quoting/rate-pick.server";
import { requireAccount } from "../settings/require-account.server";
import { adminContext } from "../request-context.server";
import { readPostedForm } from "../posted-form.server";
import type { Outcome } from "../outcome";
import type { FieldErrors } from "../settings/field-errors";
import { listPageOf } from "../list-page.server";

/**
 * The rates page of one quote run: progress while it quotes, then every order's rates with the rule's
 * pick, overrides, Apply rule, re-quotes, totals by carrier, and "Create batch" (handled by /app/batches/new).
 */

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { ctx } = await adminContext(request);
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const page = listPageOf(new URL(request.url).searchParams);
  const filter = RatesFilter.parse(query);
  try {
    return await loadQuoteRunView(ctx, params.runId ?? "", { page, filter });
  } catch (error) {
    if (error instanceof QuotingInputError) throw new Response(error.message, { status: error.status });
    throw error;
  }
};

const ActionInput = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("select"), shipmentId: z.string().min(1), quoteId: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal("apply-rule"), overrideManual: z.literal("on").optional() }),
  z.object({ intent: z.literal("requote"), shipmentIds: z.array(z.string().min(1)).min(1, "choose at least one shipment") }),
]);

/** Refused with the message, on the field it names when it names one (the customs form and the packages editor show it there). */
type ActionResult = Outcome<{ message: string }, { fieldErrors?: FieldErrors }>;

/** A typed input error of quoting as the answer, on its field. */
function inputRefused(error: QuotingInputError): ActionResult {
  return { ok: false, message: error.message, fieldErrors: { [error.field]: error.message } };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { ctx } = await adminContext(request);
  const form = await readPostedForm(request);
  if (form.get("intent") === "customs") {
    // What an order blocked in this run lacked (weights, customs details): kept for the order, then quoted again in this run.
    try {
      await requireAccount(ctx, request);
      const posted = { orderId: form.get("orderId"), weightUnit: form.get("weightUnit") ?? undefined };
      const fields = {
        lineId: form.getAll("lineId"),
        hsCode: form.getAll("hsCode"),
        countryOfOrigin: form.getAll("countryOfOrigin"),
        weight: form.getAll("weight"),
      };
      const outcome = await saveLineDetailsAndRequote(ctx, params.runId ?? "", { ...posted, ...fields });
      return json<ActionResult>(
        outcome.ok
          ? { ok: true, message: "Saved: quoting the order again in this run" }
          : { ok: false, message: `Saved, but the order is still blocked: ${outcome.message}` },
      );
    } catch (error) {
      if (error instanceof QuotingInputError) return json<ActionResult>(inputRefused(error), { status: error.status });
      throw error;
    }
  }
  if (form.get("intent") === "repack") {
    try {
      await requireAccount(ctx, request);
      const outcome = await repackShipment(ctx, { shipmentId: form.get("shipmentId"), box: form.getAll("box"), weight: form.getAll("weight") });
      return outcome.ok
        ? json<ActionResult>({ ok: true, message: "Packages saved and re-quoted" })
        : json<ActionResult>({ ok: false, message: `Packages saved, but the re-quote failed: ${outcome.message}` });
    } catch (error) {
      if (error instanceof QuotingInputError) return json<ActionResult>(inputRefused(error), { status: error.status });
      throw error;
    }
  }
  const input = ActionInput.safeParse({ ...Object.fromEntries(form), shipmentIds: form.getAll("shipmentIds") });
  if (!input.success) {
    const issue = input.error.issues[0];
    const field = issue?.path.join(".") || "intent";
    const message = `${field}: ${issue?.message ?? "invalid"}`;
    return json<ActionResult>({ ok: false, message, fieldErrors: { [field]: message } }, { status: 400 });
  }
  try {
    switch (input.data.intent) {
      case "select": {
        await selectRate(ctx, input.data.shipmentId, input.data.quoteId);
        return json<ActionResult>({ ok: true, message: "Rate chosen" });
      }
      case "apply-rule": {
        const result = await applyRule(ctx, params.runId ?? "", { overrideManual: input.data.overrideManual === "on" });
        const kept = result.keptManual > 0 ? `; kept ${plural(result.keptManual, "rate")} you chose` : "";
        return json<ActionResult>({ ok: true, message: `Rule applied to ${plural(result.applied, "shipment")}${kept}` });
      }
      case "requote": {
        await requireAccount(ctx, request);
        const outcomes = await requoteShipments(ctx, input.data.shipmentIds);
        const failed = outcomes.filter((outcome) => !outcome.ok).length;
        const done = `Re-quoted ${plural(outcomes.length - failed, "shipment")}`;
        return json<ActionResult>({ ok: true, message: failed > 0 ? `${done}; ${failed} could not be quoted (see below)` : done });
      }
    }
  } catch (error) {
    if (error instanceof QuotingInputError) return json<ActionResult>(inputRefused(error), { status: error.status });
    throw error;
  }
};

/** While the run quotes, the page reloads its data every second. */
const POLL_MS = 1000;

/** "$312.40" or "$312.40 + £20.10": the picked rates summed per currency. */
function grandTotal(rates: ReadonlyArray<{ currency: string; totalAmount: string }>): string {
  const byCurrency = new Map<string, string[]>();
  for (const rate of rates) byCurrency.set(rate.currency, [...(byCurrency.get(rate.currency) ?? []), rate.totalAmount]);
  if (byCurrency.size === 0) return formatMoney("0", "USD");
  return [...byCurrency]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amounts]) => formatMoney(sumAmounts(amounts), currency))
    .join(" + ");
}

export default function QuoteRunPage() {
  const view = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const bulk = useFetcher<typeof action>();
  const navigation = useNavigation();
  const [searchParams, setSearchParams] = useSearchParams();
  const [excluded, setExcluded] = useState<ReadonlySet<string>>(new Set());
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [overrideManual, setOverrideManual] = useState(false);
  const { run, names, filter } = view;
  const outcome = bulk.data ?? result;

  useRevalidateWhile(run.status === "RUNNING", POLL_MS);
  useSuccessToast(outcome);

  const batchRates = useMemo(() => view.readyRates.filter((rate) => !excluded.has(rate.shipmentId)), [view.readyRates, excluded]);
  const batchIds = batchRates.map((rate) => rate.shipmentId);
  const include = (id: string, included: boolean) =>
    setExcluded((current) => {
      const next = new Set(current);
      if (included) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggle = (orderId: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(orderId)) next.delete(orderId);
      else next.add(orderId);
      return next;
    });
  /** Sets (or clears) one filter, back to the first page; the others are kept. */
  const setFilter = (name: "attention" | "international" | "carrier", value: string | null) => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(name, value);
    else next.delete(name);
    next.delete("page");
    setSearchParams(next);
  };
  const setPage = (page: number) => {
    const next = new URLSearchParams(searchParams);
    next.set("page", String(page));
    setSearchParams(next);
  };
  const percent = run.shipmentsTotal === 0 ? 100 : Math.round((run.shipmentsDone / run.shipmentsTotal) * 100);
  const counts = view.filterCounts;

  return (
    <Page>
      <TitleBar title="Rates" />
      <BlockStack gap="400">
        <Text as="p" tone="subdued">
          {plural(run.orderCount, "order")} selected · rates picked by your rule: <span data-testid="rule-words">{view.rule}</span> (
          <Link to="/app/settings">change</Link>)
        </Text>
        {run.status === "RUNNING" && (
          <Card>
            <BlockStack gap="200">
              <Text as="p">
                <span data-testid="quote-progress">
                  Quoting {run.shipmentsDone} of {plural(run.shipmentsTotal, "shipment")}…
                </span>
              </Text>
              <ProgressBar progress={percent} tone="primary" />
            </BlockStack>
          </Card>
        )}
        {run.status === "FAILED" && run.error && (
          <Banner tone="critical" title="Quoting failed">
            <p data-testid="run-error">{run.error}</p>
          </Banner>
        )}
        {outcome && !outcome.ok && (
          <Banner tone="critical" title="That did not work">
            <p>{outcome.message}</p>
          </Banner>
        )}

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
              {[
                { ids: view.expiredShipmentIds, what: "expired shipment" },
                { ids: view.failedShipmentIds, what: "failed shipment" },
              ]
                .filter(({ ids }) => ids.length > 0)
                .map(({ ids, what }) => (
                  <bulk.Form method="post" key={what}>
                    <input type="hidden" name="intent" value="requote" />
                    {ids.map((id) => (
                      <input key={id} type="hidden" name="shipmentIds" value={id} />
                    ))}
                    <Button submit disabled={bulk.state !== "idle"}>{`Re-quote ${plural(ids.length, what)}`}</Button>
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

        {/* The grand total, Create batch and the filters stay in view while the merchant scrolls hundreds of orders. */}
        <div data-testid="rates-sticky-bar" style={{ position: "sticky", top: 0, zIndex: 20 }}>
          <Card>
            <BlockStack gap="300">
              <InlineStack gap="400" align="space-between" blockAlign="center">
                <Text as="p" variant="headingMd">
                  {`${plural(batchIds.length, "shipment")} picked · `}
                  <span data-testid="grand-total">{grandTotal(batchRates)}</span>
                </Text>
                <Form method="post" action="/app/batches/new">
                  <input type="hidden" name="runId" value={run.id} />
                  {batchIds.map((id) => (
                    <input key={id} type="hidden" name="shipmentIds" value={id} />
                  ))}
                  <Button submit variant="primary" disabled={batchIds.length === 0 || navigation.state !== "idle"}>
                    {`Create batch (${plural(batchIds.length, "shipment")})`}
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

        <Card padding="0">
          <div
            data-rates-filter={[filter.attention && "attention", filter.international && "international", filter.carrier].filter(Boolean).join(" ") || "all"}
            hidden
          />
          {view.orders.length === 0 && (
            <Box padding="400">
              <Text as="p" tone="subdued">
                {isFiltered(filter)
                  ? "No orders match these filters. Choose All to see every order of this run."
                  : "No orders in this run. Select orders in Orders to ship and choose Create shipping labels."}
              </Text>
            </Box>
          )}
          {view.orders.map((order) => {
            const rates = order.shipments.reduce((sum, shipment) => sum + shipment.rateCount, 0);
            const open = expanded.has(order.orderId);
            return (
              <div
                key={order.orderId}
                data-testid="quote-order"
                data-order-id={order.orderId}
                data-order-name={order.orderName}
                style={{ padding: "12px 16px", borderBottom: "1px solid var(--p-color-border-secondary)" }}
              >
                <BlockStack gap="200">
                  <InlineStack gap="200" blockAlign="center" align="space-between">
                    <InlineStack gap="300" blockAlign="center">
                      <Text as="h2" variant="headingSm">
                        <span data-testid="quote-order-name">{order.orderName}</span>
                      </Text>
                      <Text as="span" tone="subdued">
                        {"Customer paid for: "}
                        <span data-testid="paid-shipping">{order.paidShipping ? describePaid(order.paidShipping) : "no shipping line"}</span>
                      </Text>
                      {order.shipments.length > 0 && (
                        <Link to={`/app/orders/${order.orderNumber}/book`}>
                          {order.shipments.every((shipment) => shipment.locked === "Booked") ? "Booked" : "Book alone"}
                        </Link>
                      )}
                    </InlineStack>
                    {rates > 0 && (
                      <Button
                        variant="plain"
                        disclosure={open ? "up" : "down"}
                        onClick={() => toggle(order.orderId)}
                        accessibilityLabel={`${open ? "Hide" : "Show"} all rates of ${order.orderName}`}
                      >
                        {open ? "Hide rates" : `All ${plural(rates, "rate")}`}
                      </Button>
                    )}
                  </InlineStack>
                  {order.blocked.length > 0 && (
                    <Banner tone="warning" title={order.shipments.length > 0 ? "Some items are not quoted" : "Not quoted"}>
                      <BlockStack gap="100">
                        {order.blocked.map((issue) => (
                          <p key={issue.code + issue.message} data-testid="blocked-reason" data-code={issue.code}>
                            {issue.message}
                          </p>
                        ))}
                        {order.lineFixes && <LineDetailsForm order={order} fixes={order.lineFixes} />}
                      </BlockStack>
                    </Banner>
                  )}
                  {order.movedToLaterRun && (
                    <Text as="p" tone="subdued">
                      This order was quoted again in a later run; see <Link to="/app/quotes">Rates</Link>.
                    </Text>
                  )}
                  {order.shipments.map((shipment, index) => (
                    <BlockStack key={shipment.id} gap="200">
                      {index > 0 && <Divider />}
                      <ShipmentRates
                        runId={run.id}
                        shipment={shipment}
                        heading={order.shipments.length > 1 ? `Shipment ${index + 1} of ${order.shipments.length}` : "Shipment"}
                        names={names}
                        boxes={view.boxes}
                        expanded={open}
                        included={!excluded.has(shipment.id)}
                        onIncludedChange={(included) => include(shipment.id, included)}
                      />
                    </BlockStack>
                  ))}
                </BlockStack>
              </div>
            );
          })}
        </Card>

        {view.pages > 1 && (
          <InlineStack align="center">
            <Pagination
              hasPrevious={view.page > 1}
              hasNext={view.page < view.pages}
              onPrevious={() => setPage(view.page - 1)}
              onNext={() => setPage(view.page + 1)}
              label={`Page ${view.page} of ${view.pages} · ${plural(view.filteredOrderCount, "order")}`}
            />
          </InlineStack>
        )}
      </BlockStack>
    </Page>
  );
}
