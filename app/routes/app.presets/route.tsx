import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";
import { useSuccessToast } from "../../components/page-hooks";
import { PageTitleBar, pageMeta, type PageHandle } from "../../components/page-title";
import { readPostedJsonAs } from "../../posted-form.server";
import { requestContext } from "../../request-context.server";
import { loadPresetsPage, PresetTarget, savePresetForm, setPresetBoxes, type PresetRow } from "../../automation/presets-page.server";
import { PresetEditor } from "./components/preset-editor";
import { PresetsTable } from "./components/presets-table";

/**
 * Product presets (issue 25 §2): the shop's products with search, a page at a time, each product's and variant's
 * box and customs defaults; one edited at a time, or a box set on the selected ones. Posts JSON: { intent, ... }.
 */

const Query = z.object({ q: z.string().max(200).default(""), after: z.string().max(500).nullable().default(null) });

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await requestContext(request);
  const params = new URL(request.url).searchParams;
  const query = Query.safeParse({ q: params.get("q") ?? undefined, after: params.get("after") });
  const { q, after } = query.success ? query.data : { q: "", after: null };
  return loadPresetsPage(ctx, { search: q, after });
};

const Posted = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("save"), target: PresetTarget, values: z.unknown() }),
  z.object({ intent: z.literal("box"), targets: z.array(PresetTarget).min(1).max(500), boxName: z.string().min(1).max(255).nullable() }),
]);

export const action = async ({ request }: ActionFunctionArgs) => {
  const { ctx } = await requestContext(request);
  const posted = await readPostedJsonAs(request, Posted);
  if (!posted.ok) {
    const message =
      posted.field === "targets" ? "Select at least one product first." : "The presets page sent something it could not read. Reload the page and try again.";
    return json({ ok: false as const, message, fieldErrors: { [posted.field]: message } }, { status: 400 });
  }
  const input = posted.data;
  const outcome = input.intent === "save" ? await savePresetForm(ctx, input.target, input.values) : await setPresetBoxes(ctx, input.targets, input.boxName);
  return json(outcome, { status: outcome.ok ? 200 : 400 });
};

export const handle: PageHandle<typeof loader> = { title: "Product presets" };
export const meta = pageMeta;

export default function ProductPresets() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [search, setSearch] = useState(page.search);
  const [editing, setEditing] = useState<PresetRow | null>(null);
  const busy = navigation.state !== "idle";
  const post = (body: Record<string, unknown>) => submit(JSON.stringify(body), { method: "post", encType: "application/json" });
  useSuccessToast(result);
  const [handled, setHandled] = useState<unknown>(null);
  if (result !== handled) {
    setHandled(result);
    if (result?.ok) setEditing(null);
  }
  const target = (row: Pick<PresetRow, "targetId" | "title">) => ({ targetId: row.targetId, title: row.title });

  return (
    <Page backAction={{ content: "Settings", url: "/app/settings" }}>
      <PageTitleBar />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <Card>
              <Text as="p">
                A product&rsquo;s box is used instead of the default box ({page.defaultBox}); an order of products with different boxes ships in the largest of
                them, and its rates say so. HS code, country of origin and description are used on customs forms when Shopify has none. A variant&rsquo;s preset
                is used over its product&rsquo;s. <Link to="/app/rules">Shipping rules</Link> that set a box come first.
              </Text>
            </Card>
            {page.problem && (
              <Banner tone="warning" title="Products not read">
                <p>{page.problem}</p>
              </Banner>
            )}
            {result && !result.ok && !editing && (
              <Banner tone="critical" title="Nothing was saved">
                <p>{result.message}</p>
              </Banner>
            )}
            {editing && (
              <PresetEditor
                key={editing.targetId}
                row={editing}
                boxes={page.boxes}
                result={result}
                busy={busy}
                onSave={(values) => post({ intent: "save", target: target(editing), values })}
                onCancel={() => setEditing(null)}
              />
            )}
            <Card>
              <Form method="get">
                <InlineStack gap="200" blockAlign="end">
                  <div style={{ flexGrow: 1 }}>
                    <TextField label="Search products" name="q" value={search} onChange={setSearch} autoComplete="off" placeholder="Title or SKU" />
                  </div>
                  <Button submit>Search</Button>
                </InlineStack>
              </Form>
            </Card>
            <PresetsTable
              page={page}
              busy={busy}
              onEdit={setEditing}
              onSetBox={(rows, boxName) => post({ intent: "box", targets: rows.map(target), boxName })}
            />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
