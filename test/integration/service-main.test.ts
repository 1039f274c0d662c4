import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../support/free-port";
import { emptyPostgresDatabase, postgresRun } from "../support/postgres";

const root = resolve(import.meta.dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "service-main-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ["--import", "tsx", "service/main.ts"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "development", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return { child, output: () => output, exited };
}

async function waitForHealth(baseUrl: string): Promise<Response> {
  for (let attempt = 0; attempt < 150; attempt++) {
    try {
      return await fetch(`${baseUrl}/healthz`);
    } catch {
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  throw new Error("service never answered /healthz");
}

describe("npm run service (service/main.ts)", () => {
  it("GIVEN the environment THEN it migrates, seeds the demo customer, answers /healthz, and stops cleanly on SIGTERM", async () => {
    const port = await freePort();
    // On the PostgreSQL tier, an empty PostgreSQL database: the service migrates it on start.
    const databaseUrl = postgresRun() ? await emptyPostgresDatabase() : `file:${join(dir, "main.sqlite")}`;
    const service = start({
      SHIPPING_SERVICE_PORT: String(port),
      SHIPPING_SERVICE_DATABASE_URL: databaseUrl,
      SHIPPING_SERVICE_SEED_CUSTOMER: "true",
      SHIPPING_SERVICE_FAKE_NOW: "2026-11-23T09:00:00Z",
    });
    const health = await waitForHealth(`http://127.0.0.1:${port}`);
    expect(health.status).toBe(200);
    const logLines = service
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const demo = logLines.find((line) => line.msg === "demo customer ready");
    expect(demo).toMatchObject({ email: "demo@consign.local", password: "demo-password", created: true });
    expect(logLines.find((line) => line.msg === "service clock starts at SHIPPING_SERVICE_FAKE_NOW")?.now).toMatch(/^2026-11-23T09:00/);
    // The seeded customer can use the API right away.
    const services = await fetch(`http://127.0.0.1:${port}/restapi/v1/customers/${String(demo!.customerId)}/services`, {
      headers: { authorization: `Basic ${Buffer.from("demo@consign.local:demo-password").toString("base64")}` },
    });
    expect(services.status).toBe(200);
    service.child.kill("SIGTERM");
    expect(await service.exited).toBe(0);
    expect(service.output()).toContain('"signal":"SIGTERM"');
  }, 30_000);

  it("GIVEN optional variables set to nothing, as a copied .env leaves them THEN it starts on the defaults", async () => {
    const port = await freePort();
    const service = start({
      SHIPPING_SERVICE_PORT: String(port),
      SHIPPING_SERVICE_DATABASE_URL: `file:${join(dir, "empty-vars.sqlite")}`,
      SHIPPING_SERVICE_FAKE_NOW: "",
      SHIPPING_SERVICE_LOG_LEVEL: "",
      SHIPPING_SERVICE_SEED_CUSTOMER: "",
    });
    const health = await waitForHealth(`http://127.0.0.1:${port}`);
    expect(health.status, service.output()).toBe(200);
    expect(service.output()).not.toContain("service clock starts at SHIPPING_SERVICE_FAKE_NOW");
    service.child.kill("SIGTERM");
    expect(await service.exited).toBe(0);
  }, 30_000);

  it("GIVEN NODE_ENV=production with the local default partner key THEN it refuses to start", async () => {
    const service = start({
      NODE_ENV: "production",
      SHIPPING_SERVICE_PORT: String(await freePort()),
      SHIPPING_SERVICE_DATABASE_URL: `file:${join(dir, "prod.sqlite")}`,
    });
    expect(await service.exited).toBe(1);
    expect(service.output()).toMatch(/SHIPPING_SERVICE_PARTNER_KEY: the local default partner key is refused/);
  }, 30_000);
});
