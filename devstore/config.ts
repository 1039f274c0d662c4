import { z } from "zod";
import { withoutEmptyVariables } from "../lib/env.js";
import { DEFAULT_SEED_ORDERS, MAX_SEED_ORDERS } from "./seed/seed.js";

/** Environment of the local admin, parsed once (fail fast with every problem listed). */
export const LocalAdminEnv = z.object({
  LOCAL_ADMIN_PORT: z.coerce.number().int().min(0).max(65535).default(8790),
  LOCAL_ADMIN_HOST: z.string().default("127.0.0.1"),
  LOCAL_ADMIN_DATABASE: z.string().default("var/devstore.sqlite"),
  LOCAL_ADMIN_SHOP: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, "must be a <name>.myshopify.com domain")
    .default("consign-demo.myshopify.com"),
  LOCAL_ADMIN_SEED_ORDERS: z.coerce.number().int().min(0).max(MAX_SEED_ORDERS).default(DEFAULT_SEED_ORDERS),
  LOCAL_ADMIN_THROTTLE_BUCKET_SIZE: z.coerce.number().positive().default(1000),
  LOCAL_ADMIN_THROTTLE_RESTORE_RATE: z.coerce.number().positive().default(100),
  LOCAL_ADMIN_MAX_QUERY_COST: z.coerce.number().positive().default(1000),
  LOCAL_ADMIN_LOG: z.enum(["0", "1"]).default("0"),
  LOCAL_ADMIN_EXTENSIONS_DIR: z.string().default("build/extensions"),
  SHOPIFY_API_KEY: z.string().min(1).default("consign-local"),
  SHOPIFY_API_SECRET: z.string({ error: "SHOPIFY_API_SECRET is required (the app's client secret; session tokens and webhooks are signed with it)" }),
  SHOPIFY_APP_URL: z.string().url().default("http://127.0.0.1:3000"),
});

export type LocalAdminEnv = z.infer<typeof LocalAdminEnv>;

function parseEnv<T extends z.ZodObject>(schema: T, env: Record<string, string | undefined>): z.infer<T> {
  const parsed = schema.safeParse(withoutEmptyVariables(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid local admin environment:\n${problems}`);
  }
  return parsed.data;
}

export function parseLocalAdminEnv(env: Record<string, string | undefined> = process.env): LocalAdminEnv {
  return parseEnv(LocalAdminEnv, env);
}

/** What `npm run devstore:seed` reads: the store's file and shop, with the server's defaults and checks. */
export function parseSeedEnv(env: Record<string, string | undefined> = process.env): Pick<LocalAdminEnv, "LOCAL_ADMIN_DATABASE" | "LOCAL_ADMIN_SHOP"> {
  return parseEnv(LocalAdminEnv.pick({ LOCAL_ADMIN_DATABASE: true, LOCAL_ADMIN_SHOP: true }), env);
}
