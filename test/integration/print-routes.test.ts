import { afterAll, describe, expect, it } from "vitest";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments";
import { buildMirroredOrder } from "../factories/orders";
import { EXTENSION_ORIGIN, appRequest, callRoute, forgedSessionToken } from "../support/route-call";
import { pageTexts } from "../../lib/pdf/read-back";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";

// The print actions' routes as Shopify's admin calls them: the extension asks what the orders can print
// (/api/printable-orders), and the admin fetches the document its src names (/api/print/:document), each with
// a Bearer session token the local admin signed, cross-origin. The bookings are real ones on the real service;
// the PDFs are read back page by page.
const { service, harness, customer, close } = await startServiceAndAdmin({ orders: 8 });
afterAll(close);
const { default: prisma } = await import("../../app/db/db.server");
const { saveMirroredOrders } = await import("../../app/orders/mirror-store.server");
const printable = await import("../../app/routes/api.printable-orders");
const print = await import("../../app/routes/api.print.$document");
const { PrintableOrdersView } = await import("../../app/documents/print-actions-view");

// Three booked orders, the second to London with its commercial invoice, and a fourth not booked.
const [first, second, third, fourth] = shippableFulfillmentOrders(harness.admin.store, 4);
const booked = await createBookedShipments({
  db: prisma,
  shop: SHOP,
  client: service.clientFor(customer),
  fulfillmentOrders: [first!, second!, third!],
  international: [1],
});
const numbers = booked.map((shipment) => shipment.orderId.split("/").pop()!);
const unbooked = { number: fourth!.orderId.split("/").pop()!, name: fourth!.orderName };
await saveMirroredOrders({ db: prisma, shop: "another-shop.myshopify.com", now: () => new Date() }, [
  buildMirroredOrder({ id: "gid://shopify/Order/7103", name: "#7103" }),
]);

async function ask(orders: string) {
  const request = await appRequest(harness.admin, `/api/printable-orders?${new URLSearchParams({ orders }).toString()}`, {
    headers: { origin: EXTENSION_ORIGIN },
  });
  return callRoute(printable.loader, request);
}

// The first authenticated request installs the app, whose first order sync reads the store's orders into the mirror.
await ask(numbers[0]!);
for (let waited = 0; !(await prisma.mirrorOrder.findFirst({ where: { shop: SHOP, id: fourth!.orderId } })); waited += 100) {
  if (waited > 30_000) throw new Error("the order mirror's first sync did not read the unbooked order");
  await new Promise((resolve) => setTimeout(resolve, 100));
}

async function printed(document: string, orders: string, headers: Record<string, string> = {}) {
  const request = await appRequest(harness.admin, `/api/print/${document}?${new URLSearchParams({ orders }).toString()}`, {
    headers: { origin: EXTENSION_ORIGIN, ...headers },
  });
  const response = (await print.loader({ request, params: { document }, context: {} }).catch((thrown: unknown) => thrown)) as Response;
  return response;
}

async function pdfPages(response: Response): Promise<string[][]> {
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/pdf");
  expect(response.headers.get("access-control-allow-origin")).toBe("*");
  return pageTexts(new Uint8Array(await response.arrayBuffer()));
}

const isInvoice = (page: readonly string[]) => page[0]?.startsWith("COMMERCIAL INVOICE") ?? false;

describe("/api/printable-orders", () => {
  it("GIVEN two booked domestic orders, one booked to London and one not booked THEN what each prints and, in words, why not the rest", async () => {
    const answer = await ask([...numbers, unbooked.number].join(","));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    const view = PrintableOrdersView.parse(answer.body);
    expect(view.orders.map((order) => [order.name, order.documents])).toEqual([
      [booked[0]!.orderName, ["labels", "slips", "pick-list"]],
      [booked[1]!.orderName, ["labels", "slips", "invoices", "pick-list"]],
      [booked[2]!.orderName, ["labels", "slips", "pick-list"]],
      [unbooked.name, []],
    ]);
    expect(view.orders[0]!.missing).toEqual([{ document: "invoices", reason: "It ships within the country, so it needs no commercial invoice." }]);
    expect(view.orders[3]!.missing.map((missing) => missing.reason)).toEqual(
      Array(4).fill("Consign has no shipping label for it yet. Select it and choose Create shipping labels, then print."),
    );
  });

  it("GIVEN another shop's order, ids that are no numbers, none or too many THEN 404 / 400 naming the field", async () => {
    const other = await ask(`${numbers[0]},7103`);
    expect(other).toMatchObject({
      status: 404,
      body: { error: `Consign has not seen order 7103 of ${SHOP}. Open Consign once so it reads your orders, then print again.` },
    });
    const field = "Orders must be the orders' numeric ids, separated by commas (e.g. 1001,1002), at most 250";
    for (const bad of ["abc", "", "1001,,1002", "-1", Array.from({ length: 251 }, (_, index) => String(1000 + index)).join(",")]) {
      expect(await ask(bad), bad).toMatchObject({ status: 400, body: { error: field } });
    }
  });
});

