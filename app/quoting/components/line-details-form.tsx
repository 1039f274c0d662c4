import { Form, useActionData, useNavigation } from "@remix-run/react";
import { BlockStack, Button, InlineStack, Link, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import type { FieldErrors, Outcome } from "../../outcome";
import type { LineFixes, OrderView } from "../run-view.server";

const UNIT_WORD: Record<LineFixes["weightUnit"], string> = { GRAMS: "g", KILOGRAMS: "kg", OUNCES: "oz", POUNDS: "lb" };

/**
 * An order blocked for what its lines lack (an HS code, a country of origin, a weight): each such line, typed
 * here for this order (Shopify's products stay as they are), then the order is quoted again into the same run,
 * so it can join the same batch. Problems come back on their field.
 */
export function LineDetailsForm({ order, fixes }: { order: Pick<OrderView, "orderId" | "orderName" | "orderNumber">; fixes: LineFixes }) {
  const result = useActionData<Outcome<{ message: string }, { fieldErrors?: FieldErrors }>>();
  const navigation = useNavigation();
  const [values, setValues] = useState(() =>
    fixes.lines.map((line) => ({ hsCode: line.hsCode ?? "", countryOfOrigin: line.countryOfOrigin ?? "", weight: line.weight ?? "" })),
  );
  const errorOn = (field: string) => (result && !result.ok ? result.fieldErrors?.[field] : undefined);
  const set = (index: number, change: Partial<(typeof values)[number]>) =>
    setValues((current) => current.map((entry, at) => (at === index ? { ...entry, ...change } : entry)));
  const unit = UNIT_WORD[fixes.weightUnit];
  const what = [fixes.fields.weight && "a weight", fixes.fields.customs && "customs details"].filter(Boolean).join(" and ");
  return (
    <div data-testid="line-details-form">
      <Form method="post">
        <input type="hidden" name="intent" value="customs" />
        <input type="hidden" name="orderId" value={order.orderId} />
        {fixes.fields.weight && <input type="hidden" name="weightUnit" value={fixes.weightUnit} />}
        <BlockStack gap="200">
          <Text as="p" variant="bodySm" tone="subdued">
            {`Type ${what} for this order, then quote it again in this run. Consign keeps it for this order only; to fix the product for every order, `}
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
          <InlineStack>
            <Button submit loading={navigation.state === "submitting" && navigation.formData?.get("orderId") === order.orderId}>
              {`Save and quote ${order.orderName} again`}
            </Button>
          </InlineStack>
        </BlockStack>
      </Form>
    </div>
  );
}
