import { z } from "zod";
import { isPostgresUrl } from "../lib/database-provider";
import { withoutEmptyVariables } from "../lib/env";
import { type Clock, createOffsetClock, systemClock } from "./clock";
import { DEFAULT_SERVICE_DATABASE_URL } from "./db/database-url";

/** Documented local defaults. They work out of the box and are refused in production. */
export const LOCAL_PARTNER_KEY = "local-partner-key";
export const LOCAL_SECRETS_KEY = "local-secrets-key";

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
    SHIPPING_SERVICE_HOST: z.string().min(1).default("127.0.0.1"),
    SHIPPING_SERVICE_PORT: z.coerce.number().int().min(0).max(65535).default(8787),
    SHIPPING_SERVICE_DATABASE_URL: z
      .string()
      .refine((url) => url.startsWith("file:") || isPostgresUrl(url), "must be a SQLite file: URL or a postgres:// (postgresql://) URL")
      .default(DEFAULT_SERVICE_DATABASE_URL),
    SHIPPING_SERVICE_PARTNER_KEY: z.string().min(8, "must be at least 8 characters").default(LOCAL_PARTNER_KEY),
    SHIPPING_SERVICE_SECRETS_KEY: z.string().min(8, "must be at least 8 characters").default(LOCAL_SECRETS_KEY),
    /** ISO timestamp: the service clock starts there and advances in real time. */
    SHIPPING_SERVICE_FAKE_NOW: z.iso.datetime({ offset: true }).optional(),
    /** "true": make sure the demo customer exists on start and log its credentials. */
    SHIPPING_SERVICE_SEED_CUSTOMER: z.stringbool().default(false),
    SHIPPING_SERVICE_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** Check every response against the contract before sending; default on except in production. */
    SHIPPING_SERVICE_VALIDATE_RESPONSES: z.stringbool().optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== "production") return;
    if (env.SHIPPING_SERVICE_PARTNER_KEY === LOCAL_PARTNER_KEY) {
      ctx.addIssue({ code: "custom", path: ["SHIPPING_SERVICE_PARTNER_KEY"], message: "the local default partner key is refused when NODE_ENV=production" });
    }
    if (env.SHIPPING_SERVICE_SECRETS_KEY === LOCAL_SECRETS_KEY) {
      ctx.addIssue({ code: "custom", path: ["SHIPPING_SERVICE_SECRETS_KEY"], message: "the local default secrets key is refused when NODE_ENV=production" });
    }
  });

export type ServiceConfig = z.infer<typeof EnvSchema> & { validateResponses: boolean };

export class ConfigError extends Error {}

/** Parses the environment once; every problem is reported together, naming the variable. */
export function parseServiceConfig(env: Record<string, string | undefined> = process.env): ServiceConfig {
  const parsed = EnvSchema.safeParse(withoutEmptyVariables(env));
  if (!parsed.success) {
    throw new ConfigError(
      `Invalid Shipping API service environment:\n${parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`).join("\n")}`,
    );
  }
  return { ...parsed.data, validateResponses: parsed.data.SHIPPING_SERVICE_VALIDATE_RESPONSES ?? parsed.data.NODE_ENV !== "production" };
}

/** The system clock, or one starting at SHIPPING_SERVICE_FAKE_NOW when that is set. */
export function serviceClock(config: Pick<ServiceConfig, "SHIPPING_SERVICE_FAKE_NOW">): Clock {
  return config.SHIPPING_SERVICE_FAKE_NOW ? createOffsetClock(new Date(config.SHIPPING_SERVICE_FAKE_NOW)) : systemClock;
}
