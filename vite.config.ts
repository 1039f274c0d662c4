import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type UserConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

const port = Number(process.env.PORT ?? 3000);
/** Where `npm run build` writes; test/support/build-dir.ts reads the same variable. */
const buildDirectory = process.env.CONSIGN_BUILD_DIR ?? "build";

export default defineConfig({
  server: {
    port,
    host: "127.0.0.1",
    fs: { allow: ["app", "node_modules"] },
  },
  plugins: [
    remix({
      buildDirectory,
      ignoredRouteFiles: ["**/.*", "**/*.test.ts"],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
        v3_singleFetch: false,
        v3_routeConfig: false,
      },
    }),
    tsconfigPaths(),
  ],
  build: { assetsInlineLimit: 0 },
  optimizeDeps: { include: ["@shopify/app-bridge-react", "@shopify/polaris"] },
}) satisfies UserConfig;
