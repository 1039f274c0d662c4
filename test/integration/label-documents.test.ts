import { describe, expect, it } from "vitest";
import type { Shipment } from "@prisma/client";
import { useAppEnvironment } from "../support/app-env";
import { useConnectedShop } from "../support/connected-shop";
import { buildFulfillmentOrder, buildLine, buildMirroredOrder, buildOrder } from "../factories/orders";
import { buildInternationalOrder } from "../factories/shipments";
import { pageTexts } from "../../service/labels/test-pdf";
import { readPages, textOffPage } from "../../lib/pdf/read-back";
import { startService, type RunningService } from "../support/service-harness";
import { ratesOf } from "../support/stored-rates";

// What the merchant prints: the batch's label PDF and a single booking's label, downloaded through the app's
// own functions from the real service, read back page by page.
const service: RunningService = await startService();
const { databaseUrl } = useAppEnvironment({ SHIPPING_API_URL: service.baseUrl });
const { default: prisma } = await import("../../app/db/db.server");
const { shippingContext } = await import("../factories/context");
const { createBatches } = await import("../../app/booking/creation.server");
const booking = await import("../../app/booking/batch-booking.server");
const single = await import("../../app/booking/single-booking.server");
const { parseBookingForm } = await import("../../app/booking/book-request");
const { batchPrintJob, shipmentPrintJob } = await import("../../app/documents/print-job.server");
const { saveMirroredOrders } = await import("../../app/orders/mirror-store.server");

const SHOP = "label-documents.myshopify.com";
const connected = await useConnectedShop({ service, db: prisma, databaseUrl, shop: SHOP, settings: { labelFormat: "PDF" } });

const context = () => shippingContext(prisma, SHOP, service.clock.now());

/** An order to London with two lines of different origins: a mug from Portugal, two aprons from Lithuania. */
const twoLineInternationalOrder = () =>
  buildInternationalOrder({
    fulfillmentOrders: [
      buildFulfillmentOrder({
        lines: [
          buildLine(),
          buildLine({ productTitle: "Linen apron", unitPrice: "42.00", hsCode: "621149", countryOfOrigin: "LT", remainingQuantity: 2, totalQuantity: 2 }),
        ],
      }),
    ],
  });

async function bookedBatch(name: string, shipments: readonly Shipment[]): Promise<{ pages: string[][]; booked: Shipment[]; batchId: string }> {
  const ctx = await context();
  const created = await createBatches(ctx, { name, shipmentIds: shipments.map((shipment) => shipment.id) });
  expect(created.errors).toEqual([]);
  const batchId = created.batches[0]!.id;
  expect(await booking.bookBatch(ctx, batchId)).toMatchObject({ ok: true, booked: shipments.length, failed: 0 });
  const labels = await booking.batchLabels(ctx, batchId);
  if (!labels.ok) throw new Error(labels.message);
  const byId = new Map((await prisma.shipment.findMany({ where: { batchId } })).map((row) => [row.id, row]));
  return { pages: await pageTexts(labels.pdf), booked: shipments.map((shipment) => byId.get(shipment.id)!), batchId };
}

const isInvoice = (page: readonly string[]) => page[0] === "COMMERCIAL INVOICE" || page[0] === "COMMERCIAL INVOICE (CONTINUED)";

/** A label page prints one reference, the order's name, and nothing of the app's own ids. */
function expectOneHumanReference(page: readonly string[], shipment: Shipment) {
  expect(
    page.filter((text) => text.startsWith("REF")),
    page.join(" | "),
  ).toEqual([`REF ${shipment.orderName}`]);
  expect(page.filter((text) => text.includes(shipment.orderName))).toHaveLength(1);
  const printed = page.join(" ");
  expect(printed).not.toContain(shipment.id);
  expect(printed).not.toMatch(/gid:\/\/|\bc[a-z0-9]{20,}\b/);
}

