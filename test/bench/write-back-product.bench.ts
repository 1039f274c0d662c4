import { rssAgainstTarget } from "../support/figures";
import { BROWSER_USER_AGENT } from "../support/stack";
import { merchantPages, printPagesAndMachine, quoteAndBatch, readPagesUntil, startProductStack, until } from "./product-stack";

/**
 * `npm run bench:write-back-product`: fulfillment write-back in the product (issue 30), where `npm run
 * bench:write-back` times the worker alone. The built app runs as in production beside the real local admin at
 * Shopify's standard throttle (product-stack.ts), which delivers Shopify's webhooks to it as Shopify does: every
 * fulfillmentCreate brings fulfillments/create and orders/updated, and each delivery is recorded and worked by
 * the shop's delivery job. Orders are quoted through the app's routes until BENCH_SHIPMENTS (500) rates are
 * picked, and those put in a batch; then the batch page's "Book" is posted and the pages (Orders to ship, Settings,
 * Rates, the batch, Shipments, Overview) are read one after another until the last fulfillment is in Shopify.
 *
 * Prints the time from "Book" to the last fulfillment (the local admin's own creation time) against the
 * write-only floor (BENCH_SHIPMENTS × points charged by one fulfillmentCreate − the bucket) / restore rate,
 * target ≤ 1.15×, as bench:write-back computes it from what Shopify charged; where the time went (booking on
 * the Shipping API, then the writes); the webhooks received and the order re-reads they caused; the pages'
 * latencies meanwhile against 1 s; when the mirror was current again; and the app's peak RSS.
 */

const SHIPMENTS = Number(process.env.BENCH_SHIPMENTS ?? 500);
const TARGET = 1.15;
const PAGE_TARGET_MS = 1000;

