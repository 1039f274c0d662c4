import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openSecret, parseEncryptionKey, SecretError, sealSecret } from "./secrets.server";

const key = randomBytes(32);

describe("sealed secrets", () => {
  it("GIVEN a sealed password THEN it opens with the same key and shop, and never contains the plaintext", () => {
    const sealed = sealSecret(key, "hunter2-ünïcode", "a.myshopify.com");
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain("hunter2");
    expect(openSecret(key, sealed, "a.myshopify.com")).toBe("hunter2-ünïcode");
  });

  it("GIVEN the same plaintext twice THEN the sealed values differ (random IV)", () => {
    expect(sealSecret(key, "same", "a")).not.toBe(sealSecret(key, "same", "a"));
  });

  it.each([
    ["another key", (sealed: string) => openSecret(randomBytes(32), sealed, "a.myshopify.com")],
    ["another shop", (sealed: string) => openSecret(key, sealed, "b.myshopify.com")],
    ["a flipped byte", (sealed: string) => openSecret(key, sealed.slice(0, -2) + (sealed.endsWith("A") ? "BB" : "AA"), "a.myshopify.com")],
    ["a foreign format", () => openSecret(key, "plaintext", "a.myshopify.com")],
  ])("GIVEN %s THEN it refuses to open", (_case, open) => {
    const sealed = sealSecret(key, "secret", "a.myshopify.com");
    expect(() => open(sealed)).toThrowError(SecretError);
  });

  it("GIVEN a key that is not 64 hex characters THEN it is refused", () => {
    expect(() => parseEncryptionKey("generated-64-hex-characters")).toThrowError(/64 hex characters/);
    expect(parseEncryptionKey("ab".repeat(32))).toHaveLength(32);
  });
});
