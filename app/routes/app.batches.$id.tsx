import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { TrackingNumbers } from "../components/tracking-numbers";
import { Link, useActionData, useFetcher, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { TitleBar } from "@shopify/app-bridge-react";
import { Badge, Banner, BlockStack, Button, Card, IndexTable, InlineStack, Page, ProgressBar, Text, useIndexResourceState } from "@shopify/polaris";
import { DocumentsSelect } from "../documents/documents-select";
import { PRINT_CHOICE_NAMES, type PrintChoice } from "../documents/print-choice";
import { useEffect, useState } from "react";
import { z } from "zod";
import { BatchNotFoundError } from "../batches/batch-store.server";
import { addToBatch, cancelBatch, deleteBatch, openBatch, removeFromBatch, repairBatch, type BatchLine } from "../booking/batches.server";
import { batchCandidates, type BatchCandidate } from "../batches/batch-store.server";
import { rebatchFailed, startBatchBooking } from "../booking/batch-booking.server";
import { BatchStatusBadge, BookingStatusBadge } from "../batches/components/batch-status";
import { CandidateTable } from "../batches/components/candidate-table";
import { openLabelFile } from "../batches/components/label-file";
import { PrepayCheckpoint, prepaySentence } from "../batches/components/prepay-checkpoint";
import { listPagination, usePageTurn } from "../components/list-pages";
import { useRevalidateWhile, useSuccessToast } from "../components/page-hooks";
import { SummaryLayout } from "../components/summary-layout";
import { requestContext } from "../request-context.server";
import { formatMoney } from "../shipping/money";
import { carrierAndService, type ServiceNames } from "../shipping/service-names";
import { compareWithPaid, describePaid, type PaidShipping } from "../quoting/customer-choice";
import { paidShippingByOrder } from "../quoting/customer-choice.server";
import { loadServiceNames } from "../quoting/service-names.server";
import { readPostedForm } from "../posted-form.server";
import type { Outcome } from "../outcome";
import { listPageOf } from "../list-page.server";

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

const ActionInput = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("book") }),
  z.object({ intent: z.literal("repair") }),
  z.object({ intent: z.literal("cancel") }),
  z.object({ intent: z.literal("delete") }),
  z.object({ intent: z.literal("rebatch") }),
  z.object({ intent: z.literal("remove"), shipmentId: z.string().min(1).max(64) }),
  z.object({ intent: z.literal("remove-rate"), quoteId: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal("add"), shipmentIds: z.array(z.string().min(1).max(64)).min(1, "Choose at least one order to add.").max(500) }),
]);

