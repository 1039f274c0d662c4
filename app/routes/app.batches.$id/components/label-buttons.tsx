import { Button, Text } from "@shopify/polaris";
import { useState } from "react";
import { openLabelFile } from "../../../batches/components/label-file";
import { DocumentsSelect } from "../../../documents/documents-select";
import { PRINT_CHOICE_NAMES, type PrintChoice } from "../../../documents/print-choice";

/** Download and print the batch's print job (labels, labels with packing slips, slips, or the pick list) as one PDF. */
export function LabelButtons({ batchId }: { batchId: string }) {
  const [state, setState] = useState<{ loading: "download" | "print" | null; error: string | null }>({ loading: null, error: null });
  const [documents, setDocuments] = useState<PrintChoice>("labels");
  const fetchPdf = async (mode: "download" | "print") => {
    setState({ loading: mode, error: null });
    try {
      setState({ loading: null, error: await openLabelFile(`/app/batches/${batchId}/labels?documents=${documents}`, mode) });
    } catch {
      setState({ loading: null, error: "The documents could not be fetched. Check your connection and try again." });
    }
  };
  return (
    <>
      <DocumentsSelect value={documents} onChange={setDocuments} names={PRINT_CHOICE_NAMES} />
      <Button variant="primary" loading={state.loading === "download"} onClick={() => void fetchPdf("download")}>
        {`Download ${PRINT_CHOICE_NAMES[documents]}`}
      </Button>
      <Button loading={state.loading === "print"} onClick={() => void fetchPdf("print")}>
        {`Print ${PRINT_CHOICE_NAMES[documents]}`}
      </Button>
      {state.error && (
        <Text as="p" tone="critical">
          <span data-testid="labels-error">{state.error}</span>
        </Text>
      )}
    </>
  );
}
