// Compiles a TypeScript entry to one ES module as Node runs the app in production (scripts/build-server.mjs):
// packages stay imports of node_modules, so the output must sit under the project's root for Node to find them.
// Each source file keeps its own import.meta.url and import.meta.dirname. Used by scripts/run-bundled.mjs (the
// benches) and by the tests' app processes (test/support/app-process.ts), which then start without a TypeScript
// loader: tsx compiled the app's modules anew in every process, about 3 s of CPU each.
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

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

/**
 * Compiles `entry` (an absolute path) to one ES module and returns its text.
 * @param {string} entry
 * @returns {Promise<string>}
 */
export async function bundleEntry(entry) {
  const result = await build({
    entryPoints: [entry],
    write: false,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node22",
    plugins: [ownImportMeta],
    logLevel: "warning",
  });
  return result.outputFiles[0].text;
}