describe("the batch's label PDF", () => {
  it("GIVEN a batch of domestic and international orders WHEN booked THEN one PDF in the batch's order: each label, and right after each international label its commercial invoice; each label prints the order's name once and no internal id", async () => {
    const shipments = await connected.quoted({ orders: [buildOrder(), twoLineInternationalOrder(), buildOrder(), buildInternationalOrder()] });
    const { pages, booked } = await bookedBatch("Mixed paperwork", shipments);

    expect(pages.map((page) => (isInvoice(page) ? "invoice" : "label"))).toEqual(["label", "label", "invoice", "label", "label", "invoice"]);
    const [domestic1, international1, invoice1, domestic2, international2, invoice2] = pages;
    [domestic1, international1, domestic2, international2].forEach((page, index) => {
      expect(page).toContain(booked[index]!.trackingNumber);
      expectOneHumanReference(page!, booked[index]!);
    });
    expect(invoice1).toContain(`Tracking ${booked[1]!.trackingNumber}`);
    expect(invoice2).toContain(`Tracking ${booked[3]!.trackingNumber}`);

    // The invoice is the one the app sent: items, HS codes, origins, values and the currency, the total.
    expect(invoice1).toEqual(
      expect.arrayContaining([
        `Invoice / package marks ${booked[1]!.orderName}`,
        "Grace Hopper",
        "London",
        "SW1A 2AA",
        "United Kingdom",
        "Terms of trade DAP   Currency USD   Export US to GB",
        "UNIT (USD)",
        "VALUE (USD)",
        "Ceramic mug",
        "691200",
        "PT",
        "18.00",
        "Linen apron",
        "621149",
        "LT",
        "42.00",
        "84.00",
        "USD 102.00",
        "Shipper Consign Test Warehouse",
      ]),
    );
    expect(invoice1).toContain("Units 3   Packages 1");
    // The parcel's actual weight as booked, and the goods' weight: each line's, summed.
    const weight = (prefix: string) => Number(/ (\d+(?:\.\d+)?) (?:lb|kg)$/.exec(invoice1!.find((text) => text.startsWith(prefix)) ?? "")?.[1]);
    const lineWeights = invoice1!.filter((text) => /^\d+(\.\d+)? (lb|kg)$/.test(text)).map((text) => Number(text.split(" ")[0]));
    expect(lineWeights).toHaveLength(2);
    expect(weight("Net weight (goods)")).toBeCloseTo(lineWeights[0]! + lineWeights[1]!, 3);
    expect(weight("Gross weight (parcel)")).toBeGreaterThanOrEqual(weight("Net weight (goods)"));
    expect(invoice1!.join(" ")).toContain(
      "I declare that the information on this invoice is true and correct, and that the contents of this shipment are as stated above.",
    );
    expect(invoice2).toEqual(expect.arrayContaining(["Ceramic mug", "691200", "PT", "18.00", "USD 18.00"]));
    expect(invoice2).not.toContain("Linen apron");
  });

  it("GIVEN a batch of domestic orders only WHEN booked THEN its PDF has one label page per order and no invoice page", async () => {
    const shipments = await connected.quoted({ count: 3, serviceCode: "BLP_GROUND" });
    const { pages, booked } = await bookedBatch("Domestic only", shipments);
    expect(pages).toHaveLength(3);
    expect(pages.some(isInvoice)).toBe(false);
    expect(pages.flat().some((text) => text.includes("INVOICE"))).toBe(false);
    pages.forEach((page, index) => expectOneHumanReference(page, booked[index]!));
  });
});

