import { ConfigError, parseServiceConfig, serviceClock } from "./config";
import { openServiceDatabase } from "./db/store";
import { createShippingService } from "./http/app";
import { ensureDemoCustomer } from "./seed";

/**
 * `npm run service`: the Shipping API service on SHIPPING_SERVICE_PORT (default 8787), its database
 * (SQLite, or PostgreSQL for a postgres:// SHIPPING_SERVICE_DATABASE_URL) migrated on start. Stops gracefully on SIGINT/SIGTERM: in-flight requests finish, then the
 * database is closed.
 */
async function main(): Promise<void> {
  const config = parseServiceConfig();
  const clock = serviceClock(config);
  const db = await openServiceDatabase(config.SHIPPING_SERVICE_DATABASE_URL);
  const app = createShippingService({
    db,
    clock,
    partnerKey: config.SHIPPING_SERVICE_PARTNER_KEY,
    secretsKey: config.SHIPPING_SERVICE_SECRETS_KEY,
    logger: { level: config.SHIPPING_SERVICE_LOG_LEVEL },
    validateResponses: config.validateResponses,
  });
  if (config.SHIPPING_SERVICE_SEED_CUSTOMER) {
    const demo = await ensureDemoCustomer({ db, clock, secretsKey: config.SHIPPING_SERVICE_SECRETS_KEY });
    app.log.info({ customerId: demo.customerId, email: demo.email, password: demo.password, created: demo.created }, "demo customer ready");
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down");
    try {
      await app.close();
    } finally {
      db.close();
    }
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
  await app.listen({ host: config.SHIPPING_SERVICE_HOST, port: config.SHIPPING_SERVICE_PORT });
  if (config.SHIPPING_SERVICE_FAKE_NOW) app.log.info({ now: clock.now().toISOString() }, "service clock starts at SHIPPING_SERVICE_FAKE_NOW");
}

main().catch((error: unknown) => {
  // Configuration problems are the operator's to fix: say what is wrong, without a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
