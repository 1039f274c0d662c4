/**
 * One step of return labels in a process of its own, for the crash tests (test/integration/crash-returns.test.ts):
 * the parent gives it the app's environment (database, Shipping API, local admin, CONSIGN_CRASH_AT, and
 * CONSIGN_TEST_NOW for the booking's clock) and reads the step's result as JSON from stdout.
 *
 *   book <shop> <shipmentId>   books a quoted return label (and waits for the attach job it sends)
 *   resume -                   what the app does at start-up: unconfirmed bookings settled, outstanding labels attached
 */
import { processJobs as jobs, processServices } from "../../app/context.server";
import prisma from "../../app/db/db.server";
import { resumeBookings } from "../../app/booking/resume.server";
import { queueOutstandingReturnAttach, returnAttachJob } from "../../app/returns/return-attach.server";
import { bookReturnLabel } from "../../app/returns/return-label.server";
import { shippingContext } from "../factories/context";

const [command, shop, ...args] = process.argv.slice(2);
if (!command || !shop) throw new Error("usage: return-worker <command> <shop> …");
const now = process.env.CONSIGN_TEST_NOW ? new Date(process.env.CONSIGN_TEST_NOW) : new Date();

async function run(): Promise<unknown> {
  if (command === "resume") {
    const resumed = await resumeBookings({ ...processServices, now: () => now });
    const shops = await queueOutstandingReturnAttach(processServices);
    for (const each of shops) await jobs().drained(returnAttachJob, { shop: each });
    return { ...resumed, attachedShops: shops.length };
  }
  const ctx = await shippingContext(prisma, shop!, now, undefined, processServices.jobs);
  switch (command) {
    case "book": {
      const booked = await bookReturnLabel(ctx, args[0]!);
      await jobs().drained(returnAttachJob, { shop: shop! });
      return booked;
    }
    default:
      throw new Error(`unknown command ${command}`);
  }
}

await jobs().start({ work: true });
const result = await run();
process.stdout.write(`${JSON.stringify(result)}\n`);
await jobs().stop();
await prisma.$disconnect();
process.exit(0);
