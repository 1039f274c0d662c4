import {
  createAppPostgresDatabase,
  databasesStartingWith,
  onServer,
  POSTGRES_RUN_VARIABLE,
  postgresProblem,
  quoteIdentifier,
  templateName,
  TEST_POSTGRES_URL,
} from "./postgres";

/** Runs older than this whose teardown never ran (a killed run) are dropped by the next run. */
const ABANDONED_AFTER_MS = 6 * 60 * 60 * 1000;
const PREFIX = "consign_test_";

/**
 * The PostgreSQL tier's global setup: names this run's databases, migrates the template databases of the app
 * and the Shipping API service with their committed PostgreSQL migrations (as `npm run db:migrate` and the
 * service's start would), and at the end drops every database of the run, whatever the tests' outcome.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const problem = await postgresProblem();
  if (problem) throw new Error(`The PostgreSQL tier needs PostgreSQL at ${TEST_POSTGRES_URL} (CONSIGN_TEST_POSTGRES_URL): ${problem}`);
  await dropAbandonedRuns();
  const run = `${PREFIX}${Date.now()}_${process.pid}`;
  process.env[POSTGRES_RUN_VARIABLE] = run;
  const drop = async () => {
    const names = await databasesStartingWith(`${run}_`);
    await onServer(names.map((name) => `DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`));
  };
  try {
    await createAppPostgresDatabase(templateName(run, "app"), "app");
    await createAppPostgresDatabase(templateName(run, "service"), "service");
  } catch (error) {
    await drop();
    throw error;
  }
  return drop;
}

async function dropAbandonedRuns(): Promise<void> {
  const now = Date.now();
  const abandoned = (await databasesStartingWith(PREFIX)).filter((name) => {
    const started = Number(/^consign_test_(\d+)_/.exec(name)?.[1]);
    return Number.isFinite(started) && now - started > ABANDONED_AFTER_MS;
  });
  await onServer(abandoned.map((name) => `DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`));
}
