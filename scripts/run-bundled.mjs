// Runs a TypeScript entry (a bench) as Node runs the app in production: compiled first to one ES module under
// .bench/bundle/ (scripts/bundle-entry.mjs), then run by Node alone. A bench that measures the app in its own
// process then measures no TypeScript loader: tsx's loader thread alone held about 40 MB, which the production
// server does not have (scripts/build-server.mjs). Usage: node scripts/run-bundled.mjs <entry.ts> [arguments...]
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleEntry } from "./bundle-entry.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error("usage: node scripts/run-bundled.mjs <entry.ts> [arguments...]");
  process.exit(2);
}
const outfile = join(root, ".bench", "bundle", basename(entry).replace(/\.tsx?$/, ".mjs"));
mkdirSync(dirname(outfile), { recursive: true });
writeFileSync(outfile, await bundleEntry(resolve(entry)));
const run = spawnSync(process.execPath, [outfile, ...args], { stdio: "inherit" });
process.exit(run.status ?? 1);