/** What an action did, or why not; `details`: per order, what it refused or could not do. A booking under way counts as done. */
export type BatchActionResult = Outcome<{ message: string; details?: string[] }, { details?: string[] }>;

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { ctx, redirect } = await requestContext(request);
  const batchId = params.id ?? "";
  const form = await readPostedForm(request);
  const input = ActionInput.safeParse({ ...Object.fromEntries(form), shipmentIds: form.getAll("shipmentIds") });
  if (!input.success) {
    const issue = input.error.issues[0];
    return json<BatchActionResult>({ ok: false, message: `${issue?.path.join(".") || "intent"}: ${issue?.message ?? "invalid"}` }, { status: 400 });
  }
  try {
    switch (input.data.intent) {
      case "book": {
        const outcome = await startBatchBooking(ctx, batchId);
        if (outcome.ok) return json<BatchActionResult>({ ok: true, message: `Booked ${outcome.booked}.` });
        return json<BatchActionResult>({ ok: outcome.reason === "pending", message: outcome.message });
      }
      case "repair": {
        const result = await repairBatch(ctx, batchId);
        return json<BatchActionResult>({
          ok: result.ok,
          message: result.message,
          details: result.requoteFailures.map((failure) => `${failure.orderName}: ${failure.error}`),
        });
      }
      case "cancel":
        return json<BatchActionResult>(await cancelBatch(ctx, batchId));
      case "delete": {
        const result = await deleteBatch(ctx, batchId);
        // Thrown, so the action's data type stays the JSON results.
        if (result.ok) throw redirect("/app/batches");
        return json<BatchActionResult>(result);
      }
      case "rebatch": {
        const result = await rebatchFailed(ctx, batchId);
        const created = result.ok ? result.created : null;
        const first = created?.batches[0];
        if (first && result.requoteFailures.length === 0 && created?.refused.length === 0) throw redirect(`/app/batches/${first.id}`);
        return json<BatchActionResult>({
          ok: first !== undefined,
          message: result.message,
          details: [
            ...result.requoteFailures.map((failure) => `${failure.orderName}: ${failure.error}`),
            ...(created?.refused.map((refusal) => `${refusal.orderName}: ${refusal.reason}`) ?? []),
            ...(created?.errors ?? []),
          ],
        });
      }
      case "remove":
        return json<BatchActionResult>(await removeFromBatch(ctx, batchId, { shipmentId: input.data.shipmentId }));
      case "remove-rate":
        return json<BatchActionResult>(await removeFromBatch(ctx, batchId, { quoteId: input.data.quoteId }));
      case "add": {
        const result = await addToBatch(ctx, batchId, input.data.shipmentIds);
        return json<BatchActionResult>({
          ok: result.ok,
          message: result.message,
          details: result.refused.map((refusal) => `${refusal.orderName}: ${refusal.reason}`),
        });
      }
    }
  } catch (error) {
    if (error instanceof BatchNotFoundError) throw new Response(error.message, { status: 404 });
    throw error;
  }
};

/** While the batch books, the page reloads its data this often. */
const POLL_MS = 1000;

const RATE_LABEL: Record<BatchLine["rate"], { tone: "success" | "warning" | "attention" | undefined; label: string }> = {
  "in-batch": { tone: "success", label: "In batch" },
  expired: { tone: "warning", label: "Expired" },
  "not-in-batch": { tone: "attention", label: "Not in batch yet" },
  unknown: { tone: undefined, label: "—" },
};

/** A line's service by name, with the shipping the customer paid for and a flag when the pick falls short of it. */
function LineService({ line, names, paid }: { line: BatchLine; names: ServiceNames; paid: PaidShipping | null }) {
  if (!line.carrierCode || !line.serviceCode) return <Text as="span">—</Text>;
  const service = { carrierCode: line.carrierCode, serviceCode: line.serviceCode, serviceDescription: line.serviceDescription };
  const choice =
    line.totalAmount && line.currency
      ? compareWithPaid(
          { serviceCode: line.serviceCode, serviceDescription: line.serviceDescription ?? "", totalAmount: line.totalAmount, currency: line.currency },
          paid,
        )
      : null;
  return (
    <BlockStack gap="050">
      <span data-testid="line-service">{carrierAndService(names, service)}</span>
      {paid && (
        <Text as="span" tone="subdued" variant="bodySm">
          Customer paid for: <span data-testid="paid-shipping">{describePaid(paid)}</span>
        </Text>
      )}
      {choice?.flag && (
        <span data-testid="choice-flag" data-slower={choice.slower}>
          <Text as="span" tone="caution" variant="bodySm">
            {choice.flag}
          </Text>
        </span>
      )}
    </BlockStack>
  );
}

