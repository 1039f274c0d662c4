import { afterAll, beforeAll, expect, it } from "vitest";
import { type FuzzWorld, MUTATION_KINDS, prepareWorld, runServiceFuzz } from "../fuzz/service-fuzz";
import { type RunningService, startService } from "../support/service-harness";

/**
 * The bounded run of the Shipping API service's fuzz suite (test/fuzz/service-fuzz.ts, docs/decisions/009):
 * a few thousand derived and mutated requests over HTTP to the real service, with a fixed seed so a failure
 * reproduces. `npm run fuzz -- --seed N --runs M` runs it longer.
 */

const SEED = 20261124;
const RUNS = 2_000;

let service: RunningService;
let world: FuzzWorld;

beforeAll(async () => {
  service = await startService();
  world = await prepareWorld(service);
});
afterAll(async () => {
  await service?.close();
});

it(`GIVEN ${RUNS} derived and mutated requests (seed ${SEED}) THEN no 5xx, every refusal in the service's body, no reset, nothing invalid accepted, healthy afterwards`, async () => {
  const { requests, mutations } = await runServiceFuzz(world, { seed: SEED, runs: RUNS });
  expect(requests).toBeGreaterThanOrEqual(RUNS);
  // Every kind of mutation was exercised, not only valid requests.
  expect([...mutations.keys()].sort()).toEqual([...MUTATION_KINDS].sort());
}, 120_000);
