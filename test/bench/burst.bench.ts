import { orderPayload } from "../../devstore/webhooks/payloads.js";
import { merchantPages, printPageLatencies, printPagesAndMachine, quoteAndBatch, readPagesUntil, startProductStack, until } from "./product-stack";

/**
 * `npm run bench:burst`: a webhook burst does not starve the merchant's pages (issue 28). The built app runs as
 * in production beside the real local admin at Shopify's standard throttle (product-stack.ts); once its first
 * order sync is done, the local admin sends BENCH_DELIVERIES (1,000) signed `orders/updated` deliveries for
 * the shop within BENCH_WINDOW_SECONDS (60), as a bulk edit in Shopify does: BENCH_BURST_ORDERS (500) orders,
 * each delivered BENCH_DELIVERIES / BENCH_BURST_ORDERS times, interleaved. Meanwhile the pages (Orders to ship,
 * Settings, Rates, a batch, Shipments, Overview) are read one after another, round after round, until the
 * burst has been worked through. Prints each page's latency during the burst against the target (every page
 * within 1 s), the time until the mirror is current (every delivery recorded and processed, every order of
 * the burst re-read since it began), how many times the app read an order from Shopify, and the app's peak RSS.
 */

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 1000);
const ORDERS = Number(process.env.BENCH_BURST_ORDERS ?? 500);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_SECONDS ?? 60) * 1000;
const PAGE_TARGET_MS = 1000;

async function main(): Promise<void> {
  process.stdout.write(`starting the built app, the local admin (${ORDERS + 300} orders) and the service, and syncing the mirror… `);
  const product = await startProductStack({ orders: ORDERS + 300 });
  const { stack, prisma } = product;
  try {
    console.log("done");
    const mirrored = await prisma.mirrorOrder.findMany({ where: { shop: stack.shop }, orderBy: { orderCreatedAt: "desc" }, select: { id: true } });
    if (mirrored.length < ORDERS) throw new Error(`only ${mirrored.length} orders were mirrored, the burst needs ${ORDERS}`);
    process.stdout.write("quoting 40 orders and putting their rates in a batch through the app's routes… ");
    const ids = await quoteAndBatch(
      product,
      mirrored.slice(0, 40).map((order) => order.id),
      "Burst bench",
    );
    console.log("done");
    const pages = merchantPages(ids);

    const baseline = await readPagesUntil(product, pages, Promise.resolve());
    for (let round = 0; round < 2; round++) {
      const more = await readPagesUntil(product, pages, Promise.resolve());
      for (const [name, values] of more.latencies) baseline.latencies.get(name)!.push(...values);
    }

    const targets = mirrored.slice(0, ORDERS).map((order) => order.id);
    const deliveriesBefore = await prisma.webhookDelivery.count({ where: { shop: stack.shop } });
    const operationsBefore = product.adminOperations.length;
    const chargesBefore = product.adminCharges.length;
    console.log(`sending ${DELIVERIES} signed orders/updated deliveries for ${ORDERS} orders within ${WINDOW_MS / 1000} s while the pages are read…`);
    const burstStart = new Date();
    const startedAt = performance.now();
    let sentAt = 0;
    const sending = (async () => {
      for (let i = 0; i < DELIVERIES; i++) {
        const due = startedAt + (i * WINDOW_MS) / DELIVERIES;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const orderId = Number(targets[i % ORDERS]!.split("/").pop());
        stack.admin.webhooks.enqueue("orders/updated", orderPayload(stack.admin.store, orderId));
      }
      sentAt = performance.now();
    })();
    const workedThrough = (async () => {
      await sending;
      await until(
        async () => ({
          recorded: (await prisma.webhookDelivery.count({ where: { shop: stack.shop } })) - deliveriesBefore,
          pending: await prisma.webhookDelivery.count({ where: { shop: stack.shop, processedAt: null } }),
        }),
        ({ recorded, pending }) => recorded >= DELIVERIES && pending === 0,
        "the burst",
        20,
      );
      return performance.now();
    })();
    const during = await readPagesUntil(product, pages, workedThrough);
    const doneAt = await workedThrough;
    const current = await prisma.mirrorOrder.count({ where: { shop: stack.shop, id: { in: targets.slice(0, 900) }, syncedAt: { gte: burstStart } } });
    const recorded = (await prisma.webhookDelivery.count({ where: { shop: stack.shop } })) - deliveriesBefore;
    const rereads = product.adminOperations.slice(operationsBefore).filter((operation) => operation === "OrderForShipping").length;
    const charged = new Map<string, { count: number; points: number }>();
    for (const charge of product.adminCharges.slice(chargesBefore)) {
      const entry = charged.get(charge.operation) ?? { count: 0, points: 0 };
      entry.count++;
      entry.points += charge.actualQueryCost ?? 0;
      charged.set(charge.operation, entry);
    }

    console.log("");
    console.log(
      `database        the app's on ${product.database} (BENCH_DATABASE=sqlite|postgres), its job queue ${product.database.startsWith("SQLite") ? "in-process" : "pg-boss"}`,
    );
    console.log(
      `burst           ${DELIVERIES} orders/updated deliveries for ${ORDERS} orders, sent over ${((sentAt - startedAt) / 1000).toFixed(1)} s by the local admin`,
    );
    console.log(`recorded        ${recorded} deliveries, each once; ${recorded - DELIVERIES === 0 ? "none" : recorded - DELIVERIES} more than sent`);
    console.log(
      `re-reads        ${rereads} OrderForShipping reads of ${ORDERS} orders (${(DELIVERIES / Math.max(1, rereads)).toFixed(2)} deliveries per re-read)`,
    );
    console.log(
      `charged         ${[...charged].map(([operation, entry]) => `${operation} ${entry.count} × ${(entry.points / entry.count).toFixed(1)}`).join(", ")} points (throttle: ${product.adminCharges[0]?.maximumAvailable ?? "?"}-point bucket, ${product.adminCharges[0]?.restoreRate ?? "?"} points/s)`,
    );
    console.log(
      `mirror current  ${((doneAt - startedAt) / 1000).toFixed(1)} s after the first delivery (${((doneAt - sentAt) / 1000).toFixed(1)} s after the last); ${current} of ${Math.min(ORDERS, 900)} orders checked re-read since the burst began`,
    );
    console.log("pages before the burst:");
    printPageLatencies(baseline.latencies, PAGE_TARGET_MS);
    const met = printPagesAndMachine(product, "the burst", during, PAGE_TARGET_MS);
    if (!met) process.exitCode = 1;
  } finally {
    await product.stop();
  }
}

await main();
