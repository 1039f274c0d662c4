import { afterAll, describe, expect, it, vi } from "vitest";
import { pathOf } from "../../service/tracking";
import { DEFAULT_ORDER_TAGS } from "../../app/settings/settings";
import { startTrackingStack } from "../support/tracking-stack";
import { turnOnWorkflows } from "../support/order-automation";

vi.setConfig({ testTimeout: 180_000 });

// Order automation hooked to tracking (issue 25 §3, §4; docs/decisions/043) on real parts: the Shipping API
// service's timelines revealed by its clock, the real tracking pass sending the shop's order-signals job on the
// process's queue, and the local admin taking the tags (write_orders allowed) and the Flow triggers, checked
// against the extensions' declared fields, for the workflows turned on in its Flow (docs/decisions/047). Nothing here
// writes a tracking fact by hand.
const stack = await startTrackingStack({ orders: 60, settings: { orderTags: { ...DEFAULT_ORDER_TAGS, enabled: true } } });
const { service, harness, prisma, store, context, bookAndFulfil, runFor } = stack;
const { orderSignalsSettled } = await import("../../app/signals/order-signals-job");

afterAll(async () => {
  await harness.close();
  await service.close();
});

const tagsOf = (orderId: string) => JSON.parse(store.getOrder(Number(orderId.split("/").pop()))?.tags_json ?? "[]") as string[];
const triggers = async (handle: string) =>
  (await harness.admin.app.inject({ method: "GET", url: `/admin/flow/triggers.json?handle=${handle}` })).json<Array<{ payload: Record<string, unknown> }>>();

describe("order automation driven by tracking passes", () => {
  it("GIVEN tags on and write_orders allowed WHEN passes track parcels through an exception or a failed attempt and on to delivery THEN the order carries the attention tag while it holds, loses it when the parcel moves on, is tagged delivered, and each trigger is sent once with its payload", async () => {
    harness.admin.grantOptionalScopes(["write_orders"]);
    // Workflows use the exception and delivery triggers; none uses "Shipping label bought", which is not sent.
    await turnOnWorkflows(harness, ["delivery-exception", "shipment-delivered"]);
    const shipments = await bookAndFulfil(20);
    const troubled = shipments.filter((row) => pathOf(row.trackingNumber!) !== "standard");
    expect(troubled.length, "the booked parcels include an exception or a failed attempt").toBeGreaterThan(0);
    const ctx = await context();

    // After each pass (and the job it sent), what each troubled order shows: its attention and its tags.
    const seen = new Map<string, Array<{ attention: string | null; delivered: boolean; tags: string[] }>>();
    await runFor(12 * 24, 3, async () => {
      await orderSignalsSettled(ctx);
      const rows = await prisma.shipment.findMany({ where: { id: { in: troubled.map((row) => row.id) } } });
      for (const row of rows) {
        const steps = seen.get(row.id) ?? [];
        steps.push({ attention: row.attentionReason, delivered: row.trackingState === "DELIVERED", tags: tagsOf(row.orderId) });
        seen.set(row.id, steps);
      }
    });

    const final = await prisma.shipment.findMany({ where: { id: { in: shipments.map((row) => row.id) } } });
    expect(final.map((row) => [row.orderName, row.trackingState, row.signalsDueAt])).toEqual(final.map((row) => [row.orderName, "DELIVERED", null]));
    const attended = troubled.filter((row) => seen.get(row.id)!.some((step) => step.attention !== null));
    expect(attended.length, "a pass saw a parcel needing attention").toBeGreaterThan(0);
    for (const row of attended) {
      const steps = seen.get(row.id)!;
      const first = steps.findIndex((step) => step.attention !== null);
      const recovered = steps.findIndex((step, index) => index > first && step.attention === null);
      // While it needed attention the order had the tag; once the parcel moved on, it had not.
      for (const step of steps.filter((entry) => entry.attention !== null)) expect(step.tags).toContain("delivery-exception");
      expect(recovered, `${row.orderName} moved on`).toBeGreaterThan(first);
      expect(steps[recovered]!.tags).not.toContain("delivery-exception");
      expect(tagsOf(row.orderId)).toEqual(expect.arrayContaining(["label-bought", "delivered"]));
      expect(tagsOf(row.orderId)).not.toContain("delivery-exception");
      expect(await prisma.orderSignal.findMany({ where: { shipmentId: row.id }, orderBy: { createdAt: "asc" } })).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ kind: "EXCEPTION", tagStatus: "DONE", flowStatus: "SENT" }),
          expect.objectContaining({ kind: "EXCEPTION_RESOLVED", tagStatus: "DONE", flowStatus: "NONE" }),
          expect.objectContaining({ kind: "DELIVERED", tagStatus: "DONE", flowStatus: "SENT" }),
        ]),
      );
    }

    // Every delivered shipment's trigger once; each exception's once, with the carrier's reason.
    const orderNumber = (row: { orderId: string }) => Number(row.orderId.split("/").pop());
    const delivered = await triggers("shipment-delivered");
    expect(delivered.map((entry) => [entry.payload.order_id, entry.payload["Tracking number"]]).sort()).toEqual(
      final.map((row) => [orderNumber(row), row.trackingNumber]).sort(),
    );
    expect(await triggers("shipping-label-bought")).toEqual([]);
    expect(await prisma.orderSignal.count({ where: { kind: "LABEL_BOUGHT", flowStatus: { not: "NO_WORKFLOW" } } })).toBe(0);
    const exceptions = await triggers("delivery-exception");
    const exceptionSignals = await prisma.orderSignal.findMany({ where: { kind: "EXCEPTION" } });
    expect(exceptions).toHaveLength(exceptionSignals.length);
    for (const row of attended) {
      const mine = exceptions.filter((entry) => entry.payload.order_id === orderNumber(row));
      expect(mine.length).toBeGreaterThan(0);
      for (const entry of mine) expect(String(entry.payload.Reason)).toMatch(/address|recipient|not available|attempt/i);
    }
  });
});
