import { afterAll, beforeAll } from "vitest";
import { isPostgresUrl } from "../../lib/database-provider";

/**
 * On the PostgreSQL tier, jobs run where pg-boss workers take them, so each test file's process works the
 * queue as an app instance does (CONSIGN_ROLE=all) and stops it gracefully at the end. On SQLite the
 * in-process runner runs a job as soon as it is sent, and this does nothing. A test file whose app processes
 * are its children (the crash tests) sets CONSIGN_TEST_JOBS_IN_CHILDREN=1, so they alone take its jobs.
 */
const onPostgres = () => isPostgresUrl(process.env.DATABASE_URL ?? "") && process.env.CONSIGN_TEST_JOBS_IN_CHILDREN !== "1";

beforeAll(async () => {
  if (!onPostgres()) return;
  const { processJobs: jobs } = await import("../../app/context.server");
  await jobs().start({ work: true });
});

afterAll(async () => {
  if (!onPostgres()) return;
  const { processJobs: jobs } = await import("../../app/context.server");
  await jobs().stop({ timeoutMs: 5_000 });
});
