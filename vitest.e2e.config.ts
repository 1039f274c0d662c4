import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

// End-to-end tests in real Chromium against the real stack (test/support/stack.ts): the local admin and the
// built app (rebuilt first when stale). One fork, one file at a time: each test file starts its own stack.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/e2e/global-setup.ts"],
    setupFiles: ["test/support/remove-temporary-files.ts"],
    pool: "forks",
    poolOptions: { forks: { singleFork: true } },
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 180_000,
  },
});