export default function BatchPage() {
  const { view, candidates, names, paid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const fetcher = useFetcher<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const outcome = fetcher.data ?? result;
  const { batch } = view;
  const goToPage = usePageTurn();
  const busy = navigation.state !== "idle" || fetcher.state !== "idle";
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
      <TitleBar title={batch.name} />
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
        {view.remoteError && (
          <Banner tone="critical" title="The Shipping API's view of this batch is not available">
            <p>{view.remoteError}</p>
          </Banner>
        )}
        {batch.error && (
          <Banner tone={batch.status === "FAILED" ? "critical" : "warning"}>
            <p data-testid="batch-error">{batch.error}</p>
          </Banner>
        )}
        {(batch.status === "BOOKING" || batch.status === "CREATING") && (
          <Card>
            <BlockStack gap="200">
              <Text as="p">
                <span data-testid="batch-progress">
                  {batch.status === "BOOKING"
                    ? `Booking ${view.counts.orders} ${view.counts.orders === 1 ? "order" : "orders"}…`
                    : "Creating the batch on the Shipping API…"}
                </span>
              </Text>
              <ProgressBar progress={batch.status === "BOOKING" ? 60 : 30} tone="primary" />
              <Text as="p" tone="subdued">
                This page updates by itself. You can leave it: the booking carries on and is checked before anything is booked again.
              </Text>
            </BlockStack>
          </Card>
        )}
        {batch.status === "OPEN" && view.blockers.length > 0 && (
          <Banner tone="warning" title="Not ready to book">
            <BlockStack gap="100">
              {view.blockers.map((blocker) => (
                <p key={blocker} data-testid="batch-blocker">
                  {blocker}
                </p>
              ))}
            </BlockStack>
          </Banner>
        )}

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
          aside={
            <BlockStack gap="100">
              <Text as="h2" variant="headingSm">
                Prepay balance
              </Text>
              {view.prepay ? (
                <PrepayCheckpoint outlook={view.prepay} />
              ) : (
                <Text as="p">
                  <span data-testid="prepay-balance">
                    {batch.prepayBalance
                      ? `${formatMoney(batch.prepayBalance, "USD")} after booking`
                      : booked
                        ? "Not reported for this booking"
                        : batch.status === "BOOKING"
                          ? "Reported when the booking finishes"
                          : "Nothing was booked"}
                  </span>
                </Text>
              )}
              {batch.bookedAt && (
                <Text as="p" tone="subdued">
                  Booked {new Date(batch.bookedAt).toLocaleString()}
                </Text>
              )}
            </BlockStack>
          }
        />

        <Card padding="0">
          <IndexTable
            resourceName={{ singular: "order", plural: "orders" }}
            itemCount={view.lines.length}
            selectable={false}
            pagination={listPagination(view, goToPage, `${view.counts.orders} orders`)}
            headings={[
              { title: "Order" },
              { title: "Service" },
              { title: "Rate" },
              { title: "Status" },
              { title: "Tracking" },
              { title: "Cost" },
              { title: "" },
            ]}
          >
            {view.lines.map((line, index) => (
              <IndexTable.Row id={line.shipmentId} key={line.shipmentId} position={index}>
                <IndexTable.Cell>
                  <span data-testid="batch-line" data-order-name={line.orderName} data-booking-status={line.bookingStatus}>
                    <Link to={`/app/orders/${line.orderNumber}/book`}>{line.orderName}</Link>
                  </span>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <LineService line={line} names={names} paid={paid[line.orderId] ?? null} />
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <InlineStack gap="100">
                    <Text as="span">{line.totalAmount && line.currency ? formatMoney(line.totalAmount, line.currency) : "—"}</Text>
                    {batch.status === "OPEN" && <Badge tone={RATE_LABEL[line.rate].tone}>{RATE_LABEL[line.rate].label}</Badge>}
                  </InlineStack>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <BlockStack gap="100">
                    <InlineStack gap="100">
                      <BookingStatusBadge status={line.bookingStatus} />
                      {line.fulfillmentStatus === "FULFILLED" && <Badge tone="success">Fulfilled</Badge>}
                    </InlineStack>
                    {line.bookingError && (
                      <Text as="p" tone="critical">
                        <span data-testid="line-error">{line.bookingError}</span>
                      </Text>
                    )}
                  </BlockStack>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <TrackingNumbers numbers={line.trackingNumbers} testId="line-tracking" />
                </IndexTable.Cell>
                <IndexTable.Cell>{line.shippingCost && line.currency ? formatMoney(line.shippingCost, line.currency) : ""}</IndexTable.Cell>
                <IndexTable.Cell>
                  {batch.status === "OPEN" && (
                    <fetcher.Form method="post">
                      <input type="hidden" name="intent" value="remove" />
                      <input type="hidden" name="shipmentId" value={line.shipmentId} />
                      <Button submit variant="plain" disabled={busy} accessibilityLabel={`Remove ${line.orderName}`}>
                        Remove
                      </Button>
                    </fetcher.Form>
                  )}
                </IndexTable.Cell>
              </IndexTable.Row>
            ))}
          </IndexTable>
        </Card>

        {view.orphans.length > 0 && (
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingSm">
                Rates Consign cannot tie to an order
              </Text>
              {view.orphans.map((orphan) => (
                <InlineStack key={orphan.quoteId} gap="200" blockAlign="center">
                  <Text as="span">{`Rate ${orphan.quoteId}: ${carrierAndService(names, orphan)}, ${formatMoney(orphan.totalAmount, orphan.currency)}${orphan.expired ? " (expired)" : ""}`}</Text>
                  <fetcher.Form method="post">
                    <input type="hidden" name="intent" value="remove-rate" />
                    <input type="hidden" name="quoteId" value={String(orphan.quoteId)} />
                    <Button submit variant="plain" disabled={busy}>
                      Remove
                    </Button>
                  </fetcher.Form>
                </InlineStack>
              ))}
            </BlockStack>
          </Card>
        )}

        {batch.status === "OPEN" && <AddOrders candidates={candidates} busy={busy} />}
      </BlockStack>
    </Page>
  );
}

