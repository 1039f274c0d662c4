import { useState } from "react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, EmptyState, IndexTable, InlineStack, Page, Tabs, Text, useIndexResourceState } from "@shopify/polaris";
import { describeIssues, inMerchantWords } from "../../field-errors";
import { useListPages, useTabTurn } from "../../components/list-pages";
import { useRevalidateWhile, useSuccessToast } from "../../components/page-hooks";
import { PageTitleBar, pageMeta, type PageHandle } from "../../components/page-title";
import { listPageOf } from "../../list-page.server";
import { readPostedForm } from "../../posted-form.server";
import { loadServiceNames } from "../../quoting/service-names.server";
import { adminContext } from "../../request-context.server";
import { ReturnsFilter, viewReturns } from "../../returns/returns-page.server";
import { ActionInput, act, type ReturnsActionResult } from "./returns.server";
import { ReturnRow } from "./components/return-row";
import { SplitBoxes } from "./components/split-boxes";

/**
 * Returns (docs/decisions/041): the shop's returns with what is left to do for each, filtered and paged on the
 * server; approve or decline a requested one, get return labels for a selection (one box each) or split one
 * return into boxes (a label each), book them past the spend
 * checkpoint, and see them sent, on their way and arrived.
 */

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await adminContext(request);
  const params = new URL(request.url).searchParams;
  const view = await viewReturns(ctx, { filter: ReturnsFilter.parse(params.get("status") ?? "all"), page: listPageOf(params) });
  const labelled = view.rows.some((row) => row.labels.length > 0);
  return { ...view, names: labelled ? await loadServiceNames(ctx) : { carriers: {}, services: {} } };
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { ctx } = await adminContext(request);
  const form = await readPostedForm(request);
  const input = ActionInput.safeParse(
    { ...Object.fromEntries(form), returnIds: form.getAll("returnIds"), shipmentIds: form.getAll("shipmentIds") },
    { error: inMerchantWords },
  );
  if (!input.success) return json<ReturnsActionResult>({ ok: false, message: describeIssues(input.error.issues).message }, { status: 400 });
  return act(ctx, input.data);
};

const TABS: ReadonlyArray<{ id: ReturnsFilter; label: string }> = [
  { id: "all", label: "All" },
  { id: "to_approve", label: "To approve" },
  { id: "needs_label", label: "Need a label" },
  { id: "on_the_way", label: "On the way" },
  { id: "arrived", label: "Arrived" },
  { id: "done", label: "Closed" },
];

const EMPTY: Record<ReturnsFilter, string> = {
  all: "When a customer asks to return items in Shopify, or you create a return there, it shows here. If you expect one, choose “Check Shopify for returns”.",
  to_approve: "No return is waiting for your approval.",
  needs_label: "Every approved return has its label.",
  on_the_way: "No return parcel is on its way.",
  arrived: "No return parcel has arrived yet.",
  done: "No return is closed, declined or cancelled yet.",
};

export const handle: PageHandle<typeof loader> = { title: "Returns" };
export const meta = pageMeta;

