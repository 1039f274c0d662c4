import { join, resolve } from "node:path";

const root = join(import.meta.dirname, "..", "..");

/**
 * The app's server build the browser tests run: `build/server/index.js`, or under CONSIGN_BUILD_DIR when set
 * (vite.config.ts writes there too), so two checkouts' test runs on one machine keep separate builds.
 */
export function serverBuildPath(): string {
  return join(resolve(root, process.env.CONSIGN_BUILD_DIR ?? "build"), "server", "index.js");
}

/** The app's built admin UI extensions (scripts/build-extensions.mjs writes them beside the server build). */
export function extensionsBuildPath(): string {
  return join(resolve(root, process.env.CONSIGN_BUILD_DIR ?? "build"), "extensions");
}