describe("/api/print/:document", () => {
  it("GIVEN a selection of three booked orders WHEN their shipping labels print THEN one PDF of each order's label in the selection's order, the London one with its invoice after it", async () => {
    const pages = await pdfPages(await printed("labels", numbers.join(",")));
    expect(pages.map((page) => (isInvoice(page) ? "invoice" : "label"))).toEqual(["label", "label", "invoice", "label"]);
    const labels = pages.filter((page) => !isInvoice(page));
    booked.forEach((shipment, index) => expect(labels[index]).toContain(shipment.trackingNumber));
  });

  it("GIVEN the selection WHEN its commercial invoices print THEN only the London order's invoice pages", async () => {
    const pages = await pdfPages(await printed("invoices", numbers[1]!));
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.every(isInvoice)).toBe(true);
    expect(pages.flat().join(" ")).toContain("Harriet Cole");
    expect(pages.flat()).toEqual(expect.arrayContaining([expect.stringContaining(booked[1]!.trackingNumber!)]));
  });

  it("GIVEN the selection WHEN its packing slips and its pick list print THEN a slip per order in its order, and one pick list naming every order", async () => {
    const slips = await pdfPages(await printed("slips", numbers.join(",")));
    expect(slips.map((page) => page[0])).toEqual(["PACKING SLIP", "PACKING SLIP", "PACKING SLIP"]);
    expect(slips.map((page) => page.find((text) => text.startsWith("#")))).toEqual(booked.map((shipment) => shipment.orderName));

    const pick = await pdfPages(await printed("pick-list", numbers.join(",")));
    expect(pick[0]![0]).toBe("PICK LIST");
    const text = pick.flat().join(" ");
    for (const shipment of booked) expect(text).toContain(shipment.orderName);
  });

  it("GIVEN an order without the document THEN 409 naming it and why; another shop's order 404; a bad document or ids 400 naming the field", async () => {
    const domestic = await printed("invoices", numbers[0]!);
    expect(domestic.status).toBe(409);
    expect(await domestic.json()).toEqual({
      error: `Commercial invoices cannot print for ${booked[0]!.orderName}: It ships within the country, so it needs no commercial invoice.`,
    });
    const notBooked = await printed("labels", `${numbers[0]},${unbooked.number}`);
    expect(notBooked.status).toBe(409);
    expect(((await notBooked.json()) as { error: string }).error).toContain(unbooked.name);
    const other = await printed("labels", "7103");
    expect(other.status).toBe(404);
    expect(JSON.stringify(await other.json())).not.toContain("#7103");
    const document = await printed("receipts", numbers[0]!);
    expect(document.status).toBe(400);
    expect(await document.json()).toEqual({ error: "Document must be one of labels, slips, invoices, pick-list" });
    expect((await printed("labels", "gid://shopify/Order/1")).status).toBe(400);
  });

  it("GIVEN no session token, or one signed with another secret THEN 401 without the document", async () => {
    const forged = await forgedSessionToken();
    const path = `http://localhost:3000/api/print/labels?orders=${numbers[0]}`;
    for (const headers of [{ authorization: `Bearer ${forged}` }, { authorization: "Bearer not-a-token" }]) {
      const answer = await callRoute(print.loader, new Request(path, { headers: { origin: EXTENSION_ORIGIN, ...headers } }), { document: "labels" });
      expect(answer.status).toBe(401);
      expect(answer.headers.get("content-type")).not.toBe("application/pdf");
    }
    const bare = await callRoute(print.loader, new Request(path, { headers: { origin: EXTENSION_ORIGIN } }), { document: "labels" });
    expect(bare.status).toBeGreaterThanOrEqual(300);
    expect(bare.headers.get("content-type")).not.toBe("application/pdf");
  });
});
