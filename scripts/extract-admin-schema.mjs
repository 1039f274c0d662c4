// Extracts the real Admin GraphQL schema (introspection JSON, API 2026-10, from @shopify/dev-mcp 1.16.0)
// to where @shopify/api-codegen-preset and the local admin look for it, so nothing needs the network.
import { createReadStream, createWriteStream, existsSync, mkdirSync, statSync } from "node:fs";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const source = join(root, "schema", "admin_2026-10.json.gz");
const target = join(root, "app", "types", "admin-2026-10.schema.json");

if (!existsSync(target) || statSync(target).mtimeMs < statSync(source).mtimeMs) {
  mkdirSync(dirname(target), { recursive: true });
  await pipeline(createReadStream(source), createGunzip(), createWriteStream(target));
}
