import { describe, expect, it } from "vitest";
import type { Shipment } from "@prisma/client";
import { useAppEnvironment } from "../support/app-env";
import { useConnectedShop } from "../support/connected-shop";
import { buildOrder } from "../factories/orders";
import { buildInternationalOrder } from "../factories/shipments";
import { pageTexts } from "../../service/labels/test-pdf";
import { startService, type RunningService } from "../support/service-harness";

// A return label in the box (issue 24 §5, docs/decisions/044) on real parts: the Shipping API service (its scan-based
// return service, NPS Ground Return, picks up in the US only) and the app's database. A batch of two domestic orders
// and one to London is booked with "Put a return label in the box" on.
const service: RunningService = await startService();
const { databaseUrl } = useAppEnvironment({ SHIPPING_API_URL: service.baseUrl });
const { default: prisma } = await import("../../app/db/db.server");
const { shippingContext } = await import("../factories/context");
const { createBatches } = await import("../../app/booking/creation.server");
const booking = await import("../../app/booking/batch-booking.server");
const { openBatch } = await import("../../app/booking/batches.server");
const { boxReturnLabelsJob } = await import("../../app/booking/box-return-job");
const { bookBoxReturnLabels } = await import("../../app/returns/box-return.server");
const { batchPrintJob } = await import("../../app/documents/print-job.server");
const { printOrders } = await import("../../app/documents/order-print.server");
const { loadSettings, saveSettings } = await import("../../app/settings/account.server");
const { processJobs } = await import("../../app/context.server");
const { orderNumber } = await import("../../app/shopify/gid");

const SHOP = "box-returns.myshopify.com";
const connected = await useConnectedShop({ service, db: prisma, databaseUrl, shop: SHOP, settings: { labelFormat: "PDF" } });
const context = () => shippingContext(prisma, SHOP, service.clock.now());

/** Books the shipments as one batch and waits for the return labels' job its results sent. */
async function bookedBatch(name: string, shipments: readonly Shipment[]): Promise<string> {
  const ctx = await context();
  const created = await createBatches(ctx, { name, shipmentIds: shipments.map((shipment) => shipment.id) });
  expect(created.errors).toEqual([]);
  const batchId = created.batches[0]!.id;
  expect(await booking.bookBatch(ctx, batchId)).toMatchObject({ ok: true, booked: shipments.length, failed: 0 });
  await processJobs().drained(boxReturnLabelsJob, { shop: SHOP });
  return batchId;
}

const ledgerCharges = (bookNumbers: readonly string[]) =>
  bookNumbers.flatMap(
    (reference) => service.db.statement(`SELECT kind, amountCents FROM LedgerEntry WHERE kind = 'charge' AND reference = ?`).all(reference) as unknown[],
  );

const boxReturnOf = (outbound: Shipment) => prisma.shipment.findFirst({ where: { shop: SHOP, kind: "RETURN", inBoxOf: outbound.id } });

