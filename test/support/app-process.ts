import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { expect } from "vitest";
import { bundleEntry } from "../../scripts/bundle-entry.mjs";
import { TEST_API_KEY, TEST_API_SECRET, TEST_ENCRYPTION_KEY } from "./app-env";

const root = join(import.meta.dirname, "..", "..");
/** Under the root, so that the compiled scripts' imports of packages find node_modules. */
const BUNDLES = join(root, "node_modules", ".cache", "consign-app-processes");
const bundles = new Map<string, Promise<string>>();

/** Another source's compilation of the same script, an hour old or more: no test run still starts it. */
function removeStaleBundles(name: string, current: string): void {
  const hourAgo = Date.now() - 60 * 60 * 1000;
  const ofScript = new RegExp(`^${name}-[0-9a-f]{16}\\.mjs$`);
  for (const entry of readdirSync(BUNDLES)) {
    const file = join(BUNDLES, entry);
    // Another test file may be removing it at the same moment.
    const modified = file !== current && ofScript.test(entry) ? statSync(file, { throwIfNoEntry: false })?.mtimeMs : undefined;
    if (modified !== undefined && modified < hourAgo) rmSync(file, { force: true });
  }
}

/**
 * `path` compiled to one module Node runs alone (scripts/bundle-entry.mjs), once per test file, named by its
 * content: test files running at once write the same file, each whole (a rename), and an edited source makes
 * another. A crash test starts a dozen processes; tsx compiled the app's modules again in each of them.
 */
function bundledScript(path: string): Promise<string> {
  let bundle = bundles.get(path);
  if (!bundle) {
    bundle = (async () => {
      const text = await bundleEntry(join(root, path));
      const name = basename(path).replace(/\.tsx?$/, "");
      const file = join(BUNDLES, `${name}-${createHash("sha256").update(text).digest("hex").slice(0, 16)}.mjs`);
      if (!existsSync(file)) {
        mkdirSync(BUNDLES, { recursive: true });
        const partial = `${file}.${process.pid}.partial`;
        writeFileSync(partial, text);
        renameSync(partial, file);
        removeStaleBundles(name, file);
      }
      return file;
    })();
    bundles.set(path, bundle);
  }
  return bundle;
}

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
 * itself runs it, compiled as production runs the app, so the process that is killed is the one spawned.
 */
export async function startAppProcess(path: string, args: readonly string[], env: Record<string, string | undefined>): Promise<AppProcess> {
  const defined = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const child = spawn(process.execPath, [await bundledScript(path), ...args], {
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
export async function runAppProcess(script: string, args: readonly string[], env: Record<string, string | undefined>): Promise<AppProcessExit> {
  return (await startAppProcess(join("test", "support", script), args, env)).exited;
}

/** An app process of a crash test that died at its crash point: killed (SIGKILL, no cleanup), as CONSIGN_CRASH_AT does. */
export function expectKilledAtCrashPoint(exit: AppProcessExit): void {
  expect(exit.signal, exit.output).toBe("SIGKILL");
}

/** An app process of a crash test that ran to its end. */
export function expectRanToEnd(exit: AppProcessExit): void {
  expect(exit.code, exit.output).toBe(0);
}

/**
 * Runs the worker until it survives, for the crash tests: `run` starts a new app process dying at a crash point,
 * and again after each death, until one runs to its end. Each death must be the crash point's kill; `afterDeath`
 * (told how many processes died so far) checks what the dead one left and moves clocks before the next. More
 * than `maxDeaths` deaths fail the test. Resolves with how many processes died.
 */
export async function runUntilSurvived(
  run: () => Promise<AppProcessExit>,
  options: { maxDeaths: number; afterDeath?: (deaths: number) => Promise<void> | void },
): Promise<number> {
  for (let deaths = 0; ;) {
    const exit = await run();
    if (exit.signal === null) {
      expectRanToEnd(exit);
      return deaths;
    }
    expectKilledAtCrashPoint(exit);
    deaths++;
    expect(deaths, `more than ${options.maxDeaths} processes died`).toBeLessThanOrEqual(options.maxDeaths);
    await options.afterDeath?.(deaths);
  }
}

/** A worker step's result: the last line it printed, as JSON; null when it printed none (it was killed) or not JSON. */
export function lastJsonLine(stdout: string): unknown {
  const last = stdout.trim().split("\n").pop() ?? "";
  try {
    return last ? JSON.parse(last) : null;
  } catch {
    return null;
  }
}
