import { createCipheriv, createDecipheriv, createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** scrypt cost: N = 2^14, r = 8, p = 1 (OWASP's minimum for scrypt), 64-byte key. */
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 64;

/** `scrypt$N$r$p$salt$hash`, base64 parts: parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, KEY_LENGTH, SCRYPT);
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64"), hash.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await scryptAsync(password, Buffer.from(salt, "base64"), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Seals provider-account secrets at rest with AES-256-GCM; the key is derived from configured material. */
export interface SecretBox {
  seal(value: unknown): string;
  open<T>(sealed: string): T;
}

export function createSecretBox(keyMaterial: string): SecretBox {
  // Accept any passphrase: SHA-256 gives the 32-byte key AES-256 needs.
  const key = createHash("sha256").update(keyMaterial, "utf8").digest();
  return {
    seal(value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
      return [iv, cipher.getAuthTag(), data].map((part) => part.toString("base64")).join(".");
    },
    open<T>(sealed: string): T {
      const [iv, tag, data] = sealed.split(".").map((part) => Buffer.from(part, "base64"));
      if (!iv || !tag || !data) throw new Error("Malformed sealed value");
      const decipher = createDecipheriv("aes-256-gcm", key, iv);
      decipher.setAuthTag(tag);
      return JSON.parse(Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8")) as T;
    },
  };
}

/** Identifiers keep their last four characters so a person can tell accounts apart; secrets show nothing. */
const IDENTIFIER_FIELDS = new Set(["accountNumber", "userId", "clientId", "mailerId"]);

export function maskAccountField(field: string, value: string): string {
  if (IDENTIFIER_FIELDS.has(field) && value.length > 4) return `${"*".repeat(value.length - 4)}${value.slice(-4)}`;
  return "********";
}
