import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";
import { TEST_WORKERS } from "./vitest.workers";

/**
 * The PostgreSQL tier: the integration tests that exercise the app's database run again with DATABASE_URL
 * on PostgreSQL, and the Shipping API service they start (test/support/service-harness.ts) runs on PostgreSQL too; its
 * contract tests run again on it (docs/decisions/012-postgresql.md). The global setup creates this run's databases (a
 * migrated template, a copy per test file) and drops them at the end. Pure, local-admin-only and browser
 * tests are not repeated: they do not touch the app's database. `scripts/test.sh` runs it when PostgreSQL
 * answers at CONSIGN_TEST_POSTGRES_URL (default postgresql://postgres@127.0.0.1:5432/postgres) and says so
 * when it is skipped.
 */
const POSTGRES_TIER = [
  "lib/postgres-schema.test.ts",
  "test/postgres/migrations.test.ts",
  "test/postgres/service-store.test.ts",
  "test/integration/quoting.test.ts",
  "test/integration/set-based-writes.test.ts",
  "test/integration/batches.test.ts",
  "test/integration/booking.test.ts",
  "test/integration/crash-booking.test.ts",
  "test/integration/lost-answers.test.ts",
  "test/integration/lost-answers-flow.test.ts",
  "test/integration/crash-fulfillment.test.ts",
  "test/integration/crash-tracking.test.ts",
  "test/integration/returns.test.ts",
  "test/integration/returns-boxes.test.ts",
  "test/integration/crash-returns.test.ts",
  "test/integration/return-label-kept.test.ts",
  "test/integration/crash-box-returns.test.ts",
  "test/integration/fulfillment-write-back.test.ts",
  "test/integration/tracking-sync.test.ts",
  "test/integration/tracking-void.test.ts",
  "test/integration/return-label-charge.test.ts",
  "test/integration/crash-return-charge.test.ts",
  "test/integration/order-tags-flow.test.ts",
  "test/integration/flow-lifecycle.test.ts",
  "test/integration/automation-tracking.test.ts",
  "test/integration/crash-automation.test.ts",
  "test/integration/app-webhooks.test.ts",
  "test/integration/webhook-burst.test.ts",
  "test/integration/compliance.test.ts",
  "test/integration/order-mirror.test.ts",
  "test/integration/mirror-at-size.test.ts",
  "test/integration/crash-mirror-sync.test.ts",
  "test/integration/orders-to-ship.test.ts",
  "test/integration/search.test.ts",
  "test/integration/overview.test.ts",
  "test/integration/settings.test.ts",
  "test/integration/kept-shop.test.ts",
  "test/integration/onboarding.test.ts",
  "test/integration/service-basics.test.ts",
  "test/integration/service-customers.test.ts",
  "test/integration/service-batch-quote.test.ts",
  "test/integration/service-batches.test.ts",
  "test/integration/service-batch-book.test.ts",
  "test/integration/service-shipments.test.ts",
  "test/integration/service-void.test.ts",
  "test/integration/service-returns.test.ts",
  "test/integration/service-main.test.ts",
  "test/integration/multi-instance.test.ts",
];

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: POSTGRES_TIER,
    environment: "node",
    ...TEST_WORKERS,
    globalSetup: ["test/support/postgres-global-setup.ts"],
    setupFiles: ["test/support/remove-temporary-files.ts", "test/support/job-workers.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
