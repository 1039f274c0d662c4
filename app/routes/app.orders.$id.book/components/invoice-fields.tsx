import { BlockStack, Button, Divider, InlineGrid, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import type { CommercialInvoice } from "../../../../shipping-api/contract";
import type { FieldErrors } from "../../../field-errors";
import { termsOfTradeOptions } from "../../../shipping/terms-of-trade";

type Invoice = CommercialInvoice;
export type ItemDraft = { description: string; quantity: string; unitValue: string; htsNumber: string; countryOfOrigin: string };

export function itemDrafts(invoice: Invoice | null): ItemDraft[] {
  return (invoice?.items ?? []).map((item) => ({
    description: item.description,
    quantity: String(item.quantity),
    unitValue: item.unitValue,
    htsNumber: item.htsNumber,
    countryOfOrigin: item.countryOfOrigin,
  }));
}

/** The commercial invoice of an international shipment, prefilled from the order: its terms of trade and its items, editable. */
export function InvoiceFields({
  termsOfTrade,
  terms,
  setTerms,
  items,
  setItems,
  fieldErrors,
}: {
  termsOfTrade: readonly string[];
  terms: string;
  setTerms: (terms: string) => void;
  items: ItemDraft[];
  setItems: (update: (current: ItemDraft[]) => ItemDraft[]) => void;
  fieldErrors: FieldErrors;
}) {
  const setItem = (index: number, field: keyof ItemDraft, value: string) =>
    setItems((current) => current.map((item, at) => (at === index ? { ...item, [field]: value } : item)));
  return (
    <BlockStack gap="300">
      <Divider />
      <Text as="h3" variant="headingSm">
        Commercial invoice
      </Text>
      <Select label="Terms of trade" options={termsOfTradeOptions(termsOfTrade)} value={terms} onChange={setTerms} error={fieldErrors.termsOfTrade} />
      {items.map((item, index) => (
        <div key={index} data-testid="invoice-item">
          <InlineGrid columns={{ xs: 1, md: "3fr 1fr 1fr 1fr 1fr auto" }} gap="200" alignItems="end">
            <TextField
              label="Description"
              value={item.description}
              onChange={(value) => setItem(index, "description", value)}
              autoComplete="off"
              error={fieldErrors[`items[${index}].description`]}
            />
            <TextField
              label="Quantity"
              type="number"
              value={item.quantity}
              onChange={(value) => setItem(index, "quantity", value)}
              autoComplete="off"
              error={fieldErrors[`items[${index}].quantity`]}
            />
            <TextField
              label="Unit value"
              value={item.unitValue}
              onChange={(value) => setItem(index, "unitValue", value)}
              autoComplete="off"
              error={fieldErrors[`items[${index}].unitValue`]}
            />
            <TextField
              label="HS code"
              value={item.htsNumber}
              onChange={(value) => setItem(index, "htsNumber", value)}
              autoComplete="off"
              error={fieldErrors[`items[${index}].htsNumber`]}
            />
            <TextField
              label="Origin"
              value={item.countryOfOrigin}
              onChange={(value) => setItem(index, "countryOfOrigin", value)}
              autoComplete="off"
              maxLength={2}
              error={fieldErrors[`items[${index}].countryOfOrigin`]}
            />
            <Button
              variant="plain"
              tone="critical"
              disabled={items.length === 1}
              onClick={() => setItems((current) => current.filter((_, at) => at !== index))}
              accessibilityLabel={`Remove item ${index + 1}`}
            >
              Remove
            </Button>
          </InlineGrid>
        </div>
      ))}
      <InlineStack>
        <Button onClick={() => setItems((current) => [...current, { description: "", quantity: "1", unitValue: "", htsNumber: "", countryOfOrigin: "" }])}>
          Add item
        </Button>
      </InlineStack>
    </BlockStack>
  );
}
