import type { FastifyInstance } from "fastify";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { type ShippingClient, createShippingClient } from "../../shipping-api/client";
import type { CreateCustomerRequest } from "../../shipping-api/contract";
import { buildCreateCustomer } from "../factories/shipping-api";
import { temporaryDirectory } from "./temporary-directory";
import { type ManualClock, createManualClock } from "../../service/clock";
import { type ServiceStore, openServiceDatabase } from "../../service/db/store";
import { createShippingService } from "../../service/http/app";
import { ServiceError } from "../../service/errors";
import { freshPostgresDatabase, postgresRun } from "./postgres";

export const PARTNER_KEY = "test-partner-key";
export const SECRETS_KEY = "test-secrets-key";
export const START = new Date("2026-11-23T15:00:00Z");

export interface TestCustomer {
  customerId: string;
  email: string;
  password: string;
  client: ShippingClient;
  authorization: string;
}

export interface RunningService {
  app: FastifyInstance;
  db: ServiceStore;
  clock: ManualClock;
  baseUrl: string;
  partner: ShippingClient;
  /** Creates a customer through the API (Create Customer) and a client logged in as it. */
  createCustomer(overrides?: Partial<z.input<typeof CreateCustomerRequest>>): Promise<TestCustomer>;
  clientFor(credentials: { customerId: string; email: string; password: string }): ShippingClient;
  /** Raw HTTP for what the typed client refuses to send (contract-breaking input). */
  fetch(path: string, init?: RequestInit & { authorization?: string }): Promise<{ status: number; body: unknown; headers: Headers }>;
  close(): Promise<void>;
}

let customerCounter = 0;

/** Clients of a Shipping API service at `baseUrl`, whichever process runs it. */
export type ServiceClients = Pick<RunningService, "baseUrl" | "partner" | "createCustomer" | "clientFor">;

/** Typed clients of the service at `baseUrl` (no retries: tests see every answer), and Create Customer through them. */
export function serviceClients(baseUrl: string, partnerKey = PARTNER_KEY): ServiceClients {
  const noRetry = { retry: { attempts: 1 } };
  const clientFor: RunningService["clientFor"] = (credentials) =>
    createShippingClient({ baseUrl, credentials: { kind: "customer", ...credentials }, ...noRetry });
  const partner = createShippingClient({ baseUrl, credentials: { kind: "partner", key: partnerKey }, ...noRetry });
  return {
    baseUrl,
    partner,
    clientFor,
    async createCustomer(overrides = {}) {
      customerCounter += 1;
      const email = overrides.email ?? `merchant-${customerCounter}-${Date.now()}@consign.test`;
      const password = overrides.password ?? `pw-${customerCounter}-secret`;
      const created = await partner.createCustomer({ body: buildCreateCustomer({ ...overrides, email, password }) });
      if (!created.ok) throw new Error(`createCustomer failed: ${JSON.stringify(created.error)}`);
      const { customerId } = created.value;
      return {
        customerId,
        email,
        password,
        client: clientFor({ customerId, email, password }),
        authorization: `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}`,
      };
    },
  };
}

/**
 * The real service in-process on an ephemeral port, over a fresh SQLite file (on the PostgreSQL tier, a fresh
 * PostgreSQL database of the run), with a hand-moved clock.
 */
export async function startService(options: { labelRetentionDays?: number } = {}): Promise<RunningService> {
  const dir = temporaryDirectory("shipping-service-");
  const db = await openServiceDatabase(postgresRun() ? freshPostgresDatabase("service") : `file:${join(dir, "service.sqlite")}`);
  const clock = createManualClock(START);
  const app = createShippingService({
    db,
    clock,
    partnerKey: PARTNER_KEY,
    secretsKey: SECRETS_KEY,
    logger: false,
    labelRetentionDays: options.labelRetentionDays,
  });
  // The service logs nothing here; a failure of its own (5xx) is what a test that fails through it needs to say.
  app.addHook("onError", async (request, _reply, error: Error & { statusCode?: number }) => {
    const status = error instanceof ServiceError ? error.status : (error.statusCode ?? 500);
    if (status >= 500) console.error(`the Shipping API service answered ${request.method} ${request.url} with ${status}: ${error.stack ?? error.message}`);
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("service did not bind a TCP port");
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    app,
    db,
    clock,
    ...serviceClients(baseUrl),
    async fetch(path, init = {}) {
      const { authorization, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (authorization) headers.set("authorization", authorization);
      const response = await fetch(`${baseUrl}${path}`, { ...rest, headers });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: the tests assert on that.
      }
      return { status: response.status, body, headers: response.headers };
    },
    async close() {
      await app.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Unwraps a client result, failing the test with the error when it is not ok. */
export function ok<T>(result: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value;
}

/** The error of a client result that must have failed. */
export function failed<E>(result: { ok: true; value: unknown } | { ok: false; error: E }): E {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value).slice(0, 300)}`);
  return result.error;
}
