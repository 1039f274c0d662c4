import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { describeIssues } from "../field-errors";
import { useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, EmptyState, IndexTable, InlineStack, Page, ProgressBar, Text } from "@shopify/polaris";
import { z } from "zod";
import { useRevalidateWhile } from "../components/page-hooks";
import { retryWriteBack } from "../fulfillment/write-back.server";
import { viewWriteBack, type WriteBackItem } from "../fulfillment/write-back-progress.server";
import { readPostedForm } from "../posted-form.server";
import { adminContext } from "../request-context.server";
import { PageTitleBar, pageMeta, type PageHandle } from "../components/page-title";

/** Fulfillments: tracking numbers being written back to Shopify, what happened to each order, and Retry. */

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await adminContext(request);
  return viewWriteBack(ctx);
};

const RetryForm = z.object({
  intent: z.literal("retry", { message: "must be retry" }),
  /** One shipment; absent: every failed one. */
  shipmentId: z.string().min(1, "must not be empty").max(64, "is too long").optional(),
});

export const action = async ({ request }: ActionFunctionArgs) => {
  const { ctx } = await adminContext(request);
  const form = RetryForm.safeParse(Object.fromEntries(await readPostedForm(request)));
  if (!form.success) return json({ error: describeIssues(form.error.issues).message }, { status: 400 });
  return json(await retryWriteBack(ctx, form.data.shipmentId ? [form.data.shipmentId] : "all-failed"));
};

const STATUS_BADGE: Record<WriteBackItem["status"], { tone: "success" | "critical" | "info" | "attention"; label: string }> = {
  FULFILLED: { tone: "success", label: "Fulfilled" },
  FAILED: { tone: "critical", label: "Needs attention" },
  CREATING: { tone: "attention", label: "Writing" },
  PENDING: { tone: "info", label: "Waiting" },
};

export const handle: PageHandle<typeof loader> = { title: "Fulfillments" };
export const meta = pageMeta;

export default function Fulfillments() {
  const progress = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const working = progress.remaining > 0;

  // Poll while shipments are still being written back.
  useRevalidateWhile(working, 1500);

  const done = progress.fulfilled + progress.failed;
  const percent = progress.total === 0 ? 100 : Math.round((done / progress.total) * 100);
  const retry = (shipmentId?: string) => submit({ intent: "retry", ...(shipmentId ? { shipmentId } : {}) }, { method: "post" });
  const retrying = navigation.state !== "idle" && navigation.formMethod === "POST";

  return (
    <Page>
      <PageTitleBar />
      <BlockStack gap="400">
        {progress.total === 0 ? (
          <Card>
            <EmptyState heading="No fulfillments to write back" action={{ content: "Go to batches", url: "/app/batches" }} image="">
              <p>When you book labels, Consign writes each tracking number to Shopify as a fulfillment. Their progress shows here.</p>
            </EmptyState>
          </Card>
        ) : (
          <Card>
            <BlockStack gap="300">
              <InlineStack align="space-between" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  <span data-testid="write-back-summary">
                    {progress.fulfilled} of {progress.total} written to Shopify
                  </span>
                </Text>
                <Text as="span" tone="subdued">
                  {working ? `${progress.remaining} to go` : "Done"}
                  {progress.failed > 0 ? ` · ${progress.failed} ${progress.failed === 1 ? "needs" : "need"} attention` : ""}
                </Text>
              </InlineStack>
              <ProgressBar
                progress={percent}
                tone={progress.failed > 0 && !working ? "critical" : working ? "highlight" : "success"}
                size="small"
                animated={working}
              />
              <Text as="p" tone="subdued">
                Each booked label becomes one fulfillment in Shopify with its tracking number. Consign checks Shopify first, so a fulfillment is never created
                twice, even after a retry or a restart.
              </Text>
            </BlockStack>
          </Card>
        )}
        {progress.failed > 0 && (
          <Banner
            tone="critical"
            title={`${progress.failed} ${progress.failed === 1 ? "order was" : "orders were"} not fulfilled`}
            action={{ content: "Retry all", onAction: () => retry(), loading: retrying }}
          >
            <p>Each one says what happened in Shopify and what to do. Fix it in Shopify, then choose Retry.</p>
          </Banner>
        )}
        {progress.items.length > 0 && (
          <Card padding="0">
            <IndexTable
              resourceName={{ singular: "shipment", plural: "shipments" }}
              itemCount={progress.items.length}
              selectable={false}
              headings={[{ title: "Order" }, { title: "Tracking" }, { title: "Status" }, { title: "What happened" }, { title: "" }]}
            >
              {progress.items.map((item, index) => (
                <IndexTable.Row id={item.shipmentId} key={item.shipmentId} position={index}>
                  <IndexTable.Cell>
                    <Text as="span" fontWeight="semibold">
                      {item.orderName}
                    </Text>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{item.trackingNumber ?? "—"}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Badge tone={STATUS_BADGE[item.status].tone}>{STATUS_BADGE[item.status].label}</Badge>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <div style={{ whiteSpace: "normal", maxWidth: 520 }} data-testid={`message-${item.shipmentId}`}>
                      <Text as="span">{item.message}</Text>
                    </div>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    {item.status === "FAILED" && (
                      <Button size="slim" onClick={() => retry(item.shipmentId)} disabled={retrying}>
                        Retry
                      </Button>
                    )}
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          </Card>
        )}
      </BlockStack>
    </Page>
  );
}