function AddOrders({ candidates, busy }: { candidates: BatchCandidate[]; busy: boolean }) {
  const fetcher = useFetcher<typeof action>();
  const rows = candidates.map((candidate) => ({ ...candidate, id: candidate.shipmentId }));
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(rows);
  const chosen = allResourcesSelected ? rows.map((row) => row.id) : selectedResources;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) clearSelection();
  }, [fetcher.state, fetcher.data, clearSelection]);
  if (rows.length === 0) return null;
  return (
    <Card padding="0">
      <BlockStack gap="0">
        <div style={{ padding: "12px 16px" }}>
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingSm">
              Add orders with picked rates
            </Text>
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="add" />
              {chosen.map((id) => (
                <input key={id} type="hidden" name="shipmentIds" value={id} />
              ))}
              <Button submit disabled={chosen.length === 0 || busy} loading={fetcher.state !== "idle"}>
                {`Add ${chosen.length} to batch`}
              </Button>
            </fetcher.Form>
          </InlineStack>
          {fetcher.data && !fetcher.data.ok && (
            <Text as="p" tone="critical">
              {fetcher.data.message}
            </Text>
          )}
        </div>
        <CandidateTable rows={candidates} selected={selectedResources} allSelected={allResourcesSelected} onSelectionChange={handleSelectionChange} />
      </BlockStack>
    </Card>
  );
}

/** Download and print the batch's print job (labels, labels with packing slips, slips, or the pick list) as one PDF. */
function LabelButtons({ batchId }: { batchId: string }) {
  const [state, setState] = useState<{ loading: "download" | "print" | null; error: string | null }>({ loading: null, error: null });
  const [documents, setDocuments] = useState<PrintChoice>("labels");
  const fetchPdf = async (mode: "download" | "print") => {
    setState({ loading: mode, error: null });
    try {
      setState({ loading: null, error: await openLabelFile(`/app/batches/${batchId}/labels?documents=${documents}`, mode) });
    } catch {
      setState({ loading: null, error: "The documents could not be fetched. Check your connection and try again." });
    }
  };
  return (
    <>
      <DocumentsSelect value={documents} onChange={setDocuments} names={PRINT_CHOICE_NAMES} />
      <Button variant="primary" loading={state.loading === "download"} onClick={() => void fetchPdf("download")}>
        {`Download ${PRINT_CHOICE_NAMES[documents]}`}
      </Button>
      <Button loading={state.loading === "print"} onClick={() => void fetchPdf("print")}>
        {`Print ${PRINT_CHOICE_NAMES[documents]}`}
      </Button>
      {state.error && (
        <Text as="p" tone="critical">
          <span data-testid="labels-error">{state.error}</span>
        </Text>
      )}
    </>
  );
}
