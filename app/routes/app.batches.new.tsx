import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, EmptyState, InlineStack, Page, Text, TextField, useIndexResourceState } from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";
import { BatchName } from "../batches/batch-plan";
import { batchCandidates, type BatchCandidate } from "../batches/batch-store.server";
import { CandidateTable } from "../batches/components/candidate-table";
import { startBatchCreation, type CreateBatchesResult } from "../booking/creation.server";
import { formatDate } from "../locale/shop-time";
import { loadServiceNames } from "../quoting/service-names.server";
import { requestContext } from "../request-context.server";
import { runShipmentIds } from "../quoting/run-view.server";
import { loadShopTimeZone } from "../settings/shop-time-zone.server";
import { readPostedForm } from "../posted-form.server";
import { describeIssues, inMerchantWords, type FieldNamer } from "../field-errors";
import type { FieldErrors, Outcome } from "../outcome";
import { PageTitleBar, pageMeta, type PageHandle } from "../components/page-title";

/**
 * New batch: the merchant names it and picks the orders (picked rates not in a batch yet). The rates page
 * posts its ready shipments here without a name: they come back preselected for the merchant to name.
 * More than 500 orders become several batches "Name (1/3)" ….
 */

const MAX_SELECTED = 5000;

const ShipmentIds = z.array(z.string().min(1).max(64)).max(MAX_SELECTED, `Choose at most ${MAX_SELECTED} orders at once.`);
const NewBatchInput = z.object({
  name: BatchName.optional(),
  shipmentIds: ShipmentIds.min(1, "Choose at least one order."),
});
/** The rates page's Create batch: the run's ready shipments, read here, less those the merchant left out. */
const FromRun = z.object({ runId: z.string().min(1).max(64), excludedShipmentIds: ShipmentIds });
/** The name's and the orders' problems are sentences of their own ("Give the batch a name…"); the run is named. */
const names: FieldNamer = ([field]) => (field === "runId" ? { label: "The rates run" } : {});

/** A refusal of the form: each field's problem, shown on it, and all of them as the message. */
function refused(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>) {
  return json<ActionResult>({ ok: false, ...describeIssues(issues, names) }, { status: 400 });
}

/** "Labels Nov 27, 2026": today in the shop's time zone. */
function suggestedName(now: Date, timeZone: string): string {
  return `Labels ${formatDate(now, timeZone)}`;
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await requestContext(request);
  const [candidates, names, timeZone] = await Promise.all([batchCandidates(ctx), loadServiceNames(ctx), loadShopTimeZone(ctx)]);
  return { candidates, names, suggestedName: suggestedName(ctx.now(), timeZone) };
};

/** The orders posted from the rates page, preselected; the batches created (and what was left out); or the form refused on its field. */
type ActionResult = Outcome<
  { kind: "preselected"; candidates: BatchCandidate[] } | { kind: "created"; result: CreateBatchesResult },
  { fieldErrors: FieldErrors }
>;

export const action = async ({ request }: ActionFunctionArgs) => {
  const { ctx, redirect } = await requestContext(request);
  const form = await readPostedForm(request);
  const name = form.get("name");
  let shipmentIds = [...form.getAll("shipmentIds"), ...form.getAll("shipmentIds[]")].filter((value) => typeof value === "string");
  if (form.has("runId") && shipmentIds.length === 0) {
    const fromRun = FromRun.safeParse({ runId: form.get("runId"), excludedShipmentIds: form.getAll("excludedShipmentIds") }, { error: inMerchantWords });
    if (!fromRun.success) return refused(fromRun.error.issues);
    shipmentIds = await runShipmentIds(ctx, fromRun.data.runId, "ready", fromRun.data.excludedShipmentIds);
  }
  const input = NewBatchInput.safeParse({ name: typeof name === "string" ? name : undefined, shipmentIds }, { error: inMerchantWords });
  if (!input.success) return refused(input.error.issues);
  if (input.data.name === undefined)
    return json<ActionResult>({ ok: true, kind: "preselected", candidates: await batchCandidates(ctx, { shipmentIds: input.data.shipmentIds }) });
  const result = await startBatchCreation(ctx, { name: input.data.name, shipmentIds: input.data.shipmentIds });
  const [first] = result.batches;
  // Thrown, so the action's data type stays the JSON results.
  if (first && result.refused.length === 0 && result.errors.length === 0)
    throw redirect(result.batches.length === 1 ? `/app/batches/${first.id}` : "/app/batches");
  return json<ActionResult>({ ok: true, kind: "created", result });
};

