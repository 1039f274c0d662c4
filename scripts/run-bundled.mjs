// Runs a TypeScript entry (a bench) as Node runs the app in production: compiled first to one ES module under
// .bench/bundle/ (packages stay imports of node_modules), then run by Node alone. A bench that measures the app
// in its own process then measures no TypeScript loader: tsx's loader thread alone held about 40 MB, which the
// production server does not have (scripts/build-server.mjs). Each module keeps its own import.meta.url and
// import.meta.dirname. Usage: node scripts/run-bundled.mjs <entry.ts> [arguments...]
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error("usage: node scripts/run-bundled.mjs <entry.ts> [arguments...]");
  process.exit(2);
}
const outfile = join(root, ".bench", "bundle", basename(entry).replace(/\.tsx?$/, ".mjs"));

/** Each source file's import.meta as it would be run from where it is, not from the bundle. */
const ownImportMeta = {
  name: "own-import-meta",
  setup(builder) {
    builder.onLoad({ filter: /\.(ts|tsx|mts)$/ }, async ({ path }) => {
      const source = await readFile(path, "utf8");
      const contents = source
        .replaceAll("import.meta.dirname", JSON.stringify(dirname(path)))
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(path).href));
      return { contents, loader: path.endsWith("x") ? "tsx" : "ts" };
    });
  },
};

await build({
  entryPoints: [resolve(entry)],
  outfile,
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node22",
  plugins: [ownImportMeta],
  logLevel: "warning",
});
const run = spawnSync(process.execPath, [outfile, ...args], { stdio: "inherit" });
process.exit(run.status ?? 1);
