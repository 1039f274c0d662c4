/**
 * A fresh app process for the tracking crash tests (test/integration/crash-tracking.test.ts): one tracking
 * pass for the shop, at the time given as the first argument, exactly as the scheduler runs it; prints the
 * pass's summary and exits. The parent gives it the environment (database, local admin, Shipping API,
 * CONSIGN_CRASH_AT).
 */
import prisma from "../../app/db/db.server";
import { unauthenticated } from "../../app/shopify.server";
import { syncDueTracking } from "../../app/tracking/pass.server";
import { contextOf } from "../factories/context";

const [shop, at] = process.argv.slice(2);
if (!shop || !at) throw new Error("usage: tracking-worker.ts <shop> <ISO time>");
const { admin } = await unauthenticated.admin(shop);
const summary = await syncDueTracking(contextOf({ admin, shop }, prisma, new Date(at)));
console.log(JSON.stringify(summary));
await prisma.$disconnect();
process.exit(0);
