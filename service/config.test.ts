import { describe, expect, it } from "vitest";
import { ConfigError, LOCAL_PARTNER_KEY, parseServiceConfig } from "./config";
import { createManualClock, createOffsetClock } from "./clock";

describe("service configuration", () => {
  it("GIVEN nothing THEN the documented local defaults", () => {
    expect(parseServiceConfig({})).toMatchObject({
      SHIPPING_SERVICE_PORT: 8787,
      SHIPPING_SERVICE_DATABASE_URL: "file:./var/shipping-service.sqlite",
      SHIPPING_SERVICE_PARTNER_KEY: LOCAL_PARTNER_KEY,
      SHIPPING_SERVICE_SEED_CUSTOMER: false,
      validateResponses: true,
    });
  });

  it("GIVEN optional variables set to nothing (NAME= in a .env file) THEN they count as unset and take their defaults", () => {
    const config = parseServiceConfig({
      SHIPPING_SERVICE_FAKE_NOW: "",
      SHIPPING_SERVICE_PORT: "",
      SHIPPING_SERVICE_LOG_LEVEL: " ",
      SHIPPING_SERVICE_VALIDATE_RESPONSES: "",
    });
    expect(config).toMatchObject({ SHIPPING_SERVICE_PORT: 8787, SHIPPING_SERVICE_LOG_LEVEL: "info", validateResponses: true });
    expect(config.SHIPPING_SERVICE_FAKE_NOW).toBeUndefined();
  });

  it("GIVEN production with the local default keys THEN it refuses to start, naming both", () => {
    expect(() => parseServiceConfig({ NODE_ENV: "production" })).toThrow(ConfigError);
    expect(() => parseServiceConfig({ NODE_ENV: "production" })).toThrow(/SHIPPING_SERVICE_PARTNER_KEY[\s\S]*SHIPPING_SERVICE_SECRETS_KEY/);
  });

  it("GIVEN production with real keys THEN it starts without response validation", () => {
    expect(
      parseServiceConfig({ NODE_ENV: "production", SHIPPING_SERVICE_PARTNER_KEY: "a-real-partner-key", SHIPPING_SERVICE_SECRETS_KEY: "a-real-secrets-key" })
        .validateResponses,
    ).toBe(false);
  });

  it.each([
    ["SHIPPING_SERVICE_PORT", "http"],
    ["SHIPPING_SERVICE_PORT", "70000"],
    ["SHIPPING_SERVICE_FAKE_NOW", "yesterday"],
    ["SHIPPING_SERVICE_DATABASE_URL", "mysql://localhost/shipping"],
    ["SHIPPING_SERVICE_SEED_CUSTOMER", "maybe"],
  ])("GIVEN %s=%s THEN a config error names it", (name, value) => {
    expect(() => parseServiceConfig({ [name]: value })).toThrow(name);
  });

  it("GIVEN a PostgreSQL SHIPPING_SERVICE_DATABASE_URL THEN it is taken as given", () => {
    expect(parseServiceConfig({ SHIPPING_SERVICE_DATABASE_URL: "postgresql://svc@db:5432/shipping" }).SHIPPING_SERVICE_DATABASE_URL).toBe(
      "postgresql://svc@db:5432/shipping",
    );
  });

  it("GIVEN SHIPPING_SERVICE_FAKE_NOW THEN the clock starts there and advances in real time", () => {
    const real = createManualClock(new Date("2030-01-01T00:00:00Z"));
    const clock = createOffsetClock(new Date(parseServiceConfig({ SHIPPING_SERVICE_FAKE_NOW: "2026-11-23T09:00:00Z" }).SHIPPING_SERVICE_FAKE_NOW!), real);
    expect(clock.now().toISOString()).toBe("2026-11-23T09:00:00.000Z");
    real.advance(90_000);
    expect(clock.now().toISOString()).toBe("2026-11-23T09:01:30.000Z");
  });
});
