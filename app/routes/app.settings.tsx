import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { SaveBar } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import { useMemo, useState } from "react";
import { useSuccessToast } from "../components/page-hooks";
import type { Outcome } from "../outcome";
import {
  BoxesSection,
  DefaultsSection,
  OrderTagsSection,
  RatesSection,
  ReturnsSection,
  ServicesSection,
  ShipFromSection,
} from "../settings/components/settings-sections";
import type { FieldErrors } from "../field-errors";
import { requireAccount } from "../settings/require-account.server";
import { settingsReturnTo } from "../settings/return-to";
import type { SettingsFormValues } from "../settings/settings-form";
import { loadSettingsPage, saveSettingsForm } from "../settings/settings-page.server";
import { adminContext } from "../request-context.server";
import { readPostedJson } from "../posted-form.server";
import { PageTitleBar, pageMeta, type PageHandle } from "../components/page-title";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await adminContext(request);
  const account = await requireAccount(ctx, request);
  const page = await loadSettingsPage(ctx);
  return { account: { customerId: account.customerId, email: account.email }, returnTo: settingsReturnTo(request.url), ...page };
};

type SaveResult = Outcome<{ message: string }, { fieldErrors: FieldErrors }>;

export const action = async ({ request }: ActionFunctionArgs) => {
  const { ctx } = await adminContext(request);
  await requireAccount(ctx, request);
  const outcome = await saveSettingsForm(ctx, await readPostedJson(request));
  if (!outcome.ok) return json<SaveResult>(outcome, { status: 400 });
  // Opened from a page that needed a setting (quoting the selected orders): saved, the merchant goes back there.
  const returnTo = settingsReturnTo(request.url);
  if (returnTo) return redirect(returnTo);
  return json<SaveResult>({ ok: true, message: "Settings saved" });
};

export const handle: PageHandle<typeof loader> = { title: "Settings" };
export const meta = pageMeta;

export default function Settings() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submit = useSubmit();
  const navigation = useNavigation();
  const saved = JSON.stringify(page.values);
  const [values, setValues] = useState<SettingsFormValues>(page.values);
  // A save reloads the page's data: the saved values (normalised) become the form and its baseline. Adjusted
  // while rendering, when the loader's values change, rather than in an effect that would render twice.
  const [baseline, setBaseline] = useState(saved);
  if (baseline !== saved) {
    setBaseline(saved);
    setValues(JSON.parse(saved) as SettingsFormValues);
  }
  useSuccessToast(result);

  const dirty = useMemo(() => JSON.stringify(values) !== saved, [values, saved]);
  const saving = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors: FieldErrors = result && !result.ok ? result.fieldErrors : {};
  const errorCount = Object.keys(errors).length;
  const save = () => submit(values, { method: "post", encType: "application/json" });
  const section = { values, onChange: setValues, errors, catalog: page.catalog };

  // App Bridge's contextual save bar: the admin draws it over its own top bar (it never covers this page's
  // banners), and while it shows, leaving through the admin's navigation asks the merchant first, as Shopify
  // requires of embedded apps. Its Save and Discard click these buttons.
  return (
    <>
      <SaveBar id="settings-save-bar" open={dirty || saving}>
        {/* eslint-disable-next-line react/no-unknown-property -- App Bridge reads variant="primary" as the Save button */}
        <button variant="primary" onClick={save} disabled={saving} loading={saving ? "" : undefined}>
          Save
        </button>
        <button onClick={() => setValues(JSON.parse(saved) as SettingsFormValues)} disabled={saving}>
          Discard
        </button>
      </SaveBar>
      <Page>
        <PageTitleBar />
        <BlockStack gap="400">
          {page.problems.map((problem) => (
            <Banner
              key={problem.kind}
              tone={problem.kind === "reconnect" ? "critical" : "warning"}
              title={problem.kind === "locations" ? "Locations unavailable" : "Shipping API unavailable"}
            >
              <p>
                {problem.message} {problem.kind === "reconnect" && <Link to="/app/onboarding?returnTo=/app/settings">Connect the account again</Link>}
              </p>
            </Banner>
          ))}
          {result && !result.ok && errorCount > 0 && (
            <Banner tone="critical" title={`${errorCount} setting${errorCount === 1 ? " needs" : "s need"} attention`}>
              <p>{result.message} Your changes are still here.</p>
            </Banner>
          )}
          {page.returnTo && (
            <Banner tone="info" title="Your selected orders are waiting">
              <p>
                Once you save, Consign goes back and quotes the orders you selected. <Link to={page.returnTo}>Go back without changes</Link>
              </p>
            </Banner>
          )}
          {!values.sender && (
            <Banner tone="info" title="Choose where you ship from">
              <p>Rates need a sender address: pick one of your Shopify locations below.</p>
            </Banner>
          )}
          <Layout>
            <Layout.AnnotatedSection title="Ship from" description="Sender and return address on your labels.">
              <Card>
                <ShipFromSection {...section} locations={page.locations} />
              </Card>
            </Layout.AnnotatedSection>
            <Layout.AnnotatedSection title="Packages" description="Boxes you pack in; the default one is used for rates.">
              <Card>
                <BoxesSection {...section} />
              </Card>
            </Layout.AnnotatedSection>
            <Layout.AnnotatedSection title="Carriers and services" description="Which services to get rates from, and whose carrier account to book on.">
              <Card>
                <ServicesSection {...section} />
              </Card>
            </Layout.AnnotatedSection>
            <Layout.AnnotatedSection title="Rate choice" description="Which rate Consign picks for each order; you can change any pick before booking.">
              <Card>
                <RatesSection {...section} currency={page.ratesCurrency} />
              </Card>
            </Layout.AnnotatedSection>
            <Layout.AnnotatedSection
              title="Returns"
              description="Which return service Consign picks for a return label; labels go to the return address above."
            >
              <Card>
                <ReturnsSection {...section} />
              </Card>
            </Layout.AnnotatedSection>
            <Layout.AnnotatedSection title="Labels and defaults" description="Applied to every shipment unless you change it on the order.">
              <Card>
                <DefaultsSection {...section} />
              </Card>
            </Layout.AnnotatedSection>
            <Layout.AnnotatedSection
              title="Order tags"
              description="Tags on your Shopify orders when the label is bought, when it is delivered and while delivery needs attention: filter orders by them, or start Shopify Flow workflows."
            >
              <Card>
                <OrderTagsSection {...section} />
              </Card>
            </Layout.AnnotatedSection>
            <Layout.AnnotatedSection title="Shipping API account">
              <Card>
                <BlockStack gap="200">
                  <Text as="p">
                    Signed in as <span data-testid="account-email">{page.account.email}</span> (customer id {page.account.customerId}).
                  </Text>
                  <Link to="/app/onboarding?returnTo=/app/settings">Connect a different account</Link>
                </BlockStack>
              </Card>
            </Layout.AnnotatedSection>
          </Layout>
        </BlockStack>
      </Page>
    </>
  );
}
