import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Credentials the app stores for a shop (the Shipping API password) are sealed with AES-256-GCM under
 * CONSIGN_ENCRYPTION_KEY. The sealed form is `v1.<iv>.<tag>.<ciphertext>` in base64url, so a key rotation
 * can add `v2` later. The shop domain is bound as associated data: a value copied to another shop's row
 * does not open.
 */
const VERSION = "v1";

export class SecretError extends Error {
  override name = "SecretError";
}

export function parseEncryptionKey(hex: string): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new SecretError("CONSIGN_ENCRYPTION_KEY must be 64 hex characters (32 bytes)");
  return Buffer.from(hex, "hex");
}

export function sealSecret(key: Buffer, plaintext: string, boundTo: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(boundTo, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

export function openSecret(key: Buffer, sealed: string, boundTo: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new SecretError("Unrecognised sealed secret");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(boundTo, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretError("The stored secret cannot be opened with this key (wrong key, or the value was altered)");
  }
}
