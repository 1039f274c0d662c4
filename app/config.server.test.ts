import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config.server";

const example = parseEnv(readFileSync(new URL("../.env.example", import.meta.url), "utf8"));

describe("parseConfig", () => {
  it("GIVEN the values in .env.example THEN the app starts on them", () => {
    const env = parseConfig(example);
    expect(env.SHOPIFY_API_KEY).toBe("consign-local-api-key");
    expect(env.SHIPPING_API_URL).toBe("http://127.0.0.1:8787");
    expect(env.SHIPPING_API_PARTNER_KEY).toBe("local-partner-key");
    expect(env.DATABASE_URL).toMatch(/^file:\/.*\/var\/consign\.sqlite$/);
  });

  it.each([
    ["SHOPIFY_API_KEY", { SHOPIFY_API_KEY: undefined }],
    ["SHOPIFY_API_SECRET", { SHOPIFY_API_SECRET: "" }],
    ["SHOPIFY_APP_URL", { SHOPIFY_APP_URL: "not a url" }],
    ["LOCAL_ADMIN_URL", { LOCAL_ADMIN_URL: "127.0.0.1:8790" }],
    ["NODE_ENV", { NODE_ENV: "staging" }],
    ["CONSIGN_ENCRYPTION_KEY", { CONSIGN_ENCRYPTION_KEY: "too-short" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://localhost/consign" }],
  ])("GIVEN a bad %s THEN it fails fast naming the variable", (name, override) => {
    expect(() => parseConfig({ ...example, ...override })).toThrowError(ConfigError);
    expect(() => parseConfig({ ...example, ...override })).toThrowError(new RegExp(`${name}:`));
  });

  it("GIVEN optional variables set to nothing (NAME= in .env) THEN they count as unset and take their defaults", () => {
    const env = parseConfig({
      ...example,
      LOCAL_ADMIN_URL: "",
      APP_BRIDGE_URL: "",
      SHIPPING_API_URL: "",
      SHIPPING_API_PARTNER_KEY: " ",
      SCOPES: "",
      DATABASE_URL: "",
    });
    expect([env.LOCAL_ADMIN_URL, env.APP_BRIDGE_URL, env.SHIPPING_API_PARTNER_KEY, env.SCOPES]).toEqual([undefined, undefined, undefined, undefined]);
    expect(env.SHIPPING_API_URL).toBe("http://127.0.0.1:8787");
    expect(env.DATABASE_URL).toMatch(/^file:\/.*\/var\/consign\.sqlite$/);
  });

  it.each(["postgres://consign@db.internal:5432/consign", "postgresql://consign:secret@10.0.0.5/consign?sslmode=require"])(
    "GIVEN a PostgreSQL DATABASE_URL (%s) THEN it is kept as given",
    (url) => {
      expect(parseConfig({ ...example, DATABASE_URL: url }).DATABASE_URL).toBe(url);
    },
  );

  it("GIVEN a required variable set to nothing THEN it is reported as missing", () => {
    expect(() => parseConfig({ ...example, SHOPIFY_API_SECRET: "" })).toThrowError(/SHOPIFY_API_SECRET: SHOPIFY_API_SECRET is required/);
  });
});
