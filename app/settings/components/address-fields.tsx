import { FormLayout, TextField } from "@shopify/polaris";
import type { AddressInput } from "../addresses";
import type { FieldErrors } from "../../field-errors";

type Field = keyof AddressInput;

const LABELS: Record<Field, { label: string; autoComplete: string; helpText?: string }> = {
  name: { label: "Name", autoComplete: "name" },
  company: { label: "Company", autoComplete: "organization" },
  address1: { label: "Address", autoComplete: "address-line1" },
  address2: { label: "Apartment, suite, etc.", autoComplete: "address-line2" },
  city: { label: "City", autoComplete: "address-level2" },
  state: { label: "State or province code", autoComplete: "address-level1", helpText: "Two letters for the US and Canada, e.g. NY" },
  zip: { label: "ZIP or postal code", autoComplete: "postal-code" },
  country: { label: "Country code", autoComplete: "country", helpText: "Two letters, e.g. US" },
  phone: { label: "Phone", autoComplete: "tel" },
  email: { label: "Email", autoComplete: "email" },
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
      label={LABELS[field].label}
      name={path(field)}
      autoComplete={LABELS[field].autoComplete}
      helpText={LABELS[field].helpText}
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