describe("a return label in the box", () => {
  it("GIVEN the setting on WHEN a batch of two domestic orders and one to London is booked THEN each domestic order gets one scan-based return label from its customer to the shop, printed right after its own label, costing nothing; the London order gets its label and a note saying why no return label", async () => {
    const ctx = await context();
    const settings = await loadSettings(ctx);
    await saveSettings(ctx, { ...settings, returnLabelInBox: true });
    const shipments = await connected.quoted({ orders: [buildOrder(), buildInternationalOrder(), buildOrder()] });
    const batchId = await bookedBatch("With return labels", shipments);

    const outbound = await Promise.all(shipments.map((shipment) => prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })));
    expect(outbound.map((row) => [row.bookingStatus, row.boxReturn])).toEqual([
      ["BOOKED", "ADDED"],
      ["BOOKED", "SKIPPED"],
      ["BOOKED", "ADDED"],
    ]);
    // The outbound labels went on to Shopify's write-back as any booking does.
    expect(outbound.every((row) => row.fulfillmentStatus !== "NONE")).toBe(true);
    expect(outbound[1]!.boxReturnNote).toBe(
      "none of your return services offers scan-based labels from United Kingdom. If the customer asks for a return, get a label from Returns.",
    );
    const returns = [await boxReturnOf(outbound[0]!), await boxReturnOf(outbound[2]!)].map((row) => row!);
    expect(await boxReturnOf(outbound[1]!)).toBeNull();
    for (const [index, label] of [
      [0, returns[0]!],
      [2, returns[1]!],
    ] as const) {
      expect(label).toMatchObject({
        kind: "RETURN",
        returnId: null,
        orderId: outbound[index]!.orderId,
        bookingStatus: "BOOKED",
        scanBased: true,
        carrierCode: "NPS",
        serviceCode: "NPS_GROUND_RETURN",
        shippingCost: "0.00",
        fulfillmentStatus: "PENDING",
        batchId: null,
      });
      const request = JSON.parse(label.request) as { sender: unknown; receiver: { name: string }; pieces: Array<{ weight: string }> };
      const sent = JSON.parse(outbound[index]!.request) as { sender: { name: string }; receiver: unknown; pieces: Array<{ weight: string }> };
      expect(request.sender).toEqual(sent.receiver);
      expect(request.receiver.name).toBe(sent.sender.name);
      expect(Number(request.pieces[0]!.weight)).toBeCloseTo(
        sent.pieces.reduce((sum, piece) => sum + Number(piece.weight), 0),
        2,
      );
    }

    // The combined labels: each order's label, then its return label; the London label with its invoice and no return label.
    const labels = await batchPrintJob(ctx, batchId, "labels");
    if (!labels.ok) throw new Error(labels.message);
    const pages = (await pageTexts(labels.pdf)).map((page) => page.join(" "));
    const numbers = [outbound[0]!, returns[0]!, outbound[1]!, outbound[2]!, returns[1]!].map((row) => row.trackingNumber!);
    const labelPages = pages.filter((page) => !page.startsWith("COMMERCIAL INVOICE"));
    expect(labelPages).toHaveLength(5);
    labelPages.forEach((page, index) => expect(page, `label ${index + 1}`).toContain(numbers[index]));
    expect(pages.findIndex((page) => page.includes(numbers[1]!))).toBe(pages.findIndex((page) => page.includes(numbers[0]!)) + 1);

    // Shopify's Print menu prints an order's label with its return label after it.
    const printed = await printOrders(ctx, "labels", [orderNumber(outbound[2]!.orderId)]);
    if (!printed.ok) throw new Error(printed.message);
    const printedPages = (await pageTexts(printed.pdf)).map((page) => page.join(" "));
    expect(printedPages).toHaveLength(2);
    expect(printedPages[0]).toContain(numbers[3]);
    expect(printedPages[1]).toContain(numbers[4]);

    // The outbound labels are charged; the unused return labels are not.
    expect(ledgerCharges(outbound.map((row) => row.bookNumber!))).toHaveLength(3);
    expect(ledgerCharges(returns.map((row) => row.bookNumber!))).toEqual([]);

    // The batch page says, per order, what happened to its return label.
    const view = await openBatch(ctx, batchId);
    expect(view.lines.map((line) => line.returnLabel)).toEqual([
      {
        state: "added",
        note: `Return label added (tracking ${numbers[1]}). It prints after this label and costs nothing unless the customer sends it.`,
      },
      { state: "none", note: `No return label: ${outbound[1]!.boxReturnNote}` },
      {
        state: "added",
        note: `Return label added (tracking ${numbers[4]}). It prints after this label and costs nothing unless the customer sends it.`,
      },
    ]);

    // Run again (a second job, a sweep): nothing more is booked.
    expect(await bookBoxReturnLabels(ctx)).toEqual({ added: 0, skipped: 0, pending: 0 });
    expect(await prisma.shipment.count({ where: { shop: SHOP, kind: "RETURN" } })).toBe(2);
  });

  it("GIVEN the setting off (the default) WHEN a batch is booked THEN no return label is asked for and the labels are the service's", async () => {
    const ctx = await context();
    await saveSettings(ctx, { ...(await loadSettings(ctx)), returnLabelInBox: false });
    const before = await prisma.shipment.count({ where: { shop: SHOP, kind: "RETURN" } });
    const shipments = await connected.quoted({ orders: [buildOrder()] });
    const batchId = await bookedBatch("Without return labels", shipments);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipments[0]!.id } })).toMatchObject({ bookingStatus: "BOOKED", boxReturn: null });
    expect(await prisma.shipment.count({ where: { shop: SHOP, kind: "RETURN" } })).toBe(before);
    expect((await openBatch(ctx, batchId)).lines[0]!.returnLabel).toBeNull();
    const labels = await batchPrintJob(ctx, batchId, "labels");
    expect(labels.ok && (await pageTexts(labels.pdf)).length).toBe(1);
  });
});
