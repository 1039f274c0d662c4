/**
 * The shop's order signals worked in a process of its own, for the crash test of order automation
 * (test/integration/crash-automation.test.ts): the parent gives it the app's environment (database, local admin,
 * CONSIGN_CRASH_AT) and reads the run's result as JSON from stdout.
 *
 *   run <shop>
 */
import { runOrderSignals } from "../../app/signals/signals.server";
import { contextFor } from "../../app/context.server";

const [command, shop] = process.argv.slice(2);
if (command !== "run" || !shop) throw new Error("usage: order-signals-worker run <shop>");
const result = await runOrderSignals(contextFor(shop));
console.log(JSON.stringify(result));
process.exit(0);
