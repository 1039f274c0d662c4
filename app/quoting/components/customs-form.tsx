import { Form, useActionData, useNavigation } from "@remix-run/react";
import { BlockStack, Button, InlineStack, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import type { FieldErrors, Outcome } from "../../outcome";
import type { OrderView } from "../run-view.server";

/**
 * An order blocked for customs details: each line without an HS code or country of origin, typed here for
 * this shipment, then the order is quoted again. Problems come back on their field.
 */
export function CustomsForm({ order }: { order: Pick<OrderView, "orderId" | "orderName" | "customs"> }) {
  const result = useActionData<Outcome<{ message: string }, { fieldErrors?: FieldErrors }>>();
  const navigation = useNavigation();
  const [values, setValues] = useState(() => order.customs.map((line) => ({ hsCode: line.hsCode ?? "", countryOfOrigin: line.countryOfOrigin ?? "" })));
  const errorOn = (field: string) => (result && !result.ok ? result.fieldErrors?.[field] : undefined);
  const set = (index: number, change: Partial<(typeof values)[number]>) =>
    setValues((current) => current.map((entry, at) => (at === index ? { ...entry, ...change } : entry)));
  return (
    <div data-testid="customs-form">
      <Form method="post">
        <input type="hidden" name="intent" value="customs" />
        <input type="hidden" name="orderId" value={order.orderId} />
        <BlockStack gap="200">
          <Text as="p" variant="bodySm" tone="subdued">
            Type what Shopify lacks for this shipment (Shopify’s products stay as they are), then quote it again.
          </Text>
          {order.customs.map((line, index) => (
            <InlineStack key={line.lineId} gap="200" blockAlign="end" wrap={false}>
              <input type="hidden" name="lineId" value={line.lineId} />
              <input type="hidden" name="product" value={line.product} />
              <div style={{ minWidth: 180 }}>
                <Text as="span">{line.product}</Text>
              </div>
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
