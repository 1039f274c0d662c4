import type { Shipment } from "@prisma/client";
import { afterAll, describe, expect, it } from "vitest";
import { scanBasedLabelUsed } from "../../service/tracking";
import { aRequestedReturn } from "../factories/returns";
import { contextOf, shippingContext } from "../factories/context";
import { startFaultProxy, type SeenRequest } from "../support/fault-proxy";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { ok } from "../support/service-harness";
import { makeDue, shipmentWithSchedule } from "../support/tracking-schedule";

// What a used scan-based return label cost (issue 24 §4, docs/decisions/041) on real parts: the Shipping API
// service charges such a label at its first scan (its clock moved by hand), tracking's pass reads the charge back
// from Search Shipments, and the Returns page shows it. The app talks to the service through a forwarding proxy that
// can make Search Shipments fail once.
const proxy = await startFaultProxy();
const { service, harness, customer, close } = await startServiceAndAdmin({
  orders: 4,
  env: { SHIPPING_API_URL: proxy.url, SHOPIFY_APP_URL: "https://consign.example" },
  scope: "read_orders,write_fulfillments,read_returns,write_returns",
});
proxy.target = service.baseUrl;
afterAll(async () => {
  await close();
  await proxy.close();
});

const { default: prisma } = await import("../../app/db/db.server");
const { processJobs } = await import("../../app/context.server");
const { refreshReturn } = await import("../../app/returns/returns.server");
const labels = await import("../../app/returns/return-label.server");
const attach = await import("../../app/returns/return-attach.server");
const { viewReturns } = await import("../../app/returns/returns-page.server");
const { labelCostText } = await import("../../app/returns/label-cost");
const { shippingOverview } = await import("../../app/overview/overview.server");
const { saveSettings, loadSettings } = await import("../../app/settings/account.server");
const { unauthenticated } = await import("../../app/shopify.server");
const { syncDueTracking } = await import("../../app/tracking/pass.server");
const { searchBookedShipments } = await import("../../app/search/shipment-search.server");

const store = harness.admin.store;
const account = service.clientFor(customer);
const serviceTime = () => service.clock.now();
const TIME_ZONE = "America/Los_Angeles";

async function context() {
  const { admin } = await unauthenticated.admin(SHOP);
  return contextOf({ admin, shop: SHOP }, prisma, serviceTime);
}
async function bookingContext() {
  const { admin } = await unauthenticated.admin(SHOP);
  return shippingContext(prisma, SHOP, serviceTime, async () => ({ admin, shop: SHOP }));
}
const rowOf = (label: Shipment) => prisma.shipment.findUniqueOrThrow({ where: { id: label.id } });
const searchesFor = (label: Pick<Shipment, "bookNumber">) => (request: SeenRequest) =>
  request.method === "POST" && request.path.endsWith("/searchShipments") && request.body.includes(label.bookNumber!);
/** The service's own word on the label: its Search Shipments record, asked directly (not through the proxy). */
async function serviceRecord(label: Shipment) {
  const found = ok(await account.searchShipments({ body: { keyword: label.bookNumber! } })).shipments.find((entry) => entry.bookNumber === label.bookNumber);
  if (!found) throw new Error(`no record of ${label.bookNumber}`);
  return found;
}
const charges = (label: Shipment) =>
  service.db.statement(`SELECT amountCents FROM LedgerEntry WHERE kind = 'charge' AND reference = ?`).all(label.bookNumber) as unknown[];
async function labelOnPage(label: Shipment) {
  const page = await viewReturns(await bookingContext(), { filter: "all", page: 1 });
  const view = page.rows.find((row) => row.id === label.returnId)?.labels[0];
  if (!view) throw new Error(`${label.returnId} is not on the Returns page`);
  return view;
}
/** One tracking pass on the service's clock. */
const pass = async () => syncDueTracking(await context(), { random: () => 0.5 });

/** A scan-based return label booked for a new approved return and attached to it, its first poll due now. */
async function bookedScanBasedLabel(): Promise<Shipment> {
  const made = aRequestedReturn(store, { items: 2, approved: true });
  const ctx = await bookingContext();
  await refreshReturn(ctx, made.returnGid);
  const quoted = await labels.quoteReturnLabel(ctx, made.returnGid);
  if (!quoted.ok) throw new Error(quoted.message);
  expect(quoted.scanBased).toBe(true);
  expect(await labels.bookReturnLabel(ctx, quoted.shipmentId)).toMatchObject({ ok: true });
  await processJobs().drained(attach.returnAttachJob, { shop: SHOP });
  // The attach job ran on the process's clock; the pass runs on the service's.
  await makeDue(prisma, quoted.shipmentId, serviceTime());
  const row = await prisma.shipment.findUniqueOrThrow({ where: { id: quoted.shipmentId } });
  expect(row).toMatchObject({ kind: "RETURN", scanBased: true, shippingCost: "0.00", chargedAt: null, trackingState: "ACTIVE" });
  return row;
}

/** Scan-based labels booked until one the service will see used and one it never will (six in ten are used). */
async function oneUsedOneUnused(): Promise<{ used: Shipment; unused: Shipment }> {
  let used: Shipment | undefined;
  let unused: Shipment | undefined;
  for (let tries = 0; tries < 12 && !(used && unused); tries++) {
    const label = await bookedScanBasedLabel();
    if (scanBasedLabelUsed(label.trackingNumber!)) used ??= label;
    else unused ??= label;
  }
  if (!used || !unused) throw new Error("twelve labels were all used or all unused");
  return { used, unused };
}

