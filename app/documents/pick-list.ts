import { type PageContent, type PageSize, PdfBuilder } from "../../lib/pdf/page-content";

/**
 * A batch's pick list: every SKU once, with its product and variant, the quantity the whole batch needs, and
 * the orders that need it ("#1001 × 2, #1004"), sorted by SKU, and by location first when the batch ships from
 * several, so the picker walks each location once. Each row has a box to tick.
 */
export interface PickListEntry {
  sku: string;
  product: string;
  variant: string | null;
  quantity: number;
  orderName: string;
  /** The location the line ships from, by name; null when the shop has one. */
  location: string | null;
}

export interface PickListRow {
  location: string | null;
  sku: string;
  product: string;
  variant: string | null;
  total: number;
  orders: { orderName: string; quantity: number }[];
}

const compare = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true, sensitivity: "base" });

/** The rows of a pick list: one per location and SKU (a line without a SKU is its own product and variant). */
export function pickListRows(entries: readonly PickListEntry[]): PickListRow[] {
  const rows = new Map<string, PickListRow>();
  for (const entry of entries) {
    const key = JSON.stringify([entry.location, entry.sku || `${entry.product}\u0000${entry.variant ?? ""}`]);
    let row = rows.get(key);
    if (!row) {
      row = { location: entry.location, sku: entry.sku, product: entry.product, variant: entry.variant, total: 0, orders: [] };
      rows.set(key, row);
    }
    row.total += entry.quantity;
    const order = row.orders.find((each) => each.orderName === entry.orderName);
    if (order) order.quantity += entry.quantity;
    else row.orders.push({ orderName: entry.orderName, quantity: entry.quantity });
  }
  return [...rows.values()].sort((a, b) => compare(a.location ?? "", b.location ?? "") || compare(a.sku, b.sku) || compare(a.product, b.product));
}

export interface PickList {
  title: string;
  /** When it was printed, as the merchant reads it. */
  printed: string;
  entries: readonly PickListEntry[];
}

export async function renderPickList(size: PageSize, list: PickList, created: Date): Promise<Uint8Array> {
  const builder = await PdfBuilder.create({ title: `Pick list: ${list.title}`, producer: "Consign", created });
  for (const page of pickListPages(builder, size, list)) builder.add(page);
  return builder.save();
}

function pickListPages(builder: PdfBuilder, size: PageSize, list: PickList): PageContent[] {
  const small = size.width < 400;
  const margin = small ? 14 : 40;
  const body = small ? 7.5 : 9.5;
  const width = size.width - 2 * margin;
  const rows = pickListRows(list.entries);
  const locations = new Set(rows.map((row) => row.location));
  const columns = { tick: margin, sku: margin + body * 2, skuWidth: width * 0.22, quantityRight: margin + width * 0.22 + body * 2 + body * 3.5 };
  const item = { left: columns.quantityRight + body, width: 0 };
  item.width = (size.width - margin - item.left) * 0.55;
  const orders = { left: item.left + item.width + body, width: size.width - margin - (item.left + item.width + body) };
  const pages: PageContent[] = [];
  let page = builder.page(size, margin);
  let y = 0;

  const header = () => {
    page = builder.page(size, margin);
    pages.push(page);
    y = size.height - margin - body * 1.8;
    page.text("PICK LIST", margin, y, body * 1.8, true);
    page.rightText(list.printed, page.right, y, body);
    y = page.block(list.title, margin, y - body * 1.6, width, body * 1.1, body * 0.8, true);
    y -= body * 0.8;
    page.text("SKU", columns.sku, y - body, body * 0.8, true);
    page.rightText("QTY", columns.quantityRight, y - body, body * 0.8, true);
    page.text("PRODUCT / VARIANT", item.left, y - body, body * 0.8, true);
    page.text("ORDERS", orders.left, y - body, body * 0.8, true);
    y -= body * 1.5;
    page.rule(y, 0.75);
  };

  header();
  let location: string | null | undefined;
  const units = rows.reduce((sum, row) => sum + row.total, 0);
  for (const row of rows) {
    const product = row.variant ? `${row.product} — ${row.variant}` : row.product;
    const orderText = row.orders.map((order) => (order.quantity > 1 ? `${order.orderName} × ${order.quantity}` : order.orderName)).join(", ");
    const fits = [
      page.fit(row.sku || "-", columns.skuWidth, body, body * 0.75),
      page.fit(product, item.width, body, body * 0.75),
      page.fit(orderText, orders.width, body, body * 0.75),
    ];
    const height =
      Math.max(...fits.map((fit) => fit.lines.length * fit.size * 1.2)) + body * 0.8 + (locations.size > 1 && row.location !== location ? body * 2 : 0);
    if (y - height < margin + body) header();
    if (locations.size > 1 && row.location !== location) {
      location = row.location;
      y -= body * 1.6;
      page.text(location ?? "No location", margin, y, body * 1.1, true);
    }
    const top = y - body * 1.3;
    page.strokeRect(columns.tick, top - body * 0.15, body * 0.9, body * 0.9, 0.6);
    const bottoms = [
      page.block(row.sku || "-", columns.sku, top, columns.skuWidth, body, body * 0.75, true),
      page.block(product, item.left, top, item.width, body, body * 0.75),
      page.block(orderText, orders.left, top, orders.width, body, body * 0.75),
    ];
    page.rightText(String(row.total), columns.quantityRight, top, body, true);
    y = Math.min(...bottoms) - body * 0.5;
    page.rule(y, 0.25);
  }
  if (y - body * 2 < margin) header();
  y -= body * 1.5;
  page.text(`${rows.length} ${rows.length === 1 ? "SKU" : "SKUs"}, ${units} ${units === 1 ? "unit" : "units"}`, margin, y, body, true);
  pages.forEach((each, index) => each.rightText(`Page ${index + 1} of ${pages.length}`, each.right, margin, body * 0.8));
  return pages;
}
