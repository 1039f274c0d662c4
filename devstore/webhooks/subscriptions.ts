import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "smol-toml";
import { z } from "zod";

export const APP_TOML = fileURLToPath(new URL("../../shopify.app.toml", import.meta.url));

export const COMPLIANCE_TOPICS = ["customers/data_request", "customers/redact", "shop/redact"] as const;
export type ComplianceTopic = (typeof COMPLIANCE_TOPICS)[number];

const AppToml = z.object({
  access_scopes: z.object({ scopes: z.string().default(""), optional_scopes: z.array(z.string()).default([]) }).optional(),
  webhooks: z
    .object({
      api_version: z.string(),
      subscriptions: z
        .array(
          z.object({
            topics: z.array(z.string()).optional(),
            compliance_topics: z.array(z.string()).optional(),
            uri: z.string(),
          }),
        )
        .default([]),
    })
    .optional(),
});

export interface AppConfig {
  /** The required scopes, comma-separated: granted at install. */
  scopes: string;
  /** The optional scopes the app may ask for at run time (App Bridge's `shopify.scopes.request`). */
  optionalScopes: string[];
  webhookApiVersion: string;
  /** topic → uris (a topic may be subscribed more than once). */
  subscriptions: Map<string, string[]>;
}

/** A comma-separated scope list (shopify.app.toml's `scopes`, an access token's) as its scopes. */
export function splitScopes(scopes: string): string[] {
  return scopes
    .split(",")
    .map((scope) => scope.trim())
    .filter(Boolean);
}

/** Reads scopes (required and optional) and webhook subscriptions (topics and compliance topics → uri) from shopify.app.toml. */
export function loadAppConfig(tomlPath: string = APP_TOML): AppConfig {
  const parsed = AppToml.parse(parse(fs.readFileSync(tomlPath, "utf8")));
  const subscriptions = new Map<string, string[]>();
  for (const sub of parsed.webhooks?.subscriptions ?? []) {
    for (const topic of [...(sub.topics ?? []), ...(sub.compliance_topics ?? [])]) {
      subscriptions.set(topic, [...(subscriptions.get(topic) ?? []), sub.uri]);
    }
  }
  return {
    scopes: parsed.access_scopes?.scopes ?? "",
    optionalScopes: parsed.access_scopes?.optional_scopes ?? [],
    webhookApiVersion: parsed.webhooks?.api_version ?? "2026-10",
    subscriptions,
  };
}
