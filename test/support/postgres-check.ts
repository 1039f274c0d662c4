// `scripts/test.sh` asks this before the PostgreSQL tier: exits 0 when PostgreSQL answers at
// CONSIGN_TEST_POSTGRES_URL (default postgresql://postgres@127.0.0.1:5432/postgres), else prints why not.
import { postgresProblem, TEST_POSTGRES_URL } from "./postgres";

const problem = await postgresProblem();
if (problem) {
  console.log(`no PostgreSQL answers at ${new URL(TEST_POSTGRES_URL).host} (${problem}); set CONSIGN_TEST_POSTGRES_URL to run it`);
  process.exit(1);
}
