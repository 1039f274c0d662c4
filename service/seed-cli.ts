import { parseServiceConfig, serviceClock } from "./config";
import { openServiceDatabase } from "./db/store";
import { ensureDemoCustomer } from "./seed";

/** `npm run service:seed`: creates (or finds) the demo customer and prints its credentials as JSON. */
const config = parseServiceConfig();
const clock = serviceClock(config);
const db = await openServiceDatabase(config.SHIPPING_SERVICE_DATABASE_URL);
try {
  const demo = await ensureDemoCustomer({ db, clock, secretsKey: config.SHIPPING_SERVICE_SECRETS_KEY });
  console.log(JSON.stringify(demo, null, 2));
} finally {
  db.close();
}
