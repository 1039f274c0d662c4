import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { PRINT_DOCUMENT_NAMES, PrintableOrdersView, type PrintDocument, type PrintableOrder, printPath } from "../../../app/documents/print-actions-view";

/**
 * Consign's print action, on an order's page (admin.order-details.print-action.render) and on a selection of
 * the order list (admin.order-index.selection-print-action.render, extensions/orders-print-action). It asks
 * the app what each order can print (`/api/printable-orders`), offers the documents as a choice, names the
 * orders a document leaves out and why, and sets `src` to the chosen document's address: Shopify's admin
 * fetches it from the app with the session token, shows it and prints it.
 */
export default async () => {
  render(<PrintAction />, document.body);
};

type Load = { state: "loading" } | { state: "failed"; message: string } | { state: "loaded"; orders: PrintableOrder[] };

const number = (gid: string) => gid.slice(gid.lastIndexOf("/") + 1);

async function loadPrintable(ids: readonly string[]): Promise<Load> {
  try {
    const response = await fetch(`/api/printable-orders?${new URLSearchParams({ orders: ids.join(",") }).toString()}`);
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = body && typeof body === "object" && "error" in body ? String(body.error) : `Consign answered ${response.status}.`;
      return { state: "failed", message: error };
    }
    const view = PrintableOrdersView.safeParse(body);
    return view.success
      ? { state: "loaded", orders: view.data.orders }
      : { state: "failed", message: "Consign answered in a form this print action does not understand. Close it and print again." };
  } catch {
    return { state: "failed", message: "Consign could not be reached. Close this and print again." };
  }
}

function PrintAction() {
  const ids = shopify.data.selected.map((item) => number(item.id));
  // One module, two targets: the type names the order page's, the admin says which one is running.
  const selection = (shopify.extension.target as string) === "admin.order-index.selection-print-action.render";
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [chosen, setChosen] = useState<PrintDocument | null>(null);
  const key = ids.join(",");
  useEffect(() => {
    if (ids.length > 0) void loadPrintable(ids).then(setLoad);
    else setLoad({ state: "failed", message: "Select the orders to print first." });
    // The selection is the admin's; it changes only with a new render of the extension.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const orders = load.state === "loaded" ? load.orders : [];
  // The pick list gathers several orders' items; on one order's page the slip lists them already.
  const offered: PrintDocument[] = selection ? ["labels", "slips", "invoices", "pick-list"] : ["labels", "slips", "invoices"];
  const printable = (document: PrintDocument) => orders.filter((order) => order.documents.includes(document));
  const available = offered.filter((document) => printable(document).length > 0);
  const document = chosen && available.includes(chosen) ? chosen : (available[0] ?? null);
  const included = document ? printable(document) : [];
  const src =
    document && included.length > 0
      ? printPath(
          document,
          included.map((order) => order.id),
        )
      : undefined;
  const left = document ? orders.filter((order) => !order.documents.includes(document)) : [];
  const reasonOf = (order: PrintableOrder) => order.missing.find((missing) => missing.document === document)?.reason ?? "";

  return (
    <s-admin-print-action src={src}>
      <s-stack gap="base">
        {load.state === "loading" && <s-spinner accessibilityLabel="Reading what Consign can print" />}
        {load.state === "failed" && (
          <s-banner tone="critical" heading="Consign's documents could not be loaded">
            <s-paragraph>{load.message}</s-paragraph>
          </s-banner>
        )}
        {load.state === "loaded" && available.length === 0 && (
          <s-banner tone="warning" heading="Nothing to print from Consign yet">
            {orders.map((order) => (
              <s-paragraph key={order.id}>
                {order.name}: {order.missing[0]?.reason ?? ""}
              </s-paragraph>
            ))}
          </s-banner>
        )}
        {document && (
          <s-choice-list
            label="Document"
            name="document"
            values={[document]}
            onChange={(event) => {
              const value = event.currentTarget.values[0];
              if (value && (offered as string[]).includes(value)) setChosen(value as PrintDocument);
            }}
          >
            {offered.map((option) => {
              const count = printable(option).length;
              return (
                <s-choice key={option} value={option} disabled={count === 0}>
                  {PRINT_DOCUMENT_NAMES[option]}
                  {selection && ` (${count} of ${orders.length} ${orders.length === 1 ? "order" : "orders"})`}
                </s-choice>
              );
            })}
          </s-choice-list>
        )}
        {document && left.length > 0 && (
          <s-banner
            tone="warning"
            heading={`${left.length === 1 ? "One order is" : `${left.length} orders are`} left out of the ${PRINT_DOCUMENT_NAMES[document].toLowerCase()}`}
          >
            {left.map((order) => (
              <s-paragraph key={order.id}>
                {order.name}: {reasonOf(order)}
              </s-paragraph>
            ))}
          </s-banner>
        )}
      </s-stack>
    </s-admin-print-action>
  );
}