describe("a batch's print job", () => {
  const isSlip = (page: readonly string[]) => page[0] === "PACKING SLIP";
  const kind = (page: readonly string[]) => (isInvoice(page) ? "invoice" : isSlip(page) ? "slip" : "label");

  it("GIVEN a booked batch of domestic and international orders WHEN printed with packing slips THEN each order's label, its invoice, then its slip, in the batch's order; slips alone and the pick list print the same orders", async () => {
    // As quoting does, the orders are read into the mirror first: slips and the pick list take products from it.
    const note = "Please leave the parcel with the neighbour at number 12 if nobody is home, not on the porch by the garden gate.";
    const gift = "Happy birthday, Sam! A tote for the farmers' market on Saturdays. Love, Aunt Ruth";
    const orders = [
      buildMirroredOrder({
        ...buildOrder(),
        note,
        customAttributes: [
          { key: "gift_wrap", value: "yes" },
          { key: "Gift message", value: gift },
        ],
      }),
      buildMirroredOrder(twoLineInternationalOrder()),
      buildMirroredOrder(buildOrder()),
    ];
    await saveMirroredOrders({ db: prisma, shop: SHOP, now: () => service.clock.now() }, orders);
    const shipments = await connected.quoted({ orders });
    const { booked, batchId } = await bookedBatch("Printed with slips", shipments);
    const ctx = await context();

    const job = await batchPrintJob(ctx, batchId, "labels-and-slips");
    if (!job.ok) throw new Error(job.message);
    const pages = await pageTexts(job.pdf);
    expect(pages.map(kind)).toEqual(["label", "slip", "label", "invoice", "slip", "label", "slip"]);
    const slips = pages.filter(isSlip);
    const labels = pages.filter((page) => kind(page) === "label");
    booked.forEach((shipment, index) => {
      expect(labels[index]).toContain(shipment.trackingNumber);
      expect(slips[index]).toContain(shipment.orderName);
    });
    // The international order's slip lists its two lines with their quantities and the service by name.
    expect(slips[1]).toEqual(expect.arrayContaining(["Linen apron", "2", "1"]));
    expect(slips[1]!.some((text) => text.startsWith("Shipping: ") && !/_/.test(text))).toBe(true);
    expect(slips[1]).toContain("United Kingdom");
    // The first order's note and gift message, from the mirror, wrapped and whole; the others have neither.
    expect(slips[0]).toEqual(expect.arrayContaining(["Note", "Gift message"]));
    const first = slips[0]!.join(" ");
    expect(first).toContain(note);
    expect(first).toContain(gift);
    expect(slips[1]).not.toContain("Gift message");
    // The order's date in the one format every page uses ("Nov 27, 2026", the shop's day), not a second one.
    const ONE_DATE_FORMAT = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;
    for (const slip of slips) expect(slip.filter((text) => ONE_DATE_FORMAT.test(text))).toHaveLength(1);
    expect(textOffPage(await readPages(job.pdf))).toEqual([]);

    const slipsOnly = await batchPrintJob(ctx, batchId, "slips");
    if (!slipsOnly.ok) throw new Error(slipsOnly.message);
    expect((await pageTexts(slipsOnly.pdf)).map((page) => page.find((text) => text.startsWith("#")))).toEqual(booked.map((shipment) => shipment.orderName));

    const pickList = await batchPrintJob(ctx, batchId, "pick-list");
    if (!pickList.ok) throw new Error(pickList.message);
    const [pick] = await pageTexts(pickList.pdf);
    expect(pick![0]).toBe("PICK LIST");
    expect(pick).toContain("Printed with slips");
    expect(pick!.some((text) => /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/.test(text))).toBe(true);
    expect(pick!.join(" ")).toContain(booked[1]!.orderName);
  });

  it("GIVEN a batch not booked yet WHEN its slips are asked for THEN a sentence saying when they print, no PDF", async () => {
    const shipments = await connected.quoted({ count: 1, serviceCode: "BLP_GROUND" });
    const ctx = await context();
    const created = await createBatches(ctx, { name: "Not booked", shipmentIds: shipments.map((shipment) => shipment.id) });
    expect(await batchPrintJob(ctx, created.batches[0]!.id, "slips")).toEqual({
      ok: false,
      message: "Packing slips and the pick list print once the batch is booked.",
    });
  });
});

