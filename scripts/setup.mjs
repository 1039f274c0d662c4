// Prepares a checkout to run on its embedded defaults: a .env with generated local secrets, and the app's
// database migrated. The Shipping API service migrates its own database on start; the local admin is
// seeded by scripts/run.mjs when its store is empty.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const envFile = join(root, ".env");

if (!existsSync(envFile)) {
  const generated = {
    SHOPIFY_API_SECRET: randomBytes(24).toString("hex"),
    CONSIGN_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
  };
  const text = readFileSync(join(root, ".env.example"), "utf8").replace(
    /^(SHOPIFY_API_SECRET|CONSIGN_ENCRYPTION_KEY)=.*$/gm,
    (_line, name) => `${name}=${generated[name]}`,
  );
  writeFileSync(envFile, text, { mode: 0o600 });
  console.log("setup: wrote .env with generated local secrets");
}

process.loadEnvFile(envFile);
execFileSync("npm", ["run", "--silent", "db:migrate"], { cwd: root, stdio: "inherit", env: process.env });
