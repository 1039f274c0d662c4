import { MODAL_ORDER_LIMIT } from "../../../app/extension/label-run-view";

/**
 * admin.order-index.selection-action.should-render: "Buy shipping labels" shows in More actions unless nothing
 * selected can ship (fulfilled, on hold, cancelled), as the app's `GET /api/label-runs?orders=…` counts it. A
 * selection over the modal's limit shows it: the modal then opens the rates page. When the app cannot be asked,
 * it shows, and the modal says what is wrong.
 */
export default async (): Promise<{ display: boolean }> => {
  const selected = shopify.data.selected.map((resource) => resource.id.slice(resource.id.lastIndexOf("/") + 1));
  if (selected.length === 0) return { display: false };
  if (selected.length > MODAL_ORDER_LIMIT) return { display: true };
  try {
    const response = await fetch(`/api/label-runs?${new URLSearchParams({ orders: selected.join(",") }).toString()}`);
    if (!response.ok) return { display: true };
    const body = (await response.json()) as { shippable?: unknown };
    return { display: typeof body.shippable !== "number" || body.shippable > 0 };
  } catch {
    return { display: true };
  }
};