describe("a single booking's label", () => {
  function form(shipment: Shipment, quoteId: number, fields: Record<string, string> = {}) {
    const parsed = parseBookingForm(new URLSearchParams({ shipmentId: shipment.id, quoteId: String(quoteId), labelFormat: "PDF", ...fields }));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.fieldErrors));
    return parsed.value;
  }

  it("GIVEN a domestic order booked on its own (its id sent as the second reference) WHEN its label downloads THEN one page with the order's name once and no internal id", async () => {
    const [shipment] = await connected.quoted({ count: 1, serviceCode: "BLP_GROUND" });
    const ctx = await context();
    const quote = (await ratesOf(prisma, shipment!.id)).find((rate) => rate.serviceCode === "BLP_GROUND")!;
    expect(await single.bookSingleShipment(ctx, form(shipment!, quote.quoteId))).toMatchObject({ ok: true });
    const label = await single.shipmentLabel(ctx, shipment!.id);
    if (!label.ok) throw new Error(label.message);
    const pages = await pageTexts(label.body);
    expect(pages).toHaveLength(1);
    expectOneHumanReference(pages[0]!, shipment!);

    // The same order's label with its packing slip after it, and its slip alone.
    const withSlip = await shipmentPrintJob(ctx, shipment!.id, "labels-and-slips");
    if (!withSlip.ok) throw new Error(withSlip.message);
    const slipPages = await pageTexts(withSlip.body);
    expect(slipPages.map((page) => page[0])).toEqual([expect.not.stringMatching(/PACKING SLIP/), "PACKING SLIP"]);
    expect(slipPages[1]).toContain(shipment!.orderName);
    const slipOnly = await shipmentPrintJob(ctx, shipment!.id, "slips");
    expect(slipOnly.ok && (await pageTexts(slipOnly.body)).map((page) => page[0])).toEqual(["PACKING SLIP"]);
  });

  it("GIVEN an international order whose invoice was edited before booking WHEN its label downloads THEN the label, then its commercial invoice as booked", async () => {
    const [shipment] = await connected.quoted({ orders: [buildInternationalOrder()] });
    const ctx = await context();
    const quote = (await ratesOf(prisma, shipment!.id)).find((rate) => rate.serviceCode === "MRX_INTERNATIONAL_PRIORITY")!;
    const outcome = await single.bookSingleShipment(
      ctx,
      form(shipment!, quote.quoteId, {
        termsOfTrade: "DDP",
        "items[0].description": "Stoneware mug, glazed",
        "items[0].quantity": "2",
        "items[0].unitValue": "24.50",
        "items[0].htsNumber": "6912.00",
        "items[0].countryOfOrigin": "PT",
      }),
    );
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    const label = await single.shipmentLabel(ctx, shipment!.id);
    if (!label.ok) throw new Error(label.message);
    const pages = await pageTexts(label.body);
    expect(pages.map((page) => (isInvoice(page) ? "invoice" : "label"))).toEqual(["label", "invoice"]);
    expectOneHumanReference(pages[0]!, shipment!);
    expect(pages[1]).toEqual(
      expect.arrayContaining([
        `Tracking ${outcome.trackingNumber}`,
        "Terms of trade DDP   Currency USD   Export US to GB",
        "Stoneware mug, glazed",
        "2",
        "6912.00",
        "PT",
        "24.50",
        "49.00",
        "USD 49.00",
      ]),
    );
    expect(pages[1]).not.toContain("Ceramic mug");
  });

  it("GIVEN an international order booked with a ZPL label WHEN its label downloads THEN one ZPL file: the label, then its invoice as a further label", async () => {
    const [shipment] = await connected.quoted({ orders: [buildInternationalOrder()] });
    const ctx = await context();
    const quote = (await ratesOf(prisma, shipment!.id)).find((rate) => rate.serviceCode === "MRX_INTERNATIONAL_PRIORITY")!;
    expect(await single.bookSingleShipment(ctx, form(shipment!, quote.quoteId, { labelFormat: "ZPL" }))).toMatchObject({ ok: true });
    const label = await single.shipmentLabel(ctx, shipment!.id);
    if (!label.ok) throw new Error(label.message);
    const zpl = label.body.toString("utf8");
    const formats = zpl.split("^XZ").filter((format) => format.includes("^XA"));
    expect(formats).toHaveLength(2);
    expect(formats[0]).toContain(`^FDREF ${shipment!.orderName}^FS`);
    expect(formats[0]).not.toContain(shipment!.id);
    expect(zpl).toMatch(/\^FD {2}Qty 1 {3}HS 691200 {3}Origin PT {3}Weight \d+(\.\d+)? (lb|kg)\^FS/);
    for (const text of ["COMMERCIAL INVOICE", "Ceramic mug", "  Unit 18.00   Value 18.00 USD", "TOTAL VALUE USD 18.00"])
      expect(formats[1]).toContain(`^FD${text}^FS`);
  });
});
