import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");
/** What the app's build is made from; a newer file means build/ is stale. */
const SOURCES = ["app", "vite.config.ts", "package-lock.json", "tsconfig.json"];

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), stat.mtimeMs);
}

/** The browser tests run the built app (as production does): build it first when build/ is missing or stale. */
export default function buildAppIfStale(): void {
  const serverBuild = join(root, "build", "server", "index.js");
  const sourcesChanged = SOURCES.map((name) => join(root, name))
    .filter((path) => existsSync(path))
    .reduce((newest, path) => Math.max(newest, newestMtime(path)), 0);
  if (existsSync(serverBuild) && statSync(serverBuild).mtimeMs >= sourcesChanged) return;
  console.log("e2e: building the app (npm run build), build/ is missing or older than app/");
  const result = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status ?? result.signal})`);
}
