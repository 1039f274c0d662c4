import { availableParallelism } from "node:os";

/**
 * How many test files run at once in the unit, integration and PostgreSQL tiers. Vitest's default is one fewer
 * than the cores, which is one file at a time on CI's two; but these files mostly wait (on the servers and
 * processes they start, on PostgreSQL's job heartbeats), so two at a time took the unit and integration tier from
 * 11.4 to 7.1 minutes there, and the PostgreSQL tier from 15.8 to 8.8, every test passing.
 */
export const TEST_WORKERS = { minWorkers: 1, maxWorkers: Math.max(2, availableParallelism() - 1) };
