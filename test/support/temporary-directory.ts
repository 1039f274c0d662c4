import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const created = new Set<string>();

/**
 * A new directory under the system's temporary directory for a test's databases and files, removed by
 * `removeTemporaryDirectories`: after each test file (test/support/remove-temporary-files.ts, a vitest setup
 * file, so also when a test fails or forgets to close what it started) and when a script using it exits.
 * Removing it earlier (a harness's close) is fine.
 */
export function temporaryDirectory(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.add(dir);
  return dir;
}

/** Removes every directory `temporaryDirectory` made in this process. */
export function removeTemporaryDirectories(): void {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
  created.clear();
}

// Once per process: a runner that evaluates this module again for each test file in one process (the browser
// suite's single fork) would otherwise add a listener per file (MaxListenersExceededWarning past ten).
const registered = globalThis as typeof globalThis & { consignTemporaryDirectoriesOnExit?: () => void };
if (registered.consignTemporaryDirectoriesOnExit) process.off("exit", registered.consignTemporaryDirectoriesOnExit);
registered.consignTemporaryDirectoriesOnExit = removeTemporaryDirectories;
process.once("exit", removeTemporaryDirectories);
