// Bundles the admin UI extensions as the Shopify CLI does: one ES module per target, with its
// dependencies (Preact, @shopify/ui-extensions) inlined. Writes <build>/extensions/<handle>/<target>.js and
// <build>/extensions/manifest.json, which the local admin reads to render the blocks. Part of `npm run build`.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { parse } from "smol-toml";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(resolve(root, process.env.CONSIGN_BUILD_DIR ?? "build"), "extensions");
/** Shopify refuses UI extension scripts over 64 KB. */
const SIZE_LIMIT = 64 * 1024;

const manifest = [];
rmSync(outDir, { recursive: true, force: true });
for (const dir of readdirSync(join(root, "extensions"))) {
  const tomlPath = join(root, "extensions", dir, "shopify.extension.toml");
  if (!existsSync(tomlPath)) continue;
  const config = parse(readFileSync(tomlPath, "utf8"));
  for (const extension of config.extensions ?? []) {
    if (extension.type !== "ui_extension") continue;
    for (const targeting of extension.targeting ?? []) {
      if (!targeting.module) continue;
      const file = join(outDir, extension.handle, `${targeting.target}.js`);
      await build({
        entryPoints: [join(root, "extensions", dir, targeting.module)],
        outfile: file,
        bundle: true,
        format: "esm",
        target: "es2020",
        minify: true,
        jsx: "automatic",
        jsxImportSource: "preact",
        legalComments: "none",
        // As the Shopify CLI does with the environment it runs in: a customer account extension reaches the app at
        // APP_URL (set it for `shopify app deploy`); unset here, its paths stay relative for the local admin.
        define: { "process.env.APP_URL": JSON.stringify(process.env.APP_URL ?? "") },
        logLevel: "warning",
      });
      const size = statSync(file).size;
      if (size > SIZE_LIMIT) throw new Error(`${extension.handle} ${targeting.target}: ${size} bytes, over Shopify's ${SIZE_LIMIT}-byte limit`);
      manifest.push({
        handle: extension.handle,
        name: extension.name,
        apiVersion: config.api_version,
        target: targeting.target,
        module: `${extension.handle}/${targeting.target}.js`,
      });
      console.log(`extension ${extension.handle} → ${targeting.target}.js (${(size / 1024).toFixed(1)} KB)`);
    }
  }
}
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
