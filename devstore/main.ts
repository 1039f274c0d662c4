import { parseLocalAdminEnv } from "./config.js";
import { seedStore } from "./seed/seed.js";
import { createLocalAdmin } from "./server.js";

/** `npm run devstore`: the local Shopify admin on LOCAL_ADMIN_PORT, seeding an empty database first. */
async function main(): Promise<void> {
  const env = parseLocalAdminEnv();
  const admin = createLocalAdmin({
    dbPath: env.LOCAL_ADMIN_DATABASE,
    shopDomain: env.LOCAL_ADMIN_SHOP,
    apiKey: env.SHOPIFY_API_KEY,
    apiSecret: env.SHOPIFY_API_SECRET,
    appUrl: env.SHOPIFY_APP_URL,
    extensionsDir: env.LOCAL_ADMIN_EXTENSIONS_DIR,
    throttle: {
      bucketSize: env.LOCAL_ADMIN_THROTTLE_BUCKET_SIZE,
      restoreRate: env.LOCAL_ADMIN_THROTTLE_RESTORE_RATE,
      maxQueryCost: env.LOCAL_ADMIN_MAX_QUERY_COST,
    },
    logger: env.LOCAL_ADMIN_LOG === "1",
  });
  if (admin.store.isEmpty()) {
    const { orders } = seedStore(admin.store, { orders: env.LOCAL_ADMIN_SEED_ORDERS, shopDomain: env.LOCAL_ADMIN_SHOP });
    console.log(`Seeded ${env.LOCAL_ADMIN_DATABASE} with ${orders} orders`);
  }
  const url = await admin.listen({ port: env.LOCAL_ADMIN_PORT, host: env.LOCAL_ADMIN_HOST });
  console.log(`Local Shopify admin for ${env.LOCAL_ADMIN_SHOP} at ${url} (Admin API ${url}/admin/api/2026-10/graphql.json)`);
  const stop = () => {
    void admin.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
