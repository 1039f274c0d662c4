import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhookBody } from "../../devstore/webhooks/dispatcher";
import { WEBHOOK_BODY_LIMIT } from "../../app/body-limits";
import { startInstalledStack, type InstalledStack } from "../support/account.js";
import { peakRssMb, startScriptEnv } from "../support/figures.js";
import { streamOversizedBody, type StreamedUpload } from "../support/http-probe.js";
import { BROWSER_USER_AGENT } from "../support/stack.js";

/**
 * The crash test of the app's public edge (issue 28, docs/decisions/020): oversized bodies, hundreds of
 * megabytes each, streamed in parallel to the webhook routes (unauthenticated, before their HMAC) and to form
 * routes (authenticated, before their form is read), declared and chunked. Four such webhook POSTs used to
 * end the app with "JavaScript heap out of memory". The app, run with `npm start`'s memory settings, must
 * refuse each without reading it, keep answering while they stream, and keep its resident memory within
 * {@link RSS_BUDGET_MB}.
 */

/** The app's working figure is about 200 MB (README, Figures); twice that is the most oversized bodies may cost. */
const RSS_BUDGET_MB = 400;
const MB = 1024 * 1024;

let stack: InstalledStack;

beforeAll(async () => {
  stack = await startInstalledStack({
    appEnv: startScriptEnv(), // `npm start`'s memory settings
  });
});
afterAll(async () => {
  await stack?.stop();
});

function webhookHeaders(secret: string): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": BROWSER_USER_AGENT,
    "x-shopify-topic": "orders/updated",
    "x-shopify-shop-domain": stack.shop,
    "x-shopify-api-version": "2026-10",
    "x-shopify-webhook-id": randomUUID(),
    // The signature of another body: the app cannot know that before it has read this one.
    "x-shopify-hmac-sha256": signWebhookBody("{}", secret),
  };
}

async function pageHeaders(token?: string): Promise<Record<string, string>> {
  return {
    authorization: `Bearer ${token ?? (await stack.admin.mintSessionToken())}`,
    "user-agent": BROWSER_USER_AGENT,
    "content-type": "application/x-www-form-urlencoded",
  };
}

interface Upload {
  name: string;
  path: string;
  bytes: number;
  declareLength: boolean;
  headers: Record<string, string>;
  /** The statuses the refusal may have. */
  expected: number[];
}

describe("oversized bodies streamed in parallel", () => {
  it("GIVEN 12 bodies of 300–450 MB streamed at once to the webhook routes and form routes THEN each is refused unread with Connection: close, the app keeps answering throughout, and its RSS stays within budget", async () => {
    const pid = stack.app.process.pid!;
    const forged = `${(await stack.admin.mintSessionToken()).split(".").slice(0, 2).join(".")}.${Buffer.from("forged").toString("base64url")}`;
    const uploads: Upload[] = [
      // Unauthenticated webhooks, chunked: read up to the limit (413), or not at all while the budget is full (503).
      ...["/webhooks/orders", "/webhooks/orders", "/webhooks/fulfillments", "/webhooks/app"].map((path) => ({
        name: `${path} chunked`,
        path,
        bytes: 400 * MB,
        declareLength: false,
        headers: webhookHeaders("not-the-app-secret"),
        expected: [413, 503],
      })),
      // Declared over the limit: refused by the edge before Remix sees it, signed or not.
      ...[stack.apiSecret, "not-the-app-secret"].map((secret) => ({
        name: "/webhooks/orders declared",
        path: "/webhooks/orders",
        bytes: 450 * MB,
        declareLength: true,
        headers: webhookHeaders(secret),
        expected: [413],
      })),
      // Authenticated forms, chunked: the form's reader counts and refuses past 1 MiB.
      ...[
        "/app/batches/new?_data=routes%2Fapp.batches.new",
        "/app/fulfillments?_data=routes%2Fapp.fulfillments",
        "/app/shipments?_data=routes%2Fapp.shipments",
      ].map((path) => ({ name: `${path} chunked`, path, bytes: 300 * MB, declareLength: false, headers: {}, expected: [413] })),
      // Refusals that never wanted the body: a forged token (401), a route without an action (405).
      { name: "forged token", path: "/app/batches/new?_data=routes%2Fapp.batches.new", bytes: 300 * MB, declareLength: false, headers: {}, expected: [401] },
      { name: "no action", path: "/app/overview?_data=routes%2Fapp.overview", bytes: 300 * MB, declareLength: false, headers: {}, expected: [405] },
      { name: "declared form", path: "/app/settings?_data=routes%2Fapp.settings", bytes: 300 * MB, declareLength: true, headers: {}, expected: [413] },
    ];
    for (const upload of uploads.filter((candidate) => candidate.path.startsWith("/app/"))) {
      Object.assign(upload.headers, await pageHeaders(upload.name === "forged token" ? forged : undefined));
    }

    // While they stream, a page keeps answering (opened once before, so its first render is not what is timed).
    await (await fetch(`${stack.app.url}/auth/login`, { headers: { "user-agent": BROWSER_USER_AGENT } })).arrayBuffer();
    let streaming = true;
    const answers: number[] = [];
    const probing = (async () => {
      while (streaming) {
        const started = performance.now();
        const response = await fetch(`${stack.app.url}/auth/login`, { headers: { "user-agent": BROWSER_USER_AGENT } });
        await response.arrayBuffer();
        expect(response.status).toBe(200);
        answers.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const results: StreamedUpload[] = await Promise.all(uploads.map((upload) => streamOversizedBody(stack.app.url, upload)));
    streaming = false;
    await probing;

    results.forEach((result, index) => {
      const upload = uploads[index]!;
      expect(upload.expected, `${upload.name}: ${result.status} ${result.text.slice(0, 200)}`).toContain(result.status);
      expect(result.connection, upload.name).toBe("close");
      expect(result.text, upload.name).not.toMatch(/\bat \S+ \(|node_modules|\/work\/|\.ts:\d+/);
    });
    const sentMb = results.reduce((sum, result) => sum + result.sentBytes, 0) / MB;
    const peak = peakRssMb(pid);
    console.log(
      `oversized bodies: ${uploads.length} in parallel, ${sentMb.toFixed(0)} MB written in all before each was answered and closed; ` +
        `${answers.length} page answers meanwhile (slowest ${Math.max(...answers).toFixed(0)} ms); app peak RSS ${peak?.toFixed(0)} MB (budget ${RSS_BUDGET_MB} MB, a shared machine)`,
    );
    expect(results.some((result) => result.sentBytes > WEBHOOK_BODY_LIMIT)).toBe(true);
    expect(answers.length).toBeGreaterThan(0);
    expect(peak).not.toBeNull();
    expect(peak!).toBeLessThan(RSS_BUDGET_MB);

    // And afterwards the app is whole: a signed delivery is received, a page is served.
    const body = JSON.stringify({ id: 990_002, admin_graphql_api_id: "gid://shopify/Order/990002" });
    const delivered = await fetch(`${stack.app.url}/webhooks/orders`, {
      method: "POST",
      body,
      headers: { ...webhookHeaders(stack.apiSecret), "x-shopify-hmac-sha256": signWebhookBody(body, stack.apiSecret) },
    });
    expect(delivered.status).toBe(200);
    const page = await fetch(`${stack.app.url}/app/overview?_data=routes%2Fapp.overview`, { headers: await pageHeaders() });
    expect(page.status).toBe(200);
    expect(stack.app.process.exitCode).toBeNull();
  });
});
