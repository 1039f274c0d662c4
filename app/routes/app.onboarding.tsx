import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, ChoiceList, FormLayout, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { AddressFields } from "../settings/components/address-fields";
import { RateRuleChoice } from "../settings/components/rate-rule-choice";
import { inMerchantWords } from "../field-errors";
import { formProblem, MIN_PASSWORD_LENGTH, OnboardingForm, onboardingRefusal } from "../settings/onboarding-form";
import { completeOnboarding, loadOnboarding } from "../settings/onboarding.server";
import { safeReturnTo } from "../settings/return-to";
import { adminContext } from "../request-context.server";
import { readPostedForm } from "../posted-form.server";
import { PageTitleBar, pageMeta, type PageHandle } from "../components/page-title";

/** Connect an existing Shipping API account, or create one. Credentials go in; only id and email come back. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await adminContext(request);
  const page = await loadOnboarding(ctx);
  return { ...page, returnTo: safeReturnTo(new URL(request.url).searchParams.get("returnTo")) };
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { ctx } = await adminContext(request);
  const body = Object.fromEntries(await readPostedForm(request));
  const form = OnboardingForm.safeParse(body, { error: inMerchantWords });
  if (!form.success) return json(onboardingRefusal(formProblem(form.error.issues)), { status: 400 });
  const outcome = await completeOnboarding(ctx, form.data);
  if (!outcome.ok) return json(outcome, { status: outcome.reason === "unavailable" ? 503 : 400 });
  return redirect(safeReturnTo(typeof body.returnTo === "string" ? body.returnTo : null));
};

type Choice = "connect" | "create";

export const handle: PageHandle<typeof loader> = { title: "Set up shipping" };
export const meta = pageMeta;

export default function Onboarding() {
  const { account, createAvailable, createDefaults, returnTo } = useLoaderData<typeof loader>();
  const problem = useActionData<typeof action>();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const [choice, setChoice] = useState<Choice>("connect");
  const [connect, setConnect] = useState({ customerId: "", email: "", password: "" });
  const [create, setCreate] = useState({ ...createDefaults, password: "", passwordConfirmation: "" });
  const errors = problem?.fieldErrors ?? {};

  return (
    <Page narrowWidth>
      <PageTitleBar />
      <BlockStack gap="400">
        {account && (
          <Banner tone="success" title={`Connected to the Shipping API as ${account.email}`}>
            <p>
              Customer id {account.customerId}. Continue to <Link to="/app/settings">Settings</Link>, or connect another account below to replace it.
            </p>
          </Banner>
        )}
        {problem?.formError && (
          <Banner tone="critical" title="Nothing was saved">
            <p>{problem.formError}</p>
          </Banner>
        )}
        <Layout>
          <Layout.Section>
            <Card>
              <ChoiceList
                title="Your Shipping API account"
                selected={[choice]}
                onChange={([next]) => setChoice(next === "create" ? "create" : "connect")}
                choices={[
                  { label: "Connect an account I already have", value: "connect" },
                  {
                    label: "Create a new account",
                    value: "create",
                    disabled: !createAvailable,
                    helpText: createAvailable
                      ? "Opened with your shop's details; you choose the password."
                      : "Not available in this installation (the app has no partner key). Open an account with the Shipping API, then connect it here.",
                  },
                ]}
              />
            </Card>
          </Layout.Section>
          <Layout.Section>
            <Card>
              <Form method="post" data-testid={`onboarding-${choice}`}>
                <input type="hidden" name="intent" value={choice} />
                <input type="hidden" name="returnTo" value={returnTo} />
                {choice === "connect" ? (
                  <FormLayout>
                    <Text as="h2" variant="headingMd">
                      Connect your account
                    </Text>
                    <Text as="p" tone="subdued">
                      Consign checks these details with the Shipping API before saving them. The password is stored encrypted and never shown again.
                    </Text>
                    <TextField
                      label="Customer id"
                      name="customerId"
                      autoComplete="off"
                      value={connect.customerId}
                      onChange={(customerId) => setConnect({ ...connect, customerId })}
                      error={errors.customerId}
                    />
                    <TextField
                      label="Email"
                      name="email"
                      type="email"
                      autoComplete="username"
                      value={connect.email}
                      onChange={(email) => setConnect({ ...connect, email })}
                      error={errors.email}
                    />
                    <TextField
                      label="Password"
                      name="password"
                      type="password"
                      autoComplete="current-password"
                      value={connect.password}
                      onChange={(password) => setConnect({ ...connect, password })}
                      error={errors.password}
                    />
                    <RateRuleChoice errors={errors} />
                    <Button submit variant="primary" loading={submitting}>
                      Connect account
                    </Button>
                  </FormLayout>
                ) : (
                  <FormLayout>
                    <Text as="h2" variant="headingMd">
                      Create an account
                    </Text>
                    <TextField
                      label="Email"
                      name="email"
                      type="email"
                      autoComplete="email"
                      helpText="You sign in to the Shipping API with it."
                      value={create.email}
                      onChange={(email) => setCreate({ ...create, email })}
                      error={errors.email}
                    />
                    <FormLayout.Group>
                      <TextField
                        label="Password"
                        name="password"
                        type="password"
                        autoComplete="new-password"
                        helpText={`At least ${MIN_PASSWORD_LENGTH} characters.`}
                        value={create.password}
                        onChange={(password) => setCreate({ ...create, password })}
                        error={errors.password}
                      />
                      <TextField
                        label="Repeat the password"
                        name="passwordConfirmation"
                        type="password"
                        autoComplete="new-password"
                        value={create.passwordConfirmation}
                        onChange={(passwordConfirmation) => setCreate({ ...create, passwordConfirmation })}
                        error={errors.passwordConfirmation}
                      />
                    </FormLayout.Group>
                    <Text as="h3" variant="headingSm">
                      Business address (mailing and billing)
                    </Text>
                    <AddressFields
                      name=""
                      value={{ ...create, email: "" }}
                      onChange={({ email: _unused, ...address }) => setCreate({ ...create, ...address })}
                      errors={errors}
                      fields={["name", "company", "address1", "address2", "city", "state", "zip", "country", "phone"]}
                    />
                    <Text as="h3" variant="headingSm">
                      Prepaid balance
                    </Text>
                    <FormLayout.Group>
                      <TextField
                        label="Minimum balance"
                        name="minimumBalance"
                        inputMode="decimal"
                        autoComplete="off"
                        value={create.minimumBalance}
                        onChange={(minimumBalance) => setCreate({ ...create, minimumBalance })}
                        error={errors.minimumBalance}
                      />
                      <TextField
                        label="Recharge amount"
                        name="rechargeAmount"
                        inputMode="decimal"
                        autoComplete="off"
                        helpText="Charged when the account is created and whenever the balance falls below the minimum."
                        value={create.rechargeAmount}
                        onChange={(rechargeAmount) => setCreate({ ...create, rechargeAmount })}
                        error={errors.rechargeAmount}
                      />
                    </FormLayout.Group>
                    <RateRuleChoice errors={errors} />
                    <Button submit variant="primary" loading={submitting}>
                      Create account
                    </Button>
                  </FormLayout>
                )}
              </Form>
            </Card>
          </Layout.Section>
        </Layout>
      </BlockStack>
    </Page>
  );
}
