import { describe, expect, it } from "vitest";
import { parseLocalAdminEnv, parseSeedEnv } from "./config";

describe("local admin environment", () => {
  it("GIVEN optional variables set to nothing (NAME= in .env) THEN they count as unset and take their defaults", () => {
    const env = parseLocalAdminEnv({
      SHOPIFY_API_SECRET: "secret",
      LOCAL_ADMIN_PORT: "",
      LOCAL_ADMIN_SEED_ORDERS: "",
      LOCAL_ADMIN_THROTTLE_RESTORE_RATE: " ",
      LOCAL_ADMIN_SHOP: "",
      SHOPIFY_APP_URL: "",
    });
    expect(env).toMatchObject({
      LOCAL_ADMIN_PORT: 8790,
      LOCAL_ADMIN_THROTTLE_RESTORE_RATE: 100,
      LOCAL_ADMIN_SHOP: "consign-demo.myshopify.com",
      SHOPIFY_APP_URL: "http://127.0.0.1:3000",
    });
    expect(env.LOCAL_ADMIN_SEED_ORDERS).toBeGreaterThan(0);
    expect(parseSeedEnv({ LOCAL_ADMIN_DATABASE: "" }).LOCAL_ADMIN_DATABASE).toBe("var/devstore.sqlite");
  });

  it("GIVEN the client secret set to nothing THEN it fails naming the variable", () => {
    expect(() => parseLocalAdminEnv({ SHOPIFY_API_SECRET: "" })).toThrowError(/SHOPIFY_API_SECRET: SHOPIFY_API_SECRET is required/);
  });
});
