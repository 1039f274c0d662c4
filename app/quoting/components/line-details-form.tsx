import { Form, useActionData, useNavigation, useSubmit } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { BlockStack, Button, Checkbox, InlineStack, Link, Text, TextField } from "@shopify/polaris";
import { useState, type FormEvent } from "react";
import type { FieldErrors, Outcome } from "../../outcome";
import type { LineFixes, OrderView } from "../run-view.server";

const UNIT_WORD: Record<LineFixes["weightUnit"], string> = { GRAMS: "g", KILOGRAMS: "kg", OUNCES: "oz", POUNDS: "lb" };

/** The optional scope saving a weight to a product needs (shopify.app.toml's optional_scopes). */
const EDIT_PRODUCTS = "write_products";

/**
 * An order blocked for what its lines lack (an HS code, a country of origin, a weight): each such line, typed
 * here for this order, then the order is quoted again into the same run, so it can join the same batch.
 * Problems come back on their field. A typed weight may also be saved to the product in Shopify: ticked, the
 * page asks the merchant for permission to edit products (App Bridge's scopes.request) when Consign lacks it,
 * and posts their answer; declined, the weight is still kept for the order.
 */
export function LineDetailsForm({ order, fixes }: { order: Pick<OrderView, "orderId" | "orderName" | "orderNumber">; fixes: LineFixes }) {
  const result = useActionData<Outcome<{ message: string }, { fieldErrors?: FieldErrors }>>();
  const navigation = useNavigation();
  const shopify = useAppBridge();
  const submit = useSubmit();
  const [saveToProduct, setSaveToProduct] = useState(false);
  const [asking, setAsking] = useState(false);
  const [values, setValues] = useState(() =>
    fixes.lines.map((line) => ({ hsCode: line.hsCode ?? "", countryOfOrigin: line.countryOfOrigin ?? "", weight: line.weight ?? "" })),
  );
  const errorOn = (field: string) => (result && !result.ok ? result.fieldErrors?.[field] : undefined);
  const set = (index: number, change: Partial<(typeof values)[number]>) =>
    setValues((current) => current.map((entry, at) => (at === index ? { ...entry, ...change } : entry)));
  const unit = UNIT_WORD[fixes.weightUnit];
  const what = [fixes.fields.weight && "a weight", fixes.fields.customs && "customs details"].filter(Boolean).join(" and ");
  // Ticked: ask for permission to edit products first (unless granted), then post with the merchant's answer.
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    if (!saveToProduct) return;
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setAsking(true);
    try {
      const { granted } = await shopify.scopes.query();
      if (!granted.includes(EDIT_PRODUCTS)) {
        const answer = await shopify.scopes.request([EDIT_PRODUCTS]);
        if (answer.result !== "granted-all") form.set("productAccess", "declined");
      }
    } catch {
      // The admin could not ask: post anyway, and Shopify's answer to the write says what is missing.
    } finally {
      setAsking(false);
    }
    submit(form, { method: "post" });
  };
  return (
    <div data-testid="line-details-form">
      <Form method="post" onSubmit={(event) => void onSubmit(event)}>
        <input type="hidden" name="intent" value="customs" />
        <input type="hidden" name="orderId" value={order.orderId} />
        {fixes.fields.weight && <input type="hidden" name="weightUnit" value={fixes.weightUnit} />}
        <BlockStack gap="200">
          <Text as="p" variant="bodySm" tone="subdued">
            {`Type ${what} for this order, then quote it again in this run. Consign keeps it for this order; to fix the product for every order, `}
            <Link url={`shopify://admin/orders/${order.orderNumber}`} target="_top">
              open the order in Shopify
            </Link>
            {" and edit its product."}
          </Text>
          {fixes.lines.map((line, index) => (
            <InlineStack key={line.lineId} gap="200" blockAlign="end" wrap={false}>
              <input type="hidden" name="lineId" value={line.lineId} />
              <input type="hidden" name="product" value={line.product} />
              <div style={{ minWidth: 180 }}>
                <Text as="span">{line.product}</Text>
              </div>
              {fixes.fields.weight ? (
                <TextField
                  label={`Weight of one ${line.product}`}
                  name="weight"
                  inputMode="decimal"
                  autoComplete="off"
                  suffix={unit}
                  value={values[index]!.weight}
                  onChange={(weight) => set(index, { weight })}
                  error={errorOn(`lines[${index}].weight`)}
                />
              ) : (
                <input type="hidden" name="weight" value="" />
              )}
              {fixes.fields.customs ? (
                <>
                  <TextField
                    label={`HS code of ${line.product}`}
                    name="hsCode"
                    autoComplete="off"
                    value={values[index]!.hsCode}
                    onChange={(hsCode) => set(index, { hsCode })}
                    error={errorOn(`lines[${index}].hsCode`)}
                  />
                  <TextField
                    label={`Country of origin of ${line.product}`}
                    name="countryOfOrigin"
                    autoComplete="off"
                    maxLength={2}
                    value={values[index]!.countryOfOrigin}
                    onChange={(countryOfOrigin) => set(index, { countryOfOrigin })}
                    error={errorOn(`lines[${index}].countryOfOrigin`)}
                  />
                </>
              ) : (
                <>
                  <input type="hidden" name="hsCode" value="" />
                  <input type="hidden" name="countryOfOrigin" value="" />
                </>
              )}
            </InlineStack>
          ))}
          {fixes.fields.weight && (
            <Checkbox
              label="Also save this weight to the product in Shopify"
              name="saveToProduct"
              // Explicit: Polaris passes its value prop on even when unset, and React then posts an empty value.
              value="on"
              checked={saveToProduct}
              onChange={setSaveToProduct}
              helpText="Every later order of it then has its weight. Consign needs your permission to edit products: Shopify asks you the first time."
            />
          )}
          <InlineStack>
            <Button submit loading={asking || (navigation.state === "submitting" && navigation.formData?.get("orderId") === order.orderId)}>
              {`Save and quote ${order.orderName} again`}
            </Button>
          </InlineStack>
        </BlockStack>
      </Form>
    </div>
  );
}
