import { Select } from "@shopify/polaris";
import { PrintChoice } from "./print-choice";

/** Which documents to print: the batch page's and a single booking's choice, worded by `names`. */
export function DocumentsSelect({
  value,
  onChange,
  names,
}: {
  value: PrintChoice;
  onChange: (choice: PrintChoice) => void;
  names: Record<PrintChoice, string>;
}) {
  return (
    <Select
      label="Documents"
      labelInline
      options={PrintChoice.options.map((choice) => ({ label: names[choice].replace(/^./, (first) => first.toUpperCase()), value: choice }))}
      value={value}
      onChange={(next) => onChange(PrintChoice.parse(next))}
    />
  );
}
