import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { TEST_API_KEY, TEST_API_SECRET, TEST_ENCRYPTION_KEY } from "./app-env";

const root = join(import.meta.dirname, "..", "..");

export interface AppProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** stdout and stderr as they came, for failure messages. */
  output: string;
}

/** An app process started by {@link startAppProcess}: kill it, or wait for its exit. */
export interface AppProcess {
  child: ChildProcess;
  exited: Promise<AppProcessExit>;
}

/**
 * Starts `path` (relative to the project's root) in a process of its own with only the app's environment:
 * the test defaults overlaid with `env` (an undefined entry is left out, e.g. no CONSIGN_CRASH_AT). Node
 * itself runs it with tsx as a loader, so the process that is killed is the one spawned (tsx's CLI would be
 * a parent).
 */
export function startAppProcess(path: string, args: readonly string[], env: Record<string, string | undefined>): AppProcess {
  const defined = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const child = spawn(process.execPath, ["--import", "tsx", join(root, path), ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "test",
      SHOPIFY_API_KEY: TEST_API_KEY,
      SHOPIFY_API_SECRET: TEST_API_SECRET,
      SHOPIFY_APP_URL: "http://localhost:3000",
      CONSIGN_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      ...defined,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<AppProcessExit>((resolve, reject) => {
    let stdout = "";
    let output = "";
    child.stdout!.on("data", (chunk) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr!.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve({ code, signal, stdout, output }));
  });
  return { child, exited };
}

/** Runs `script` (a worker under test/support) to its end, for the crash tests (see {@link startAppProcess}). */
export function runAppProcess(script: string, args: readonly string[], env: Record<string, string | undefined>): Promise<AppProcessExit> {
  return startAppProcess(join("test", "support", script), args, env).exited;
}
