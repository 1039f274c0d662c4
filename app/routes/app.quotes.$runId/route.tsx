import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useFetcher, useLoaderData, useSearchParams } from "@remix-run/react";
import { Banner, BlockStack, Box, Card, InlineStack, Page, Pagination, ProgressBar, Text } from "@shopify/polaris";
import { useCallback, useState } from "react";
import { useRevalidateWhile, useSuccessToast } from "../../components/page-hooks";
import { listPageOf } from "../../list-page.server";
import { useListLoading, usePageTurn } from "../../components/list-pages";
import { plural } from "../../plural";
import { readPostedForm } from "../../posted-form.server";
import { describeIssues, inMerchantWords } from "../../field-errors";
import { QuotingInputError } from "../../quoting/errors";
import { RatesFilter, isFiltered } from "../../quoting/rates-filter";
import { loadQuoteRunView } from "../../quoting/run-view.server";
import { adminContext } from "../../request-context.server";
import { requireAccount } from "../../settings/require-account.server";
import { ActionInput, applyTheRule, customs, repack, requote, requoteRun, select, type ActionResult } from "./run.server";
import { QuoteOrder } from "./components/quote-order";
import { RatesBar, type Pick } from "./components/rates-bar";
import { RunSummary } from "./components/run-summary";
import { PageTitleBar, pageMeta, type PageHandle } from "../../components/page-title";

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

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { ctx } = await adminContext(request);
  const runId = params.runId ?? "";
  const form = await readPostedForm(request);
  if (form.get("intent") === "customs") {
    await requireAccount(ctx, request);
    return customs(ctx, runId, form);
  }
  if (form.get("intent") === "repack") {
    await requireAccount(ctx, request);
    return repack(ctx, form);
  }
  const input = ActionInput.safeParse({ ...Object.fromEntries(form), shipmentIds: form.getAll("shipmentIds") }, { error: inMerchantWords });
  if (!input.success) {
    return json<ActionResult>({ ok: false, ...describeIssues(input.error.issues) }, { status: 400 });
  }
  try {
    switch (input.data.intent) {
      case "select":
        return await select(ctx, input.data.shipmentId, input.data.quoteId);
      case "apply-rule":
        return await applyTheRule(ctx, runId, input.data.overrideManual === "on");
      case "requote":
        await requireAccount(ctx, request);
        return await requote(ctx, input.data.shipmentIds);
      case "requote-run":
        await requireAccount(ctx, request);
        return await requoteRun(ctx, runId, input.data.which);
    }
  } catch (error) {
    if (error instanceof QuotingInputError) return json<ActionResult>(error.refusal(), { status: error.status });
    throw error;
  }
};

/** While the run quotes, the page reloads its data every second. */
const POLL_MS = 1000;

export const handle: PageHandle<typeof loader> = { title: "Rates" };
export const meta = pageMeta;

const NONE_UNFOLDED: ReadonlySet<string> = new Set();

export default function QuoteRunPage() {
  const view = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const bulk = useFetcher<typeof action>();
  const [searchParams] = useSearchParams();
  // The ready shipments the merchant left out of the batch, with their picked rate (taken off the grand total).
  const [excluded, setExcluded] = useState<ReadonlyMap<string, Pick>>(new Map());
  // Orders whose every rate is unfolded, in the list on screen: another page or filter starts folded, so the
  // orders it shows do not read their rates again unasked.
  const list = searchParams.toString();
  const [unfolded, setUnfolded] = useState<{ list: string; orders: ReadonlySet<string> }>({ list, orders: new Set() });
  const expanded = unfolded.list === list ? unfolded.orders : NONE_UNFOLDED;
  const { run, filter } = view;
  const outcome = bulk.data ?? result;

  useRevalidateWhile(run.status === "RUNNING", POLL_MS);
  useSuccessToast(outcome);

  // Both the same function on every render, so the orders (memo) render again only when their own props change.
  const include = useCallback(
    (id: string, pick: Pick | undefined, included: boolean) =>
      setExcluded((current) => {
        const next = new Map(current);
        if (included) next.delete(id);
        else if (pick) next.set(id, { currency: pick.currency, totalAmount: pick.totalAmount });
        return next;
      }),
    [],
  );
  const toggle = useCallback(
    (orderId: string) =>
      setUnfolded((current) => {
        const next = new Set(current.list === list ? current.orders : NONE_UNFOLDED);
        if (next.has(orderId)) next.delete(orderId);
        else next.add(orderId);
        return { list, orders: next };
      }),
    [list],
  );
  const setPage = usePageTurn();
  const listLoading = useListLoading();
  const percent = run.shipmentsTotal === 0 ? 100 : Math.round((run.shipmentsDone / run.shipmentsTotal) * 100);

  return (
    <Page>
      <PageTitleBar />
      <BlockStack gap="400">
        <Text as="p" tone="subdued">
          {plural(run.orderCount, "order")} selected · rates picked by{" "}
          {view.shippingRules > 0 && (
            <>
              your {plural(view.shippingRules, "shipping rule")} (<Link to="/app/rules">edit</Link>), then{" "}
            </>
          )}
          your rule: <span data-testid="rule-words">{view.rule}</span> (<Link to="/app/settings">change</Link>)
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
        {outcome?.ok && "warning" in outcome && outcome.warning && (
          <Banner tone="warning" title="Saved for the order, not on the product">
            <p data-testid="action-warning">{outcome.warning}</p>
          </Banner>
        )}

        <RunSummary view={view} bulk={bulk} />
        <RatesBar view={view} excluded={excluded} />

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
          {view.orders.map((order) => (
            <QuoteOrder
              key={order.orderId}
              order={order}
              view={view}
              open={expanded.has(order.orderId)}
              onToggle={toggle}
              excluded={excluded}
              onIncludedChange={include}
            />
          ))}
        </Card>

        {view.pages > 1 && (
          <InlineStack align="center">
            <Pagination
              hasPrevious={!listLoading && view.page > 1}
              hasNext={!listLoading && view.page < view.pages}
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
