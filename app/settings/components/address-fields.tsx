import { FormLayout, TextField } from "@shopify/polaris";
import { ADDRESS_LABELS, type AddressInput } from "../addresses";
import type { FieldErrors } from "../../field-errors";

type Field = keyof AddressInput;

const INPUTS: Record<Field, { autoComplete: string; helpText?: string }> = {
  name: { autoComplete: "name" },
  company: { autoComplete: "organization" },
  address1: { autoComplete: "address-line1" },
  address2: { autoComplete: "address-line2" },
  city: { autoComplete: "address-level2" },
  state: { autoComplete: "address-level1", helpText: "Two letters for the US and Canada, e.g. NY" },
  zip: { autoComplete: "postal-code" },
  country: { autoComplete: "country", helpText: "Two letters, e.g. US" },
  phone: { autoComplete: "tel" },
  email: { autoComplete: "email" },
};

/** Short fields share a row. */
const ROWS: readonly Field[][] = [["name", "company"], ["address1"], ["address2"], ["city", "state"], ["zip", "country"], ["phone", "email"]];

/**
 * An address as form fields. `name` prefixes each input's name (`sender.city`; empty: just `city`), which is
 * also the key of its error message in `errors`.
 */
export function AddressFields({
  name,
  value,
  onChange,
  errors,
  fields = ["name", "company", "address1", "address2", "city", "state", "zip", "country", "phone", "email"],
}: {
  name: string;
  value: AddressInput;
  onChange: (next: AddressInput) => void;
  errors: FieldErrors;
  fields?: readonly Field[];
}) {
  const path = (field: Field) => (name ? `${name}.${field}` : field);
  const input = (field: Field) => (
    <TextField
      key={field}
      label={ADDRESS_LABELS[field]}
      name={path(field)}
      autoComplete={INPUTS[field].autoComplete}
      helpText={INPUTS[field].helpText}
      value={value[field]}
      onChange={(next) => onChange({ ...value, [field]: next })}
      error={errors[path(field)]}
    />
  );
  const rows = ROWS.map((row) => row.filter((field) => fields.includes(field))).filter((row) => row.length > 0);
  return (
    <FormLayout>
      {rows.map((row) => (row.length === 1 ? input(row[0]!) : <FormLayout.Group key={row.join("-")}>{row.map(input)}</FormLayout.Group>))}
    </FormLayout>
  );
}
