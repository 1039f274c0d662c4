import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { APP_MUTATION_KINDS, type AppFuzzWorld, PAGE_ROUTES, SHOP_B, WEBHOOK_ROUTES, prepareAppWorld, runAppFuzz } from "../fuzz/app-fuzz";
import { type Stack, startStack } from "../support/stack";

/**
 * The bounded run of the app's fuzz suite (test/fuzz/app-fuzz.ts): derived and mutated requests to every route
 * of the built app in production mode, two connected shops, the real local admins and Shipping API service,
 * with a fixed seed so a failure reproduces. `npm run fuzz:app -- --seed N --runs M` runs it longer.
 */

const SEED = 20261127;
const RUNS = 250;

let stack: Stack;
let world: AppFuzzWorld;

beforeAll(async () => {
  stack = await startStack({ otherShops: [SHOP_B] });
  world = await prepareAppWorld(stack);
});
afterAll(async () => {
  world?.db.close();
  await stack?.stop();
});

it("GIVEN the app's route modules THEN the fuzz suite sends requests to every one of them", () => {
  const modules = readdirSync(join(import.meta.dirname, "..", "..", "app", "routes")).map((name) => `routes/${name.replace(/\.tsx?$/, "")}`);
  const fuzzed = new Set([...PAGE_ROUTES.map((page) => page.route), ...WEBHOOK_ROUTES]);
  expect(modules.filter((module) => !fuzzed.has(module))).toEqual([]);
});

it(`GIVEN ${RUNS} derived and mutated requests (seed ${SEED}) to the built app THEN no 5xx, no stack trace, no reset, nothing refused is written, nothing of shop B reaches shop A`, async () => {
  const { requests, mutations } = await runAppFuzz(world, { seed: SEED, runs: RUNS });
  expect(requests).toBeGreaterThanOrEqual(RUNS);
  // Every kind of request was exercised, not only valid ones.
  expect([...mutations.keys()].sort()).toEqual([...APP_MUTATION_KINDS].sort());
}, 120_000);
