/**
 * A fresh app process for the crash tests (test/integration/crash-fulfillment.test.ts): it loads the app's
 * startup work exactly as the server build does, waits for it to end and exits. The parent gives it the
 * environment (database file, local admin, Shipping API, CONSIGN_CRASH_AT).
 */
import prisma from "../../app/db/db.server";
import { runStartupTasks } from "../../app/startup.server";

await runStartupTasks();
await prisma.$disconnect();
process.exit(0);
