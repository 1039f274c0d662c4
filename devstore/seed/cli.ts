import fs from "node:fs";
import { parseArgs } from "node:util";
import { parseSeedEnv } from "../config.js";
import { Store } from "../store/store.js";
import { DEFAULT_SEED_ORDERS, MAX_SEED_ORDERS, seedStore } from "./seed.js";

/**
 * `npm run devstore:seed -- --orders N [--reset] [--seed S]`: seeds LOCAL_ADMIN_DATABASE. An existing store is left
 * alone unless --reset is given (which deletes the database file first).
 */
const { values } = parseArgs({
  options: {
    orders: { type: "string", default: String(DEFAULT_SEED_ORDERS) },
    seed: { type: "string" },
    reset: { type: "boolean", default: false },
  },
});
const orders = Number(values.orders);
if (!Number.isInteger(orders) || orders < 0 || orders > MAX_SEED_ORDERS) {
  console.error(`--orders must be an integer between 0 and ${MAX_SEED_ORDERS}`);
  process.exit(1);
}
const { LOCAL_ADMIN_DATABASE: dbPath, LOCAL_ADMIN_SHOP: shopDomain } = parseSeedEnv();
if (values.reset) for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(dbPath + suffix, { force: true });
const store = new Store(dbPath);
try {
  if (!store.isEmpty()) {
    console.log(`${dbPath} already has a store (${store.countRows("orders")} orders); use --reset to reseed.`);
  } else {
    const started = Date.now();
    seedStore(store, { orders, shopDomain, seed: values.seed === undefined ? undefined : Number(values.seed) });
    console.log(`Seeded ${dbPath}: ${orders} orders for ${shopDomain} in ${Date.now() - started} ms`);
  }
} finally {
  store.close();
}
