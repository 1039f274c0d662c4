import { afterAll, describe, expect, it, vi } from "vitest";
import { createPrismaClient } from "../../app/db/db-client.server";
import { scanBasedLabelUsed } from "../../service/tracking";
import { aRequestedReturn } from "../factories/returns";
import { expectKilledAtCrashPoint, expectRanToEnd, runAppProcess, type AppProcessExit } from "../support/app-process";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { ok } from "../support/service-harness";
import { makeDue } from "../support/tracking-schedule";

// The app processes are the children: on PostgreSQL they alone take this file's jobs (test/support/job-workers.ts).
process.env.CONSIGN_TEST_JOBS_IN_CHILDREN = "1";
vi.setConfig({ testTimeout: 120_000 });

// Tracking's read of a used scan-based return label's charge (docs/decisions/041) in a real process killed after
// Search Shipments answered with the charge, before it was written (kill -9); the next pass, in a fresh process,
// reads it again and records it once. The Shipping API charged the label once, whatever the app did.
const { service, harness, databaseUrl, customer, appProcessEnv, close } = await startServiceAndAdmin({
  orders: 4,
  scope: "read_orders,write_fulfillments,read_returns,write_returns",
});
const db = createPrismaClient(databaseUrl);
afterAll(async () => {
  await db.$disconnect();
  await close();
});
const { default: prisma } = await import("../../app/db/db.server");
const { refreshReturn } = await import("../../app/returns/returns.server");
const { quoteReturnLabel } = await import("../../app/returns/return-label.server");
const { loadSettings, saveSettings } = await import("../../app/settings/account.server");
const { CLAIM_LEASE_MS } = await import("../../app/tracking/schedule");
const { shippingContext } = await import("../factories/context");
const { unauthenticated } = await import("../../app/shopify.server");
const account = service.clientFor(customer);
const store = harness.admin.store;
const now = () => service.clock.now();

/** One tracking pass in a new process at the service's time, dying at `crashAt` when given. */
const trackingPass = (crashAt?: string): Promise<AppProcessExit> => runAppProcess("tracking-worker.ts", [SHOP, now().toISOString()], appProcessEnv(crashAt));

/** A scan-based return label the customer will send, booked and attached in a process of its own: its row id. */
async function usedScanBasedLabel(): Promise<string> {
  const { admin } = await unauthenticated.admin(SHOP);
  const ctx = await shippingContext(prisma, SHOP, now, async () => ({ admin, shop: SHOP }));
  await saveSettings(ctx, { ...(await loadSettings(ctx)), returnRule: { kind: "scan-based" } });
  for (let tries = 0; tries < 10; tries++) {
    const made = aRequestedReturn(store, { items: 2, approved: true });
    await refreshReturn(ctx, made.returnGid);
    const quoted = await quoteReturnLabel(ctx, made.returnGid);
    if (!quoted.ok) throw new Error(quoted.message);
    expectRanToEnd(await runAppProcess("return-worker.ts", ["book", SHOP, quoted.shipmentId], { ...appProcessEnv(), CONSIGN_TEST_NOW: now().toISOString() }));
    const row = await db.shipment.findUniqueOrThrow({ where: { id: quoted.shipmentId } });
    expect(row).toMatchObject({ scanBased: true, shippingCost: "0.00", fulfillmentStatus: "FULFILLED", trackingState: "ACTIVE" });
    if (scanBasedLabelUsed(row.trackingNumber!)) return row.id;
  }
  throw new Error("ten scan-based labels and none used");
}

const charges = (bookNumber: string) =>
  service.db.statement(`SELECT amountCents FROM LedgerEntry WHERE kind = 'charge' AND reference = ?`).all(bookNumber) as unknown[];

describe("a scan-based return label's charge read across a crash", () => {
  it("GIVEN the pass dies after Search Shipments answered with the charge, before writing it WHEN the next pass runs in a fresh process THEN the charge is read again and recorded once", async () => {
    const id = await usedScanBasedLabel();
    const label = await db.shipment.findUniqueOrThrow({ where: { id } });
    let scanned = false;
    for (let hour = 0; hour < 5 * 24 && !scanned; hour++) {
      service.clock.advance(3_600_000);
      scanned = ok(await account.trackShipment({ bookNumber: label.bookNumber! })).length > 0;
    }
    expect(scanned).toBe(true);
    await makeDue(db, id, now());

    expectKilledAtCrashPoint(await trackingPass("tracking:after-charge-read"));
    expect(await db.shipment.findUniqueOrThrow({ where: { id } })).toMatchObject({ shippingCost: "0.00", chargedAt: null });
    expect(charges(label.bookNumber!)).toHaveLength(1);

    // The dead pass's claim runs out after its lease; then the next pass takes the label.
    service.clock.advance(CLAIM_LEASE_MS + 60_000);
    expectRanToEnd(await trackingPass());
    const record = ok(await account.searchShipments({ body: { keyword: label.bookNumber! } })).shipments.find(
      (entry) => entry.bookNumber === label.bookNumber,
    )!;
    const charged = await db.shipment.findUniqueOrThrow({ where: { id } });
    expect(charged.shippingCost).toBe(record.totalShippingCost);
    expect(charged.chargedAt?.toISOString()).toBe(new Date(`${record.chargedAt!.replace(" ", "T")}Z`).toISOString());
    expect(charges(label.bookNumber!)).toHaveLength(1);
  });
});