describe("what a used scan-based return label cost", () => {
  it("GIVEN two scan-based return labels, one the customer sends WHEN tracking sees its first scan THEN its charge is read from Search Shipments (retried at the next poll when Search fails), recorded once and shown with its date; the unused one stays free", async () => {
    const ctx = await bookingContext();
    const settings = await loadSettings(ctx);
    await saveSettings(ctx, { ...settings, returnRule: { kind: "scan-based" } });
    const { used, unused } = await oneUsedOneUnused();

    // Booked, not scanned: nothing charged, and the page says so.
    for (const label of [used, unused]) {
      expect(charges(label)).toEqual([]);
      const view = await labelOnPage(label);
      expect(view).toMatchObject({ unused: true, amount: "0.00", chargedAt: null });
      expect(labelCostText(view, TIME_ZONE)).toBe("Unused — cost nothing");
    }

    // Counts what the app asks Search Shipments about the used label, and makes its first ask after the scan fail.
    let searchesOfUsed = 0;
    proxy.inject({
      match: (request) => {
        if (searchesFor(used)(request)) searchesOfUsed++;
        return false;
      },
      fault: "503",
      times: 1,
    });
    let scanned = false;
    for (let hour = 0; hour < 5 * 24 && !scanned; hour++) {
      service.clock.advance(3_600_000);
      scanned = ok(await account.trackShipment({ bookNumber: used.bookNumber! })).length > 0;
      if (scanned) proxy.inject({ match: searchesFor(used), fault: "503", times: 1 });
      else await pass();
    }
    expect(scanned).toBe(true);
    // The poll that first sees the scan stores its event; Search fails, so the charge waits for the next poll.
    await makeDue(prisma, used.id, serviceTime());
    await pass();
    expect(proxy.applied.filter((entry) => entry.fault === "503")).toHaveLength(1);
    const seen = await rowOf(used);
    expect(seen).toMatchObject({ carrierStatus: expect.any(String), shippingCost: "0.00", chargedAt: null, trackingState: "ACTIVE" });
    expect(labelCostText(await labelOnPage(used), TIME_ZONE)).toBe("Used — the charge shows here once the Shipping API reports it");

    await makeDue(prisma, used.id, serviceTime());
    await pass();
    const record = await serviceRecord(used);
    expect(record.chargedAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const charged = await rowOf(used);
    expect(charged.shippingCost).toBe(record.totalShippingCost);
    expect(Number(charged.shippingCost)).toBeGreaterThan(0);
    expect(charged.chargedAt?.toISOString()).toBe(new Date(`${record.chargedAt!.replace(" ", "T")}Z`).toISOString());
    expect(charges(used)).toHaveLength(1);

    const view = await labelOnPage(used);
    expect(view).toMatchObject({ unused: false, amount: record.totalShippingCost, chargedAt: charged.chargedAt!.toISOString() });
    const day = new Intl.DateTimeFormat("en-US", { timeZone: TIME_ZONE, month: "short", day: "numeric", year: "numeric" }).format(charged.chargedAt!);
    expect(labelCostText(view, TIME_ZONE)).toBe(`Used — charged $${Number(record.totalShippingCost).toFixed(2)} on ${day}`);

    // Recorded once: the parcel's journey to the shop asks Search Shipments nothing more about it.
    const searchesWhenCharged = searchesOfUsed;
    for (let hour = 0; hour < 10 * 24 && (await rowOf(used)).trackingState !== "DELIVERED"; hour++) {
      service.clock.advance(3_600_000);
      await pass();
    }
    const delivered = await rowOf(used);
    expect(delivered).toMatchObject({ trackingState: "DELIVERED", shippingCost: charged.shippingCost, chargedAt: charged.chargedAt });
    expect(searchesOfUsed).toBe(searchesWhenCharged);

    // The label the customer never sent: polled all along, never charged, still free.
    const quiet = await shipmentWithSchedule(prisma, unused.id);
    expect(quiet.schedule!.lastTrackedAt!.getTime()).toBeGreaterThan(unused.bookedAt!.getTime());
    expect(quiet).toMatchObject({ carrierStatus: null, shippingCost: "0.00", chargedAt: null });
    expect((await serviceRecord(unused)).chargedAt).toBeNull();
    expect(charges(unused)).toEqual([]);
    expect(labelCostText(await labelOnPage(unused), TIME_ZONE)).toBe("Unused — cost nothing");

    // The Shipments page's search shows what each label cost: the charge, or nothing yet.
    for (const [label, cost] of [
      [used, record.totalShippingCost],
      [unused, "0.00"],
    ] as const) {
      const found = await searchBookedShipments(ctx, label.bookNumber!);
      expect(found.ok && found.rows.find((row) => row.bookNumber === label.bookNumber)?.shippingCost).toBe(cost);
    }

    // Spend counts what the used labels were charged (every label here is scan-based: unused ones cost nothing).
    const overview = await shippingOverview(ctx, 30);
    const booked = await prisma.shipment.findMany({ where: { shop: SHOP, bookingStatus: "BOOKED" } });
    const chargedByService = await Promise.all(booked.map(async (label) => ((await serviceRecord(label)).chargedAt ? Number(label.shippingCost) : 0)));
    expect(chargedByService.reduce((sum, amount) => sum + amount, 0)).toBeGreaterThanOrEqual(Number(record.totalShippingCost));
    expect(Number(overview.totalSpend)).toBeCloseTo(
      chargedByService.reduce((sum, amount) => sum + amount, 0),
      2,
    );
    await saveSettings(ctx, settings);
  }, 240_000);
});