export const handle: PageHandle<typeof loader> = { title: "New batch" };
export const meta = pageMeta;

export default function NewBatch() {
  const { candidates, names, suggestedName: suggested } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const navigation = useNavigation();
  const preselected = outcome?.ok && outcome.kind === "preselected" ? outcome.candidates : null;
  const rows = preselected ?? candidates;
  const [name, setName] = useState(suggested);
  const { selectedResources, allResourcesSelected, handleSelectionChange } = useIndexResourceState(
    rows.map((row) => ({ ...row, id: row.shipmentId })),
    preselected ? { selectedResources: preselected.map((row) => row.shipmentId) } : undefined,
  );
  const chosen = allResourcesSelected ? rows.map((row) => row.shipmentId) : selectedResources;
  const creating = navigation.state !== "idle" && navigation.formMethod === "POST";

  return (
    <Page backAction={{ content: "Batches", url: "/app/batches" }}>
      <PageTitleBar />
      <BlockStack gap="400">
        {outcome && !outcome.ok && (
          <Banner tone="critical" title="The batch was not created">
            <p data-testid="new-batch-error">{outcome.message}</p>
          </Banner>
        )}
        {outcome?.ok && outcome.kind === "created" && <CreatedSummary result={outcome.result} />}
        <Card>
          <Form method="post">
            <BlockStack gap="300">
              <TextField
                label="Batch name"
                name="name"
                value={name}
                onChange={setName}
                autoComplete="off"
                helpText="More than 500 orders are split into several batches: “Name (1/2)”, “Name (2/2)”."
                error={outcome && !outcome.ok ? outcome.fieldErrors.name : undefined}
              />
              {chosen.map((id) => (
                <input key={id} type="hidden" name="shipmentIds" value={id} />
              ))}
              <InlineStack align="end">
                <Button submit variant="primary" disabled={chosen.length === 0} loading={creating}>
                  {`Create batch (${chosen.length} ${chosen.length === 1 ? "order" : "orders"})`}
                </Button>
              </InlineStack>
            </BlockStack>
          </Form>
        </Card>
        <Card padding="0">
          {rows.length === 0 ? (
            <EmptyState heading="No picked rates waiting" image="">
              <p>
                Select orders in <Link to="/app">Orders to ship</Link>, get rates and pick one per order; they appear here ready to batch.
              </p>
            </EmptyState>
          ) : (
            <CandidateTable
              rows={rows}
              selected={selectedResources}
              allSelected={allResourcesSelected}
              onSelectionChange={handleSelectionChange}
              names={names}
            />
          )}
        </Card>
      </BlockStack>
    </Page>
  );
}

function CreatedSummary({ result }: { result: CreateBatchesResult }) {
  return (
    <BlockStack gap="200">
      {result.batches.length > 0 && (
        <Banner tone="success" title={result.batches.length === 1 ? "Batch created" : `${result.batches.length} batches created`}>
          <BlockStack gap="100">
            {result.batches.map((batch) => (
              <Text as="p" key={batch.id}>
                <Link to={`/app/batches/${batch.id}`}>{batch.name}</Link> · {batch.orders} orders
                {batch.status === "CREATING" ? " · being created on the Shipping API (its page follows it)" : ""}
              </Text>
            ))}
          </BlockStack>
        </Banner>
      )}
      {result.errors.length > 0 && (
        <Banner tone="critical" title="Some batches were not created">
          <BlockStack gap="100">
            {result.errors.map((error) => (
              <p key={error}>{error}</p>
            ))}
          </BlockStack>
        </Banner>
      )}
      {result.refused.length > 0 && (
        <Banner tone="warning" title={`${result.refused.length} ${result.refused.length === 1 ? "order was" : "orders were"} left out`}>
          <BlockStack gap="100">
            {result.refused.map((refusal) => (
              <p key={refusal.shipmentId} data-testid="refused-order">
                {refusal.orderName ? `${refusal.orderName}: ` : ""}
                {refusal.reason}
              </p>
            ))}
          </BlockStack>
        </Banner>
      )}
    </BlockStack>
  );
}
