import { describe, expect, it } from "vitest";
import { DAY_MS } from "../../service/clock";
import { START, failed, ok } from "../support/service-harness";
import { pageTexts } from "../../service/labels/test-pdf";
import { quoteIds, openBatch, pdfPages, shipment, startServiceWithCustomers } from "./service-endpoints";

// Batch Book and View Batch Labels: every quote booked once, one PDF page per label, the ledger charged.
const { service, alice } = await startServiceWithCustomers();

describe("Batch Book", () => {
  it("GIVEN an open batch THEN every quote is booked, one PDF page per label, completed with counts and processedAt", async () => {
    const { batchId, quoteIds: ids } = await openBatch(alice, 3);
    const response = ok(await alice.client.batchBook({ body: { batchId } }));
    expect(response.results.map((result) => [result.quoteId, result.status])).toEqual(ids.map((id) => [id, "success"]));
    for (const result of response.results) {
      if (result.status !== "success") continue;
      expect(result.trackingNumber).toMatch(/^1Z[0-9A-Z]{16}$/);
      expect(result.zone).toBe("8");
    }
    expect(await pdfPages(response.labelsPdf)).toBe(3);
    expect(Number(response.prepayBalance)).toBeGreaterThan(0);
    const detail = ok(await alice.client.getBatch({ batchId }));
    expect(detail).toMatchObject({ status: "completed", bookedCount: 3, errorCount: 0, processedAt: "2026-11-23 15:00:00" });
    expect(detail.quotes.every((quote) => quote.status === "booked" && quote.bookNumber && quote.trackingNumber)).toBe(true);
  });

  it("GIVEN an expired quote beside a fresh one THEN the expired one fails clearly and stays unbooked; the batch completes", async () => {
    const [old] = await quoteIds(alice, 1);
    service.clock.advance(31 * DAY_MS);
    const [fresh] = await quoteIds(alice, 1);
    service.clock.set(START);
    const batch = ok(await alice.client.createBatch({ body: { name: "mixed", quoteIds: [old!, fresh!] } }));
    service.clock.advance(31 * DAY_MS);
    const response = ok(await alice.client.batchBook({ body: { batchId: batch.batchId } }));
    expect(response.results[0]).toMatchObject({ quoteId: old, status: "error", errorCategory: "QUOTE_EXPIRED", error: expect.stringMatching(/expired/) });
    expect(response.results[1]).toMatchObject({ quoteId: fresh, status: "success" });
    const detail = ok(await alice.client.getBatch({ batchId: batch.batchId }));
    expect(detail).toMatchObject({ status: "completed", bookedCount: 1, errorCount: 1 });
    expect(detail.quotes[0]).toMatchObject({ status: "expired", bookNumber: null, bookingError: expect.stringMatching(/expired/) });
  });

  it("GIVEN every quote fails THEN failed, processedAt set, no prepayBalance, empty labelsPdf", async () => {
    const { batchId } = await openBatch(alice, 2);
    service.clock.advance(30 * DAY_MS);
    const response = ok(await alice.client.batchBook({ body: { batchId } }));
    expect(response.results.every((result) => result.status === "error")).toBe(true);
    expect(response.labelsPdf).toBe("");
    expect(response.prepayBalance).toBeUndefined();
    expect(ok(await alice.client.getBatch({ batchId }))).toMatchObject({ status: "failed", bookedCount: 0, errorCount: 2, processedAt: "2026-12-23 15:00:00" });
  });

  it("GIVEN a cost above the balance THEN that quote fails with INSUFFICIENT_FUNDS and stays active with its bookingError", async () => {
    const poor = await service.createCustomer({ prepaySettings: { minimumBalance: "0", rechargeAmount: "1.00" } });
    const { batchId } = await openBatch(poor, 1);
    const response = ok(await poor.client.batchBook({ body: { batchId } }));
    expect(response.results[0]).toMatchObject({ status: "error", errorCategory: "INSUFFICIENT_FUNDS" });
    expect(ok(await poor.client.getBatch({ batchId })).quotes[0]).toMatchObject({ status: "active", bookingError: expect.stringMatching(/prepay balance/) });
    expect(service.db.statement(`SELECT COUNT(*) AS n FROM Shipment WHERE customerId = ?`).get(poor.customerId)).toEqual({ n: 0 });
  });

  it("GIVEN a batch that is not open, an empty batch or an unknown one THEN 422, 422, 404", async () => {
    const { batchId } = await openBatch(alice, 1);
    ok(await alice.client.batchBook({ body: { batchId } }));
    expect(failed(await alice.client.batchBook({ body: { batchId } }))).toMatchObject({ kind: "unprocessable", status: 422 });
    const cancelled = await openBatch(alice, 1);
    ok(await alice.client.cancelBatch({ batchId: cancelled.batchId }));
    expect(failed(await alice.client.batchBook({ body: { batchId: cancelled.batchId } })).kind).toBe("unprocessable");
    const empty = ok(await alice.client.createBatch({ body: { name: "empty" } }));
    expect(failed(await alice.client.batchBook({ body: { batchId: empty.batchId } }))).toMatchObject({
      kind: "unprocessable",
      message: expect.stringMatching(/no quotes/),
    });
    expect(failed(await alice.client.batchBook({ body: { batchId: 999_999 } })).kind).toBe("not_found");
  });

  it("GIVEN two concurrent Batch Book calls THEN the batch is booked once", async () => {
    const { batchId } = await openBatch(alice, 5);
    const before = (service.db.statement(`SELECT COUNT(*) AS n FROM Shipment`).get() as { n: number }).n;
    const [first, second] = await Promise.all([alice.client.batchBook({ body: { batchId } }), alice.client.batchBook({ body: { batchId } })]);
    expect([first.ok, second.ok].filter(Boolean)).toHaveLength(1);
    const loser = first.ok ? second : first;
    expect(failed(loser).kind).toBe("unprocessable");
    expect((service.db.statement(`SELECT COUNT(*) AS n FROM Shipment`).get() as { n: number }).n).toBe(before + 5);
  });

  it("GIVEN 500 quotes THEN all are booked and the combined PDF has 500 pages under 20 KiB per label", async () => {
    const { batchId } = await openBatch(alice, 500, "five hundred");
    const response = ok(await alice.client.batchBook({ body: { batchId } }));
    expect(response.results.filter((result) => result.status === "success")).toHaveLength(500);
    const pdf = Buffer.from(response.labelsPdf, "base64");
    expect(pdf.length / 500).toBeLessThan(20 * 1024);
    expect(await pdfPages(response.labelsPdf)).toBe(500);
    const numbers = response.results.map((result) => (result.status === "success" ? result.trackingNumber : ""));
    expect(new Set(numbers).size).toBe(500);
  });

  it("charges the ledger per shipment and keeps the balance equal to its entries", async () => {
    const customer = await service.createCustomer({ prepaySettings: { minimumBalance: "100.00", rechargeAmount: "120.00" } });
    const { batchId } = await openBatch(customer, 4);
    const response = ok(await customer.client.batchBook({ body: { batchId } }));
    const entries = service.db
      .statement(`SELECT kind, amountCents, balanceAfterCents FROM LedgerEntry WHERE customerId = ? ORDER BY id`)
      .all(customer.customerId) as { kind: string; amountCents: number; balanceAfterCents: number }[];
    expect(entries.filter((entry) => entry.kind === "charge")).toHaveLength(4);
    // Recharged whenever the balance fell below the 100.00 minimum.
    expect(entries.filter((entry) => entry.kind === "recharge").length).toBeGreaterThan(1);
    const total = entries.reduce((sum, entry) => sum + entry.amountCents, 0);
    expect(entries.at(-1)!.balanceAfterCents).toBe(total);
    expect(Math.round(Number(response.prepayBalance) * 100)).toBe(total);
  });
});

