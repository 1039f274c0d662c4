import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useFetcher, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Page, Text } from "@shopify/polaris";
import { useState } from "react";
import { BatchNotFoundError, batchCandidates } from "../../batches/batch-store.server";
import { openBatch } from "../../booking/batches.server";
import { BatchStatusBadge } from "../../batches/components/batch-status";
import { prepaySentence } from "../../settings/prepay";
import { useRevalidateWhile, useSuccessToast } from "../../components/page-hooks";
import { SummaryLayout } from "../../components/summary-layout";
import { listPageOf } from "../../list-page.server";
import { readPostedForm } from "../../posted-form.server";
import { describeIssues, inMerchantWords } from "../../field-errors";
import { paidShippingByOrder } from "../../quoting/customer-choice.server";
import { loadServiceNames } from "../../quoting/service-names.server";
import { requestContext } from "../../request-context.server";
import { ActionInput, add, bookBatch, cancel, rebatch, remove, removeLine, repair, type BatchActionResult } from "./batch.server";
import { AddOrders } from "./components/add-orders";
import { BatchLines } from "./components/batch-lines";
import { LabelButtons } from "./components/label-buttons";
import { BatchNotices, PrepayAside } from "./components/batch-notices";
import { OrphanRates } from "./components/orphan-rates";
import { PageTitleBar, pageMeta, type PageHandle } from "../../components/page-title";

export type { BatchActionResult };

/**
 * One batch: its orders with their rates and booking results, and what can be done in its state — book,
 * re-quote expired rates, add and remove orders, cancel, delete; once booked, download or print the labels
 * and re-quote failed orders into a new batch. While it books, the page polls.
 */

/** Orders offered to add at a time; once added, the next ones are offered. */
const CANDIDATES_SHOWN = 25;

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { ctx } = await requestContext(request);
  const page = listPageOf(new URL(request.url).searchParams);
  try {
    const view = await openBatch(ctx, params.id ?? "", { page });
    const candidates = view.batch.status === "OPEN" ? await batchCandidates(ctx, { limit: CANDIDATES_SHOWN }) : [];
    const [names, paid] = await Promise.all([
      loadServiceNames(ctx),
      paidShippingByOrder(
        ctx,
        view.lines.map((line) => line.orderId),
      ),
    ]);
    return { view, candidates, names, paid: Object.fromEntries(paid) };
  } catch (error) {
    if (error instanceof BatchNotFoundError) throw new Response(error.message, { status: 404 });
    throw error;
  }
};

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { ctx, redirect } = await requestContext(request);
  const batchId = params.id ?? "";
  const form = await readPostedForm(request);
  const input = ActionInput.safeParse({ ...Object.fromEntries(form), shipmentIds: form.getAll("shipmentIds") }, { error: inMerchantWords });
  if (!input.success) {
    return json<BatchActionResult>({ ok: false, message: describeIssues(input.error.issues).message }, { status: 400 });
  }
  try {
    switch (input.data.intent) {
      case "book":
        return await bookBatch(ctx, batchId);
      case "repair":
        return await repair(ctx, batchId);
      case "cancel":
        return await cancel(ctx, batchId);
      case "delete":
        return await remove(ctx, batchId, redirect);
      case "rebatch":
        return await rebatch(ctx, batchId, redirect);
      case "remove":
        return await removeLine(ctx, batchId, { shipmentId: input.data.shipmentId });
      case "remove-rate":
        return await removeLine(ctx, batchId, { quoteId: input.data.quoteId });
      case "add":
        return await add(ctx, batchId, input.data.shipmentIds);
    }
  } catch (error) {
    if (error instanceof BatchNotFoundError) throw new Response(error.message, { status: 404 });
    throw error;
  }
};

/** While the batch books, the page reloads its data this often. */
const POLL_MS = 1000;

export const handle: PageHandle<typeof loader> = { title: (data) => data.view.batch.name };
export const meta = pageMeta;

