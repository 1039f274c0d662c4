import fs from "node:fs";
import path from "node:path";
import { createLocalAdmin, type LocalAdmin, type LocalAdminOptions } from "../../devstore/server.js";
import { seedStore } from "../../devstore/seed/seed.js";
import { temporaryDirectory } from "./temporary-directory";

/** Test harness: a seeded local admin on 127.0.0.1:0 with its own temporary database and an offline token. */

export const SHOP = "consign-test.myshopify.com";
export const API_KEY = "consign-test-key";
export const API_SECRET = "consign-test-secret";
/**
 * The verified Admin API documents in shared/, which sits beside the repository (as the README's links to
 * ../shared assume), resolved from the repository root rather than from any one machine's layout.
 */
export const SHARED_DOCS = path.resolve(import.meta.dirname, "..", "..", "..", "shared", "docs", "shopify-graphql");

export interface ManualClock {
  (): number;
  advance(ms: number): void;
  set(ms: number): void;
}

export function manualClock(start = Date.parse("2026-11-20T12:00:00Z")): ManualClock {
  let now = start;
  const clock = (() => now) as ManualClock;
  clock.advance = (ms) => {
    now += ms;
  };
  clock.set = (ms) => {
    now = ms;
  };
  return clock;
}

export interface Harness {
  admin: LocalAdmin;
  url: string;
  token: string;
  dir: string;
  gql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, token?: string): Promise<GqlResult<T>>;
  close(): Promise<void>;
}

export interface GqlResult<T> {
  status: number;
  body: {
    data?: T;
    errors?: { message: string; path?: (string | number)[]; locations?: unknown[]; extensions?: Record<string, unknown> }[] | string;
    extensions?: {
      cost?: {
        requestedQueryCost: number;
        actualQueryCost: number | null;
        throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
      };
      search?: unknown[];
    };
  };
}

export async function startHarness(options: Partial<LocalAdminOptions> & { orders?: number } = {}): Promise<Harness> {
  const dir = temporaryDirectory("devstore-test-");
  const admin = createLocalAdmin({
    dbPath: path.join(dir, "devstore.sqlite"),
    shopDomain: SHOP,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    appUrl: "http://127.0.0.1:9",
    webhookRetry: { maxAttempts: 1, baseDelayMs: 5 },
    ...options,
  });
  seedStore(admin.store, { orders: options.orders ?? 60, shopDomain: SHOP });
  const url = await admin.listen();
  const token = admin.issueAccessToken();
  const gql = async <T>(query: string, variables?: Record<string, unknown>, useToken = token): Promise<GqlResult<T>> => {
    const response = await fetch(`${url}/admin/api/2026-10/graphql.json`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": useToken },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: (await response.json()) as GqlResult<T>["body"] };
  };
  return {
    admin,
    url,
    token,
    dir,
    gql,
    async close() {
      // The app's jobs this file sent stop first: none runs on (and fails, retrying) against a local admin that is gone.
      await (await import("../../app/job-queue.server")).stopProcessJobQueue({ timeoutMs: 5_000 });
      await admin.webhooks.drain();
      await admin.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function readDoc(name: string): string {
  if (!fs.existsSync(SHARED_DOCS)) throw new Error(`The shared Admin API documents are missing: put shared/ beside the repository (${SHARED_DOCS})`);
  const file = fs.readdirSync(SHARED_DOCS).find((f) => f.startsWith(name));
  if (!file) throw new Error(`No shared GraphQL document ${name}`);
  return fs.readFileSync(path.join(SHARED_DOCS, file), "utf8");
}
