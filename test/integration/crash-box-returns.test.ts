import { afterAll, describe, expect, it, vi } from "vitest";
import { createPrismaClient } from "../../app/db/db-client.server";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments";
import { expectKilledAtCrashPoint, expectRanToEnd, lastJsonLine, runAppProcess, type AppProcessExit } from "../support/app-process";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { ok } from "../support/service-harness";

// The app processes are the children: on PostgreSQL they alone take this file's jobs (test/support/job-workers.ts).
process.env.CONSIGN_TEST_JOBS_IN_CHILDREN = "1";
vi.setConfig({ testTimeout: 90_000 });

// A return label in the box (docs/decisions/044) booked by a process killed at the dangerous moments (kill -9) against
// the real service and a real database: the outbound orders are booked and marked WANTED, as a batch's results leave
// them with "Put a return label in the box" on; then a fresh process does what the app does at start-up, and the
// service is asked whether any return label was booked twice.
const { service, harness, databaseUrl, customer, appProcessEnv, close } = await startServiceAndAdmin({ orders: 4, scope: "read_orders,write_fulfillments" });
const db = createPrismaClient(databaseUrl);
afterAll(async () => {
  await db.$disconnect();
  await close();
});
const account = service.clientFor(customer);
const store = harness.admin.store;
const { loadSettings, saveSettings } = await import("../../app/settings/account.server");
const { shippingContext } = await import("../factories/context");
const { default: prisma } = await import("../../app/db/db.server");

/** The booking's in-flight grace, passed: a fresh process may read the booking back and release it. */
const AFTER_GRACE_MS = 3 * 60 * 1000;

async function runWorker(args: string[], options: { crashAt?: string; now?: Date } = {}): Promise<AppProcessExit & { result: unknown }> {
  const exit = await runAppProcess("return-worker.ts", args, {
    ...appProcessEnv(options.crashAt),
    CONSIGN_TEST_NOW: (options.now ?? new Date()).toISOString(),
  });
  return { ...exit, result: lastJsonLine(exit.stdout) };
}

const ctx = await shippingContext(prisma, SHOP, new Date());
await saveSettings(ctx, { ...(await loadSettings(ctx)), returnLabelInBox: true });
const fulfillmentOrders = shippableFulfillmentOrders(store, 2);

/** One domestic order booked, its box's return label wanted: the outbound shipment's id. */
async function wantedOrder(index: number): Promise<string> {
  const [outbound] = await createBookedShipments({ db, shop: SHOP, client: account, fulfillmentOrders: [fulfillmentOrders[index]!] });
  await db.shipment.update({ where: { id: outbound!.id }, data: { boxReturn: "WANTED" } });
  return outbound!.id;
}

const returnLabelOf = (outboundId: string) => db.shipment.findFirst({ where: { shop: SHOP, kind: "RETURN", inBoxOf: outboundId } });

/** The service's bookings of the order's return label (Search Shipments by the order, matched by the label's id). */
async function returnBookingsOf(outboundId: string) {
  const outbound = await db.shipment.findUniqueOrThrow({ where: { id: outboundId } });
  const labels = await db.shipment.findMany({ where: { shop: SHOP, kind: "RETURN", inBoxOf: outboundId }, select: { id: true } });
  const ids = new Set(labels.map((label) => label.id));
  return ok(await account.searchShipments({ body: { keyword: outbound.orderName } })).shipments.filter((record) => ids.has(record.shipperReference2 ?? ""));
}

/** The return label booked once, scan-based and free, recorded on its row, and the order's box marked ADDED. */
async function expectAddedOnce(outboundId: string) {
  const booked = await returnBookingsOf(outboundId);
  expect(booked).toHaveLength(1);
  expect(await returnLabelOf(outboundId)).toMatchObject({ bookingStatus: "BOOKED", bookNumber: booked[0]!.bookNumber, scanBased: true, shippingCost: "0.00" });
  expect(await db.shipment.findUniqueOrThrow({ where: { id: outboundId } })).toMatchObject({ bookingStatus: "BOOKED", boxReturn: "ADDED" });
  expect(await db.shipment.count({ where: { shop: SHOP, kind: "RETURN", inBoxOf: outboundId } })).toBe(1);
}

describe("a return label in the box, its booking killed mid-way", () => {
  it("GIVEN a kill before Book Shipment is sent WHEN the app starts again after the grace THEN the intent is read back and released, and the label is booked once", async () => {
    const outboundId = await wantedOrder(0);
    expectKilledAtCrashPoint(await runWorker(["box", SHOP], { crashAt: "return-booking:before-call" }));
    expect((await returnLabelOf(outboundId))?.bookingStatus).toBe("BOOKING");
    expect(await returnBookingsOf(outboundId)).toHaveLength(0);
    expect((await db.shipment.findUniqueOrThrow({ where: { id: outboundId } })).boxReturn).toBe("WANTED");

    expectRanToEnd(await runWorker(["resume", "-"], { now: new Date(Date.now() + AFTER_GRACE_MS) }));
    await expectAddedOnce(outboundId);
  });

  it("GIVEN a kill after Book Shipment booked the label WHEN the app starts again THEN the booking is read back and recorded once; the job run again books nothing", async () => {
    const outboundId = await wantedOrder(1);
    expectKilledAtCrashPoint(await runWorker(["box", SHOP], { crashAt: "return-booking:after-call" }));
    expect((await returnLabelOf(outboundId))?.bookingStatus).toBe("BOOKING");
    expect(await returnBookingsOf(outboundId)).toHaveLength(1);

    expectRanToEnd(await runWorker(["resume", "-"]));
    await expectAddedOnce(outboundId);
    const again = await runWorker(["box", SHOP]);
    expectRanToEnd(again);
    expect(again.result).toEqual({ added: 0, skipped: 0, pending: 0 });
    await expectAddedOnce(outboundId);
  });
});