export default function Returns() {
  const page = useLoaderData<typeof loader>();
  const fetcher = useFetcher<typeof action>();
  const busy = fetcher.state !== "idle";
  const outcome = fetcher.data;
  useSuccessToast(outcome);
  useRevalidateWhile(page.running || page.rows.some((row) => row.step === "booking" || row.step === "attaching"), 2000);
  const pages = useListPages(page);
  const turnTab = useTabTurn("status");
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(page.rows);
  // The return being split, and the action's answer when its form was opened: a split quoted since closes it; one
  // refused keeps it open, each problem next to its field.
  const [splitting, setSplitting] = useState<{ returnId: string; opened: typeof outcome } | null>(null);
  const quotedSince = outcome !== splitting?.opened && outcome?.ok && outcome.returnId === splitting?.returnId;
  const splitEntry = quotedSince ? undefined : page.rows.find((row) => row.id === splitting?.returnId);
  const submit = (data: Record<string, string | string[]>) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(data)) for (const item of [value].flat()) form.append(key, item);
    fetcher.submit(form, { method: "post" });
  };
  const selected = Math.max(
    0,
    TABS.findIndex((tab) => tab.id === page.filter),
  );
  return (
    <Page fullWidth>
      <PageTitleBar />
      <BlockStack gap="400">
        {outcome && !outcome.ok && (
          <Banner tone="critical">
            <p data-testid="returns-problem">{outcome.message}</p>
            {outcome.details?.map((detail) => (
              <p key={detail}>{detail}</p>
            ))}
          </Banner>
        )}
        {outcome?.ok && outcome.details && outcome.details.length > 0 && (
          <Banner tone="warning">
            {outcome.details.map((detail) => (
              <p key={detail}>{detail}</p>
            ))}
          </Banner>
        )}
        {page.checkpoint && (
          <Card>
            <InlineStack align="space-between" blockAlign="center" gap="300">
              <Text as="p">
                <span data-testid="returns-checkpoint">{page.checkpoint.sentence}</span>
              </Text>
              <Button variant="primary" loading={busy} onClick={() => submit({ intent: "book", shipmentIds: page.checkpoint!.shipmentIds })}>
                {`Book ${page.checkpoint.shipmentIds.length} return ${page.checkpoint.shipmentIds.length === 1 ? "label" : "labels"}`}
              </Button>
            </InlineStack>
          </Card>
        )}
        {splitEntry?.splittable && (
          <SplitBoxes
            key={splitEntry.id}
            entry={{ id: splitEntry.id, name: splitEntry.name, splittable: splitEntry.splittable }}
            busy={busy}
            fieldErrors={outcome !== splitting?.opened && outcome && !outcome.ok && outcome.returnId === splitEntry.id ? (outcome.fieldErrors ?? {}) : {}}
            submit={submit}
            close={() => setSplitting(null)}
          />
        )}
        <Card padding="0">
          <Tabs
            tabs={TABS.map((tab) => ({ id: tab.id, content: `${tab.label} (${page.counts[tab.id]})` }))}
            selected={selected}
            onSelect={(index) => {
              turnTab(TABS[index]!.id);
              clearSelection();
            }}
          >
            <div style={{ padding: "12px 16px" }}>
              <InlineStack align="space-between" blockAlign="center">
                <Text as="p" tone="subdued">
                  {page.running ? "Checking Shopify… this page updates by itself." : "Returns come from Shopify as customers ask for them."}
                </Text>
                <Button loading={busy && fetcher.formData?.get("intent") === "reconcile"} onClick={() => submit({ intent: "reconcile" })}>
                  Check Shopify for returns
                </Button>
              </InlineStack>
            </div>
            {page.rows.length === 0 ? (
              <EmptyState heading="No returns here" image="">
                <p>{EMPTY[page.filter]}</p>
              </EmptyState>
            ) : (
              <IndexTable
                resourceName={{ singular: "return", plural: "returns" }}
                itemCount={page.rows.length}
                selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
                onSelectionChange={handleSelectionChange}
                promotedBulkActions={[{ content: "Get return labels", onAction: () => submit({ intent: "quote", returnIds: selectedResources }) }]}
                headings={[{ title: "Order" }, { title: "Customer" }, { title: "Items and reasons" }, { title: "To do" }, { title: "Label" }]}
                pagination={pages.pagination}
                loading={pages.loading}
              >
                {page.rows.map((row, index) => (
                  <ReturnRow
                    key={row.id}
                    row={row}
                    index={index}
                    selected={selectedResources.includes(row.id)}
                    names={page.names}
                    busy={busy}
                    submit={submit}
                    split={() => setSplitting({ returnId: row.id, opened: outcome })}
                  />
                ))}
              </IndexTable>
            )}
          </Tabs>
        </Card>
      </BlockStack>
    </Page>
  );
}