export default function BatchPage() {
  const { view, candidates, names, paid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const fetcher = useFetcher<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const outcome = fetcher.data ?? result;
  const { batch } = view;
  // A change is being posted (turning the list's page is not one: its lines and buttons stay as they are).
  const busy = navigation.formData !== undefined || fetcher.state !== "idle";
  const pendingIntent = (navigation.formData ?? fetcher.formData)?.get("intent");

  useRevalidateWhile(batch.status === "BOOKING" || batch.status === "CREATING", POLL_MS);
  useSuccessToast(outcome);

  const post = (intent: string, fields: Record<string, string> = {}) => submit({ intent, ...fields }, { method: "post" });
  const booked = batch.status === "COMPLETED" || batch.status === "FAILED";
  const labels = `${view.counts.orders} ${view.counts.orders === 1 ? "label" : "labels"}`;
  // No money is spent without a checkpoint: "Book" first shows what it costs and what it does to the balance.
  const [confirming, setConfirming] = useState(false);

  return (
    <Page backAction={{ content: "Batches", url: "/app/batches" }} title={batch.name} titleMetadata={<BatchStatusBadge status={batch.status} />}>
      <PageTitleBar />
      <BlockStack gap="400">
        {outcome && !outcome.ok && (
          <Banner tone="critical" title="That did not work">
            <BlockStack gap="100">
              <p data-testid="batch-action-error">{outcome.message}</p>
              {outcome.details?.map((detail) => (
                <p key={detail}>{detail}</p>
              ))}
            </BlockStack>
          </Banner>
        )}
        {outcome?.ok && outcome.details && outcome.details.length > 0 && (
          <Banner tone="warning" title={outcome.message}>
            {outcome.details.map((detail) => (
              <p key={detail}>{detail}</p>
            ))}
          </Banner>
        )}
        <BatchNotices view={view} />

        {batch.status === "OPEN" && confirming && view.prepay && (
          <Banner
            tone={view.prepay.kind === "projected" && view.prepay.uncovered > 0 ? "warning" : "info"}
            title="Check before you book"
            action={{
              content: `Confirm: book ${labels}`,
              onAction: () => post("book"),
              loading: pendingIntent === "book",
              disabled: busy || view.blockers.length > 0,
            }}
            secondaryAction={{ content: "Not now", onAction: () => setConfirming(false) }}
          >
            <p data-testid="book-checkpoint">{prepaySentence(view.prepay, view.counts.orders)}</p>
          </Banner>
        )}

        <SummaryLayout
          counts={
            <>
              <Badge>{`${view.counts.orders} orders`}</Badge>
              {view.counts.booked > 0 && <Badge tone="success">{`${view.counts.booked} booked`}</Badge>}
              {view.counts.failed > 0 && <Badge tone="critical">{`${view.counts.failed} failed`}</Badge>}
              {view.remote && <Text as="span" tone="subdued">{`Shipping API: ${view.remote.status}, ${view.remote.quoteCount} rates`}</Text>}
            </>
          }
          actions={
            <>
              {batch.status === "OPEN" && !confirming && (
                <Button variant="primary" disabled={view.blockers.length > 0 || busy} onClick={() => setConfirming(true)}>
                  {`Book ${labels}`}
                </Button>
              )}
              {batch.status === "OPEN" && view.repairable > 0 && (
                <Button disabled={busy} loading={pendingIntent === "repair"} onClick={() => post("repair")}>
                  Re-quote expired rates
                </Button>
              )}
              {booked && <LabelButtons batchId={batch.id} />}
              {booked && view.counts.failed > 0 && (
                <Button disabled={busy} loading={pendingIntent === "rebatch"} onClick={() => post("rebatch")}>
                  Re-quote failed orders
                </Button>
              )}
              {batch.status === "OPEN" && (
                <Button tone="critical" variant="plain" disabled={busy} onClick={() => post("cancel")}>
                  Cancel batch
                </Button>
              )}
              {batch.status !== "BOOKING" && batch.status !== "CREATING" && (
                <Button tone="critical" variant="plain" disabled={busy} onClick={() => confirm(`Delete “${batch.name}”?`) && post("delete")}>
                  Delete batch
                </Button>
              )}
            </>
          }
          aside={<PrepayAside batch={batch} prepay={view.prepay} booked={booked} />}
        />

        <BatchLines view={view} open={batch.status === "OPEN"} names={names} paid={paid} busy={busy} Form={fetcher.Form} />
        <OrphanRates orphans={view.orphans} names={names} busy={busy} Form={fetcher.Form} />

        {batch.status === "OPEN" && <AddOrders candidates={candidates} busy={busy} names={names} />}
      </BlockStack>
    </Page>
  );
}
