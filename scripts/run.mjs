// Starts the product on its embedded defaults: the Shipping API service, the local Shopify admin (seeded
// when its store is empty) and the app, each as a child process with prefixed output. Ctrl-C stops all.
//   node scripts/run.mjs          the built app (npm run build first; npm run demo does both)
//   node scripts/run.mjs --dev    the app through Vite's dev server instead
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
if (Number(process.versions.node.split(".")[0]) < 22) {
  console.error(`run: Node >= 22 is required (this is ${process.version}); use \`npm run demo\`, which provides it`);
  process.exit(1);
}
const envFile = join(root, ".env");
if (!existsSync(envFile)) {
  console.error("run: no .env yet — run `npm run demo` (or `node scripts/setup.mjs`) first");
  process.exit(1);
}
process.loadEnvFile(envFile);
// A variable set to nothing (`NAME=`) counts as unset, as each process's own parsing does (lib/env.ts): so
// this script's ports, and libraries that read the environment themselves (the app server's PORT), agree.
for (const [name, value] of Object.entries(process.env)) if (value !== undefined && value.trim() === "") delete process.env[name];
const env = process.env;
const dev = process.argv.includes("--dev");
const bin = (name) => join(root, "node_modules", ".bin", name);

const children = [];
let stopping = false;

/**
 * The memory settings every long-running process here runs with (package.json `start` and `service` too):
 * one glibc arena pair, large allocations given back to the system when freed (docs/decisions/053) and a small
 * young generation keep a Node server's resident memory close to its heap.
 */
const runtimeEnv = {
  ...env,
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "131072",
  NODE_OPTIONS: [env.NODE_OPTIONS, "--max-semi-space-size=4"].filter(Boolean).join(" "),
};

function start(name, command, args, color) {
  const child = spawn(command, args, { cwd: root, env: runtimeEnv, stdio: ["ignore", "pipe", "pipe"] });
  const prefix = `\x1b[${color}m${name.padEnd(8)}\x1b[0m| `;
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = "";
    stream.on("data", (chunk) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) process.stdout.write(prefix + line + "\n");
    });
  }
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`${prefix}exited (${signal ?? code}); stopping everything`);
    stop(1);
  });
  children.push(child);
  return child;
}

function stop(code = 0) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(children.map((child) => (child.exitCode === null ? new Promise((r) => child.on("exit", r)) : null))).then(() => process.exit(code));
}

process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

async function waitFor(url, name, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, { headers: { "user-agent": "Mozilla/5.0 consign-run" } });
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} did not become ready at ${url}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const servicePort = env.SHIPPING_SERVICE_PORT ?? "8787";
const adminPort = env.LOCAL_ADMIN_PORT ?? "8790";
const appPort = env.PORT ?? "3000";

// The local admin renders the app's built admin UI extensions; `npm run build` makes them, --dev builds them here.
if (dev && spawnSync(process.execPath, [join(root, "scripts", "build-extensions.mjs")], { cwd: root, stdio: "inherit" }).status !== 0) process.exit(1);

start("service", bin("tsx"), ["service/main.ts"], "36");
start("admin", bin("tsx"), ["devstore/main.ts"], "35");
if (dev) start("app", bin("remix"), ["vite:dev", "--port", appPort], "32");
else start("app", process.execPath, ["build/server/main.js", "build/server/index.js"], "32");

try {
  await Promise.all([
    waitFor(`http://127.0.0.1:${servicePort}/healthz`, "the Shipping API service"),
    waitFor(`http://127.0.0.1:${adminPort}/healthz`, "the local admin"),
    waitFor(`http://127.0.0.1:${appPort}/auth/login`, "the app"),
  ]);
  console.log(`\n  Consign is running.\n  Open the local Shopify admin: http://127.0.0.1:${adminPort}/admin\n  Ctrl-C stops everything.\n`);
} catch (error) {
  console.error(`run: ${error.message}`);
  stop(1);
}
