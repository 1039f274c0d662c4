import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Layout, Page, Text } from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";
import { useSuccessToast } from "../../components/page-hooks";
import { PageTitleBar, pageMeta, type PageHandle } from "../../components/page-title";
import { readPostedJsonAs } from "../../posted-form.server";
import { requestContext } from "../../request-context.server";
import { deleteRule, loadRulesPage, moveRule, RuleTestInput, saveRuleForm, testRuleOnOrder } from "../../automation/rules-page.server";
import { EMPTY_RULE_FORM, type RuleFormValues } from "../../automation/rule-form";
import { RuleEditor } from "./components/rule-editor";
import { RulesList } from "./components/rules-list";

/**
 * Shipping rules (issue 25 §1): the shop's rules in their order, the shop-wide rule of Settings last; add, edit,
 * delete, reorder (up and down), each rule's preview over the open orders, and testing a rule on one order
 * before saving it. Posts JSON: { intent, ... }.
 */

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await requestContext(request);
  return loadRulesPage(ctx);
};

const Id = z.string().min(1).max(100);
const Posted = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("save"), id: Id.nullable(), values: z.unknown() }),
  z.object({ intent: z.literal("delete"), id: Id }),
  z.object({ intent: z.literal("move"), id: Id, to: z.union([z.enum(["up", "down"]), z.number().int().min(0).max(10_000)]) }),
  z.object({ intent: z.literal("test"), ...RuleTestInput.shape, values: z.unknown() }),
]);

export const action = async ({ request }: ActionFunctionArgs) => {
  const { ctx } = await requestContext(request);
  const posted = await readPostedJsonAs(request, Posted);
  if (!posted.ok) {
    const message =
      posted.field === "orderId" ? "Choose an order to test the rule on." : "The rules page sent something it could not read. Reload the page and try again.";
    return json({ ok: false as const, intent: "invalid", message, fieldErrors: { [posted.field]: message } }, { status: 400 });
  }
  const input = posted.data;
  const outcome =
    input.intent === "save"
      ? await saveRuleForm(ctx, input.id, input.values)
      : input.intent === "delete"
        ? await deleteRule(ctx, input.id)
        : input.intent === "move"
          ? await moveRule(ctx, input.id, input.to)
          : await testRuleOnOrder(ctx, input, input.values);
  return json({ ...outcome, intent: input.intent }, { status: outcome.ok ? 200 : 400 });
};

export const handle: PageHandle<typeof loader> = { title: "Shipping rules" };
export const meta = pageMeta;

type Editing = { id: string | null; values: RuleFormValues } | null;

export default function ShippingRules() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [editing, setEditing] = useState<Editing>(null);
  const busy = navigation.state !== "idle";
  const post = (body: Record<string, unknown>) => submit(JSON.stringify(body), { method: "post", encType: "application/json" });
  useSuccessToast(result && result.intent !== "test" ? (result as { ok: boolean; message?: string }) : undefined);
  // A saved rule closes the editor; its list row shows it.
  const [handled, setHandled] = useState<unknown>(null);
  if (result !== handled) {
    setHandled(result);
    if (result?.ok && result.intent === "save") setEditing(null);
  }
  const refusal = result && !result.ok ? result : null;

  return (
    <Page backAction={{ content: "Settings", url: "/app/settings" }}>
      <PageTitleBar />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {refusal && !editing && (
              <Banner tone="critical" title="That did not work">
                <p>{refusal.message}</p>
              </Banner>
            )}
            <Card>
              <BlockStack gap="200">
                <Text as="p">
                  For each order, Consign tries your rules from the top. Rules that change the box, signature, insurance or residential apply before quoting;
                  the first rule whose conditions hold and that picks a rate picks it. A rule whose pick cannot be met (its service not quoted, every rate over
                  its ceiling) passes the order to the next one.
                </Text>
                <Text as="p" tone="subdued">
                  Last comes the shop-wide rule of <Link to="/app/settings">Settings</Link>: {page.shopRule}. Product boxes and customs defaults are set in{" "}
                  <Link to="/app/presets">Product presets</Link>.
                </Text>
              </BlockStack>
            </Card>
            <RulesList
              page={page}
              busy={busy}
              onEdit={(rule) => setEditing({ id: rule.id, values: rule.values })}
              onMove={(id, to) => post({ intent: "move", id, to })}
              onDelete={(id) => post({ intent: "delete", id })}
            />
            {editing ? (
              <RuleEditor
                key={editing.id ?? "new"}
                page={page}
                editing={editing}
                result={result}
                busy={busy}
                onChange={(values) => setEditing({ ...editing, values })}
                onSave={() => post({ intent: "save", id: editing.id, values: editing.values })}
                onTest={(orderId) => post({ intent: "test", ruleId: editing.id, orderId, values: editing.values })}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <div>
                <Button variant="primary" onClick={() => setEditing({ id: null, values: EMPTY_RULE_FORM })}>
                  Add rule
                </Button>
              </div>
            )}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
