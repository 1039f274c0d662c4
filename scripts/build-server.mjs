// Compiles the app's production server (server/main.ts and what it imports of the project) to one ES module,
// <build>/server/main.js, beside the Remix server build it serves. Node runs it as it is: no TypeScript loader in
// the app's process (tsx's loader thread alone held about 40 MB of its memory). Packages stay imports of
// node_modules. Part of `npm run build`.
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outfile = join(resolve(root, process.env.CONSIGN_BUILD_DIR ?? "build"), "server", "main.js");

await build({
  entryPoints: [join(root, "server", "main.ts")],
  outfile,
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node22",
  logLevel: "warning",
});
console.log(`server → ${outfile}`);