async function main(): Promise<void> {
  // Seeded orders include on-hold, scheduled, fulfillment-service, pickup and unquotable ones: 1,000 give more than 500 picked rates.
  const orders = SHIPMENTS * 2;
  process.stdout.write(`starting the built app, the local admin (${orders} orders) and the service, and syncing the mirror… `);
  const product = await startProductStack({ orders });
  const { stack, prisma } = product;
  try {
    console.log("done");
    process.stdout.write(`quoting orders and putting ${SHIPMENTS} picked rates in a batch through the app's routes… `);
    const mirrored = await prisma.mirrorOrder.findMany({ where: { shop: stack.shop }, orderBy: { orderCreatedAt: "desc" }, select: { id: true } });
    const ids = await quoteAndBatch(
      product,
      mirrored.map((order) => order.id),
      "Write-back bench",
      SHIPMENTS,
    );
    if (ids.shipments < SHIPMENTS) throw new Error(`only ${ids.shipments} rates were picked; the batch needs ${SHIPMENTS}`);
    console.log("done");
    const batchOrders = await prisma.shipment.findMany({ where: { batchId: ids.batchId }, select: { orderId: true } });
    const orderNumbers = [...new Set(batchOrders.map((row) => Number(row.orderId.split("/").pop())))];

    // Everything before is worked through and the bucket full, as the write-only floor assumes.
    await until(
      () => prisma.webhookDelivery.count({ where: { shop: stack.shop, processedAt: null } }),
      (pending) => pending === 0,
      "earlier deliveries",
    );
    await until(
      async () => stack.admin.throttle.status(),
      (bucket) => bucket.currentlyAvailable >= bucket.maximumAvailable,
      "the bucket's refill",
    );
    const chargesBefore = product.adminCharges.length;
    const operationsBefore = product.adminOperations.length;
    const deliveriesBefore = await prisma.webhookDelivery.count({ where: { shop: stack.shop } });
    // Some seeded orders were partly fulfilled before: only fulfillments made after "Book" count.
    const fulfilledBefore = new Set(orderNumbers.flatMap((orderId) => stack.admin.store.listFulfillments(orderId).map((fulfillment) => fulfillment.id)));
    const cpuBefore = product.appCpuSeconds();
    const rssBeforeBook = product.appPeakRssMb();

    console.log(`booking the batch of ${SHIPMENTS} ("Book" on its page) and reading the pages until the last fulfillment is in Shopify…`);
    const form = new URLSearchParams({ intent: "book" });
    const authorization = `Bearer ${await stack.admin.mintSessionToken()}`;
    const bookedAt = Date.now();
    const startedAt = performance.now();
    const booked = await fetch(`${stack.app.url}/app/batches/${ids.batchId}?_data=${encodeURIComponent("routes/app.batches.$id")}`, {
      method: "POST",
      body: form,
      headers: { authorization, "user-agent": BROWSER_USER_AGENT },
      redirect: "manual",
    });
    await booked.arrayBuffer();
    if (booked.status >= 400) throw new Error(`"Book" answered ${booked.status}`);

    let first = Infinity;
    const lastFulfillment = (async () => {
      let remaining = orderNumbers;
      let last = 0;
      while (remaining.length > 0) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        remaining = remaining.filter((orderId) => {
          const created = stack.admin.store
            .listFulfillments(orderId)
            .filter((fulfillment) => !fulfilledBefore.has(fulfillment.id))
            .map((fulfillment) => Date.parse(fulfillment.created_at));
          if (created.length === 0) return true;
          last = Math.max(last, ...created);
          first = Math.min(first, ...created);
          return false;
        });
        if (performance.now() - startedAt > 15 * 60_000) throw new Error(`${remaining.length} orders still without a fulfillment after 15 minutes`);
      }
      return last;
    })();
    const during = await readPagesUntil(product, merchantPages(ids), lastFulfillment);
    const lastAt = await lastFulfillment;
    const cpuWriting = (product.appCpuSeconds() ?? NaN) - (cpuBefore ?? NaN);
    const booking = await prisma.batch.findUniqueOrThrow({ where: { id: ids.batchId }, select: { status: true } });
    const fulfilled = await prisma.shipment.count({ where: { batchId: ids.batchId, fulfillmentStatus: "FULFILLED" } });
    await until(
      () => prisma.webhookDelivery.count({ where: { shop: stack.shop, processedAt: null } }),
      (pending) => pending === 0,
      "the mirror",
      20,
    );
    const currentAt = Date.now();
    const cpuUntilCurrent = (product.appCpuSeconds() ?? NaN) - (cpuBefore ?? NaN);

    const charges = product.adminCharges.slice(chargesBefore).filter((charge) => !charge.throttled);
    const creates = charges.filter((charge) => charge.operation === "CreateShipmentFulfillment");
    if (creates.length === 0) throw new Error("no fulfillmentCreate was charged");
    const perCreate = creates.reduce((sum, charge) => sum + (charge.actualQueryCost ?? 0), 0) / creates.length;
    const bucket = creates[0]!;
    const writeOnlyFloor = Math.max(0, SHIPMENTS * perCreate - bucket.maximumAvailable) / bucket.restoreRate;
    const seconds = (lastAt - bookedAt) / 1000;
    // Where the bucket's points went while the writes ran: the writes, the pages' reads, the webhooks' re-reads.
    const firstCreate = charges.indexOf(creates[0]!);
    const lastCreate = charges.lastIndexOf(creates.at(-1)!);
    const spentWhileWriting = new Map<string, { count: number; points: number }>();
    for (const charge of charges.slice(firstCreate, lastCreate + 1)) {
      const entry = spentWhileWriting.get(charge.operation) ?? { count: 0, points: 0 };
      entry.count++;
      entry.points += charge.actualQueryCost ?? 0;
      spentWhileWriting.set(charge.operation, entry);
    }
    const pointsWhileWriting = [...spentWhileWriting.values()].reduce((sum, entry) => sum + entry.points, 0);
    const spentFloor = Math.max(0, pointsWhileWriting - bucket.maximumAvailable) / bucket.restoreRate;
    const byOperation = new Map<string, number>();
    for (const operation of product.adminOperations.slice(operationsBefore)) byOperation.set(operation, (byOperation.get(operation) ?? 0) + 1);
    const deliveries = await prisma.webhookDelivery.groupBy({ by: ["topic"], where: { shop: stack.shop }, _count: { _all: true } });
    const delivered = (await prisma.webhookDelivery.count({ where: { shop: stack.shop } })) - deliveriesBefore;

    console.log("");
    console.log(
      `database        the app's on ${product.database} (BENCH_DATABASE=sqlite|postgres), its job queue ${product.database.startsWith("SQLite") ? "in-process" : "pg-boss"}`,
    );
    console.log(`result          ${fulfilled}/${SHIPMENTS} fulfilled; batch ${booking.status}`);
    console.log(`throttle        bucket ${bucket.maximumAvailable} points, restores ${bucket.restoreRate} points/s (from extensions.cost.throttleStatus)`);
    console.log(`requests        from "Book" on: ${[...byOperation].map(([operation, count]) => `${operation} ${count}`).join(", ")}`);
    console.log(
      `webhooks        ${delivered} deliveries received from the local admin meanwhile (all time by topic: ${deliveries.map((row) => `${row._count._all} ${row.topic}`).join(", ")})`,
    );
    console.log(
      `write-only floor (${SHIPMENTS} × ${perCreate.toFixed(1)} per fulfillmentCreate − ${bucket.maximumAvailable} in the full bucket) / ${bucket.restoreRate} per s = ${writeOnlyFloor.toFixed(1)} s`,
    );
    console.log(
      `while writing   ${[...spentWhileWriting].map(([operation, entry]) => `${operation} ${entry.count} × ${(entry.points / entry.count).toFixed(1)}`).join(", ")} points charged; spent floor (${pointsWhileWriting} − ${bucket.maximumAvailable}) / ${bucket.restoreRate} per s = ${spentFloor.toFixed(1)} s`,
    );
    console.log(
      `time            ${seconds.toFixed(1)} s from "Book" to the last fulfillment in Shopify: the first after ${((first - bookedAt) / 1000).toFixed(1)} s (booking on the Shipping API), the rest in ${((lastAt - first) / 1000).toFixed(1)} s`,
    );
    console.log(
      writeOnlyFloor > 0
        ? `ratio           ${(seconds / writeOnlyFloor).toFixed(3)} × the write-only floor (target ≤ ${TARGET}×) ${seconds / writeOnlyFloor <= TARGET ? "MET" : "NOT MET"}`
        : `ratio           none: the writes fit in the starting bucket, so only request latency bounds the run`,
    );
    console.log(`mirror current  ${((currentAt - lastAt) / 1000).toFixed(1)} s after the last fulfillment (every delivery processed)`);
    console.log(
      `app CPU         ${cpuWriting.toFixed(1)} s from "Book" to the last fulfillment = ${((cpuWriting / SHIPMENTS) * 1000).toFixed(1)} ms per shipment (booking, write-back, webhooks received, pages served); ${cpuUntilCurrent.toFixed(1)} s until the mirror was current: the load-independent figure`,
    );
    console.log(`app peak RSS    before "Book" (the first sync, quoting, the batch): ${rssAgainstTarget(rssBeforeBook)}`);
    const met = printPagesAndMachine(product, "the write-back", during, PAGE_TARGET_MS);
    if (!met || seconds / writeOnlyFloor > TARGET) process.exitCode = 1;
  } finally {
    await product.stop();
  }
}

await main();
