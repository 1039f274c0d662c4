// Compiles the app's production processes to ES modules Node runs as they are, with no TypeScript loader in the
// app's process (tsx's loader thread alone held about 40 MB of its memory; docs/decisions/018): the server
// (server/main.ts) to <build>/server/main.js, beside the Remix server build it serves, and the worker
// (scripts/worker.ts, with the app's modules it imports) to <build>/worker/main.js. Both sit two folders below the
// project, as the Remix build does, so what a module finds beside itself (import.meta.dirname: the migrations)
// is where it is found from the source. Packages stay imports of node_modules. Part of `npm run build`.
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const buildDir = resolve(root, process.env.CONSIGN_BUILD_DIR ?? "build");

for (const [entry, outfile] of [
  [join(root, "server", "main.ts"), join(buildDir, "server", "main.js")],
  [join(root, "scripts", "worker.ts"), join(buildDir, "worker", "main.js")],
]) {
  await build({ entryPoints: [entry], outfile, bundle: true, packages: "external", platform: "node", format: "esm", target: "node22", logLevel: "warning" });
  console.log(`${entry.slice(root.length + 1)} → ${outfile}`);
}
