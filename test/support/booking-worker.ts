/**
 * One booking step of the app in a process of its own, for the crash tests (test/integration/crash-booking
 * .test.ts): the parent gives it the app's environment (database file, Shipping API, CONSIGN_CRASH_AT, and
 * CONSIGN_TEST_NOW for the app's clock) and reads the step's result as JSON from stdout.
 *
 *   create-batch <shop> <name> <shipmentId,…> | book-batch <shop> <batchId> | open-batch <shop> <batchId>
 *   book-shipment <shop> <shipmentId> <quoteId> | open-order <shop> <order number>
 *   resume - (what the app does at startup for unconfirmed bookings; the step ends once the batch jobs it sent have run)
 */
import { batchWorkSettled } from "../../app/booking/batch-work-job";
import { shippingContext } from "../factories/context";
import { openBatch } from "../../app/booking/batches.server";
import { bookBatch } from "../../app/booking/batch-booking.server";
import { createBatches } from "../../app/booking/creation.server";
import { resumeBookings } from "../../app/booking/resume.server";
import { parseBookingForm } from "../../app/booking/book-request";
import { bookSingleShipment, loadOrderBooking } from "../../app/booking/single-booking.server";
import prisma from "../../app/db/db.server";
import { processJobs as jobs, processServices } from "../../app/context.server";

const [command, shop, ...args] = process.argv.slice(2);
if (!command || !shop) throw new Error("usage: booking-worker <command> <shop> …");
const now = process.env.CONSIGN_TEST_NOW ? new Date(process.env.CONSIGN_TEST_NOW) : new Date();

async function run(): Promise<unknown> {
  if (command === "resume") {
    const unsettled = await prisma.batch.findMany({ where: { status: { in: ["CREATING", "BOOKING"] } } });
    const resumed = await resumeBookings({ ...processServices, now: () => now });
    // The batch jobs it sent (the write-back they queue is not waited for: it needs a Shopify session).
    for (const batch of unsettled) await batchWorkSettled({ ...processServices.context(batch.shop), now: () => now }, batch.id, false);
    return resumed;
  }
  const ctx = await shippingContext(prisma, shop!, now);
  switch (command) {
    case "create-batch":
      return createBatches(ctx, { name: args[0]!, shipmentIds: args[1]!.split(",") });
    case "book-batch":
      return bookBatch(ctx, args[0]!);
    case "open-batch":
      return openBatch(ctx, args[0]!);
    case "book-shipment": {
      const form = parseBookingForm(new URLSearchParams({ shipmentId: args[0]!, quoteId: args[1]!, labelFormat: "PDF" }));
      if (!form.ok) throw new Error(JSON.stringify(form.fieldErrors));
      return bookSingleShipment(ctx, form.value);
    }
    case "open-order":
      return loadOrderBooking(ctx, args[0]!);
    default:
      throw new Error(`unknown command ${command}`);
  }
}

// The process works the queue as an app instance does: on PostgreSQL the batch's job is taken by a worker.
await jobs().start({ work: true });
const result = await run();
process.stdout.write(`${JSON.stringify(result)}\n`);
await jobs().stop();
await prisma.$disconnect();
process.exit(0);
