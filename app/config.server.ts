import { z } from "zod";
import { withoutEmptyVariables } from "../lib/env";
import { isPostgresUrl } from "../lib/database-provider";
import { resolveDatabaseUrl } from "./db/db-url";

/**
 * The app's environment, parsed once at start (docs/decisions/001-foundation.md). Every variable is listed
 * with a working local value in `.env.example`; `npm run demo` writes a `.env` with generated local keys.
 */
const Env = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  SHOPIFY_API_KEY: z.string({ error: "SHOPIFY_API_KEY is required (the app's client id)" }),
  SHOPIFY_API_SECRET: z.string({ error: "SHOPIFY_API_SECRET is required (the app's client secret)" }),
  SHOPIFY_APP_URL: z.url({ message: "SHOPIFY_APP_URL must be the app's public URL" }),
  SCOPES: z.string().min(1).optional(),
  SHOP_CUSTOM_DOMAIN: z.string().optional(),
  /** `file:` selects SQLite (the embedded default), `postgres://` or `postgresql://` PostgreSQL (docs/decisions/012). */
  DATABASE_URL: z
    .string()
    .optional()
    .transform((url) => resolveDatabaseUrl(url))
    .refine((url) => url.startsWith("file:") || isPostgresUrl(url), "must be a SQLite file: URL or a postgres:// (postgresql://) URL"),
  /** When set, the Admin API and token exchange are served by the local admin (devstore/) at this origin. */
  LOCAL_ADMIN_URL: z.url().optional(),
  /**
   * App Bridge script URL. Unset means Shopify's CDN; in local-admin mode it is the local admin's stand-in
   * (`${LOCAL_ADMIN_URL}/app-bridge.js`). @shopify/shopify-app-remix reads the same variable for its bounce page.
   */
  APP_BRIDGE_URL: z.url().optional(),
  /** Base URL of the Shipping API; the embedded default is the local service started by `npm run demo`. */
  SHIPPING_API_URL: z.url().default("http://127.0.0.1:8787"),
  /** How long one attempt of a Shipping API call may take, headers and body, before it counts as lost (ms). */
  SHIPPING_API_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  /**
   * Partner key for the Shipping API's Create Customer. Optional: without it onboarding offers only to
   * connect an existing account.
   */
  SHIPPING_API_PARTNER_KEY: z.string().min(1).optional(),
  /** AES-256-GCM key for credentials the app stores (app/secrets.server.ts). */
  CONSIGN_ENCRYPTION_KEY: z
    .string({ error: "CONSIGN_ENCRYPTION_KEY is required (64 hex characters)" })
    .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters (32 bytes)"),
  /** What the process does: all (the default), web or worker (app/jobs/role.ts parses it against DATABASE_URL). */
  CONSIGN_ROLE: z.string().optional(),
  /** The logger's level (pino's names); by default `info`, and `silent` under NODE_ENV=test unless a test asks. */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
});

export type AppConfig = z.infer<typeof Env>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function parseConfig(env: Record<string, string | undefined>): AppConfig {
  const result = Env.safeParse(withoutEmptyVariables(env));
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid environment:\n${problems.join("\n")}\nSee .env.example.`);
  }
  return result.data;
}

/** The logger's level: LOG_LEVEL, else `silent` in tests and `info` otherwise. */
export function logLevel(env: Pick<AppConfig, "LOG_LEVEL" | "NODE_ENV">): NonNullable<AppConfig["LOG_LEVEL"]> {
  return env.LOG_LEVEL ?? (env.NODE_ENV === "test" ? "silent" : "info");
}

/**
 * CONSIGN_CRASH_AT, the step where a crash test's app process dies (app/crash-points.server.ts). Read apart
 * from config(): domain code reaches crash points in tests that never set the app's whole environment.
 */
export function crashStep(env: Record<string, string | undefined> = process.env): string | undefined {
  return env.CONSIGN_CRASH_AT?.trim() || undefined;
}

let cached: AppConfig | undefined;

/** The process's configuration, parsed on first use and then fixed. */
export function config(): AppConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
