import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";
import { TEST_WORKERS } from "./vitest.workers";

// Unit tests sit beside the code (*.test.ts); integration tests under test/integration.
// End-to-end tests in real Chromium have their own config (vitest.e2e.config.ts).
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["{app,lib,shipping-api,service,devstore,scripts}/**/*.test.ts", "test/integration/**/*.test.ts"],
    exclude: ["**/node_modules/**", "test/e2e/**"],
    environment: "node",
    ...TEST_WORKERS,
    setupFiles: ["test/support/remove-temporary-files.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