describe("View Batch Labels", () => {
  it("GIVEN a booked batch THEN its labels, one page per booked shipment, later too", async () => {
    const { batchId } = await openBatch(alice, 2);
    const booked = ok(await alice.client.batchBook({ body: { batchId } }));
    service.clock.advance(10 * DAY_MS);
    const { labelsPdf } = ok(await alice.client.getBatchLabels({ batchId }));
    expect(await pdfPages(labelsPdf)).toBe(2);
    // Redrawn from the kept label data: the same bytes as at booking.
    expect(labelsPdf).toBe(booked.labelsPdf);
  });

  it("GIVEN a batch with a two-box postal shipment beside a one-box parcel THEN both PDFs hold a label per box in batch order, Search lists both numbers and Track Shipment follows both", async () => {
    const box = { weight: "20", length: "12", width: "10", height: "8", insuranceAmount: null, declaredValue: null };
    const quoted = ok(
      await alice.client.batchQuote({
        body: {
          shipments: [
            shipment({ serviceCode: "NPS_PRIORITY", shipmentReference: "#2001", pieces: [box, { ...box, weight: "12" }] }),
            shipment({ shipmentReference: "#2002" }),
          ],
        },
      }),
    );
    const ids = quoted.results.map((result) => (result.status === "success" ? result.quotes[0]!.quoteId : Number.NaN));
    const { batchId } = ok(await alice.client.createBatch({ body: { name: "boxes", quoteIds: ids } }));
    const booked = ok(await alice.client.batchBook({ body: { batchId } }));
    const first = booked.results[0]!;
    if (first.status !== "success") throw new Error("expected the two-box shipment to be booked");
    const [found] = ok(await alice.client.searchShipments({ body: { keyword: first.bookNumber } })).shipments;
    const numbers = found!.trackingNumbers;
    expect(numbers).toHaveLength(2);
    expect(numbers[0]).toBe(first.trackingNumber);
    expect(numbers[1]).toMatch(/^94001\d{17}$/);
    expect(numbers[1]).not.toBe(numbers[0]);
    for (const labelsPdf of [booked.labelsPdf, ok(await alice.client.getBatchLabels({ batchId })).labelsPdf]) {
      const pages = await pageTexts(Buffer.from(labelsPdf, "base64"));
      expect(pages.map((texts) => texts.find((text) => text.includes("PIECE")))).toEqual([
        "WEIGHT 20 lb   PIECE 1 of 2",
        "WEIGHT 12 lb   PIECE 2 of 2",
        "WEIGHT 2.5 lb   PIECE 1 of 1",
      ]);
      expect(pages[0]).toContain(numbers[0]);
      expect(pages[1]).toContain(numbers[1]);
      expect(pages[0]).not.toContain(numbers[1]);
    }
    service.clock.advance(10 * DAY_MS);
    const events = ok(await alice.client.trackShipment({ bookNumber: first.bookNumber }));
    for (const number of numbers) {
      expect(events.filter((event) => event.trackingNumber === number && event.eventStatus === "Delivered")).toHaveLength(1);
    }
    // Most recent first across both pieces.
    expect(events.map((event) => event.eventTime)).toEqual([...events.map((event) => event.eventTime)].sort().reverse());
  });

  it("GIVEN a batch without booked shipments THEN 422; an unknown one 404", async () => {
    const { batchId } = await openBatch(alice, 1);
    expect(failed(await alice.client.getBatchLabels({ batchId }))).toMatchObject({ kind: "unprocessable", status: 422 });
    expect(failed(await alice.client.getBatchLabels({ batchId: 999_999 })).kind).toBe("not_found");
  });

  it("GIVEN a label that cannot be drawn THEN it is skipped and the others still come back", async () => {
    const { batchId } = await openBatch(alice, 2);
    const booked = ok(await alice.client.batchBook({ body: { batchId } }));
    const first = booked.results[0]!;
    if (first.status !== "success") throw new Error("expected a booking");
    // Damage one shipment's kept label data: a tracking number Code 128 cannot carry.
    const { label } = service.db.statement(`SELECT label FROM Shipment WHERE bookNumber = ?`).get(first.bookNumber) as { label: string };
    service.db
      .statement(`UPDATE Shipment SET label = ? WHERE bookNumber = ?`)
      .run(JSON.stringify({ ...JSON.parse(label), trackingNumber: "é" }), first.bookNumber);
    expect(await pdfPages(ok(await alice.client.getBatchLabels({ batchId })).labelsPdf)).toBe(1);
  });

  it("GIVEN labels older than the retention THEN none can be generated: 422", async () => {
    const { batchId } = await openBatch(alice, 1);
    ok(await alice.client.batchBook({ body: { batchId } }));
    service.clock.advance(91 * DAY_MS);
    expect(failed(await alice.client.getBatchLabels({ batchId }))).toMatchObject({ kind: "unprocessable", message: expect.stringMatching(/purged/) });
  });
});
