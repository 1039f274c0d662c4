import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AppProvider as PolarisAppProvider, Button, Card, FormLayout, Page, Text, TextField } from "@shopify/polaris";
import polarisTranslations from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { useState } from "react";
import { login } from "../../shopify.server";
import { loginErrorMessage } from "./error.server";
import { readPostedForm } from "../../posted-form.server";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

/** The login page; a HEAD request is read as the GET it stands for (the library's login reads a HEAD's missing body as a form). */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const asGet = request.method === "HEAD" ? new Request(request.url, { method: "GET", headers: request.headers }) : request;
  return { errors: loginErrorMessage(await login(asGet)) };
};

/**
 * The login form posts a shop domain: its body is bounded (app/body-limits.ts), and a body that is not that
 * form is answered with the page and a sentence saying so (415 or 400), before the library reads it.
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  let form: FormData;
  try {
    form = await readPostedForm(request);
  } catch (refusal) {
    if (!(refusal instanceof Response)) throw refusal;
    const { error } = (await refusal.json()) as { error: string };
    return json({ errors: { shop: error } }, { status: refusal.status });
  }
  const shop = form.get("shop");
  const posted = new Request(request.url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ shop: typeof shop === "string" ? shop : "" }),
  });
  return json({ errors: loginErrorMessage(await login(posted)) });
};

export default function Auth() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [shop, setShop] = useState("");
  const { errors } = actionData ?? loaderData;

  return (
    <PolarisAppProvider i18n={polarisTranslations}>
      <Page>
        <Card>
          <Form method="post">
            <FormLayout>
              <Text variant="headingMd" as="h2">
                Log in to Consign
              </Text>
              <TextField
                type="text"
                name="shop"
                label="Shop domain"
                helpText="example.myshopify.com"
                value={shop}
                onChange={setShop}
                autoComplete="on"
                error={errors.shop}
              />
              <Button submit>Log in</Button>
            </FormLayout>
          </Form>
        </Card>
      </Page>
    </PolarisAppProvider>
  );
}
