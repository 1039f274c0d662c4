import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhookBody } from "../../devstore/webhooks/dispatcher";
import { FORM_BODY_LIMIT, WEBHOOK_BODY_LIMIT } from "../../app/body-limits";
import { startInstalledStack, type InstalledStack } from "../support/account.js";
import { createKeepAliveClient, rawExchange, type ProbeResponse } from "../support/http-probe.js";
import { BROWSER_USER_AGENT } from "../support/stack.js";

/**
 * The app's public edge over HTTP against the built app (issue 28, docs/decisions/020): bodies bounded before
 * they are authenticated, connections kept sane after every refusal from every layer, and the inputs that
 * used to be answered 500 answered with a 4xx naming the problem. What held must keep holding: refused
 * requests write nothing, and no answer carries a stack trace or an internal path.
 */

let stack: InstalledStack;

beforeAll(async () => {
  stack = await startInstalledStack();
});
afterAll(async () => {
  await stack?.stop();
});

const LEAKS = /\bat \S+ \(|node_modules|\/work\/|\.tsx?:\d+|\.js:\d+/;

function webhookHeaders(input: { topic?: string; shop?: string; body: string; secret?: string; webhookId?: string }): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": BROWSER_USER_AGENT,
    "x-shopify-topic": input.topic ?? "orders/updated",
    "x-shopify-shop-domain": input.shop ?? stack.shop,
    "x-shopify-api-version": "2026-10",
    "x-shopify-webhook-id": input.webhookId ?? randomUUID(),
    "x-shopify-hmac-sha256": signWebhookBody(input.body, input.secret ?? stack.apiSecret),
  };
}

async function pageHeaders(shop?: string): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await stack.admin.mintSessionToken(shop ? { shop } : {})}`, "user-agent": BROWSER_USER_AGENT };
}

function deliveries(): number {
  return (stack.appDb.prepare(`SELECT COUNT(*) AS count FROM "WebhookDelivery"`).get() as { count: number }).count;
}

async function send(path: string, init: RequestInit): Promise<{ status: number; text: string; connection: string | null }> {
  const response = await fetch(`${stack.app.url}${path}`, { redirect: "manual", ...init });
  const text = await response.text();
  expect(text, `${path} leaks`).not.toMatch(LEAKS);
  return { status: response.status, text, connection: response.headers.get("connection") };
}

describe("bounded before authenticated", () => {
  it("GIVEN a webhook body declared over the limit, signed or not THEN 413 without reading it, Connection: close, and nothing recorded", async () => {
    const before = deliveries();
    for (const secret of [stack.apiSecret, "not-the-app-secret"]) {
      const exchange = await rawExchange(
        stack.app.url,
        `POST /webhooks/orders HTTP/1.1\r\nHost: app\r\nContent-Type: application/json\r\nContent-Length: ${WEBHOOK_BODY_LIMIT + 1}\r\n` +
          Object.entries(webhookHeaders({ body: "{}", secret }))
            .map(([name, value]) => `${name}: ${value}\r\n`)
            .join("") +
          "\r\n{",
      );
      expect(exchange.response?.status).toBe(413);
      expect(exchange.response?.headers.connection).toBe("close");
      expect(exchange.ending).toBe("closed");
    }
    expect(deliveries()).toBe(before);
  });

  it("GIVEN a signed webhook body over the limit sent chunked THEN 413 once the limit is passed, and nothing recorded", async () => {
    const before = deliveries();
    const body = JSON.stringify({ id: 1, note: "x".repeat(WEBHOOK_BODY_LIMIT) });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body));
        controller.close();
      },
    });
    const answer = await send("/webhooks/orders", { method: "POST", body: stream, headers: webhookHeaders({ body }), duplex: "half" } as RequestInit);
    expect(answer.status).toBe(413);
    expect(answer.text).toMatch(/8 MiB/);
    expect(deliveries()).toBe(before);
  });

  it("GIVEN a form post over 1 MiB with a valid session token THEN 413 naming the limit, and nothing written", async () => {
    const answer = await send("/app/batches/new?_data=routes%2Fapp.batches.new", {
      method: "POST",
      body: new URLSearchParams({ name: "Too big", shipmentIds: "x".repeat(FORM_BODY_LIMIT) }),
      headers: await pageHeaders(),
    });
    expect(answer.status).toBe(413);
    expect(answer.text).toMatch(/1 MiB/);
    expect((stack.appDb.prepare(`SELECT COUNT(*) AS count FROM "Batch"`).get() as { count: number }).count).toBe(0);
  });
});

describe("connections stay sane: a refusal, then a normal request on the same keep-alive connection", () => {
  /** About 300 KB: larger than what the server buffers unasked, so a refusal that does not read it leaves it on the connection. */
  const LARGE = "x".repeat(300_000);

  const refusals: { name: string; status: number; request: () => Promise<{ method: string; path: string; headers: Record<string, string>; body: string }> }[] =
    [
      {
        name: "401 from authentication (forged token)",
        status: 401,
        request: async () => {
          const [header, payload] = (await stack.admin.mintSessionToken()).split(".");
          return {
            method: "POST",
            path: "/app/batches/new?_data=routes%2Fapp.batches.new",
            headers: {
              authorization: `Bearer ${header}.${payload}.Zm9yZ2Vk`,
              "user-agent": BROWSER_USER_AGENT,
              "content-type": "application/x-www-form-urlencoded",
            },
            body: `name=${LARGE}`,
          };
        },
      },
      {
        name: "405 from Remix (a POST to a page without an action)",
        status: 405,
        request: async () => ({
          method: "POST",
          path: "/app/overview?_data=routes%2Fapp.overview",
          headers: { ...(await pageHeaders()), "content-type": "application/x-www-form-urlencoded" },
          body: `x=${LARGE}`,
        }),
      },
      {
        name: "401 from webhook authentication (wrong HMAC)",
        status: 401,
        request: async () => ({
          method: "POST",
          path: "/webhooks/orders",
          headers: webhookHeaders({ body: "{}", secret: "wrong" }),
          body: `{"id":1,"note":"${LARGE}"}`,
        }),
      },
      {
        name: "413 from the edge (declared over the limit)",
        status: 413,
        request: async () => ({
          method: "POST",
          path: "/app/settings?_data=routes%2Fapp.settings",
          headers: { ...(await pageHeaders()), "content-type": "application/json" },
          body: "x".repeat(FORM_BODY_LIMIT + 1),
        }),
      },
      {
        name: "405 from the edge (TRACE)",
        status: 405,
        request: async () => ({ method: "TRACE", path: "/app", headers: { "user-agent": BROWSER_USER_AGENT }, body: "" }),
      },
      {
        name: "415 from a form reader (a JSON body where a form is read)",
        status: 415,
        request: async () => ({
          method: "POST",
          path: "/app/shipments?_data=routes%2Fapp.shipments",
          headers: { ...(await pageHeaders()), "content-type": "application/json" },
          body: JSON.stringify({ intent: LARGE }),
        }),
      },
    ];

  for (const refusal of refusals) {
    it(`GIVEN ${refusal.name} THEN the refusal is answered and the next request on the connection is answered too, neither hanging nor reset`, async () => {
      const client = createKeepAliveClient(stack.app.url);
      try {
        for (let pair = 0; pair < 3; pair += 1) {
          const refused: ProbeResponse = await client.request(await refusal.request());
          expect(refused.status, refused.text.slice(0, 200)).toBe(refusal.status);
          expect(refused.text).not.toMatch(LEAKS);
          const next = await client.request({ method: "GET", path: "/auth/login", headers: { "user-agent": BROWSER_USER_AGENT } });
          expect(next.status).toBe(200);
        }
      } finally {
        client.close();
      }
    });
  }

  it("GIVEN a refusal whose small body was read THEN the connection is kept (no Connection: close)", async () => {
    const client = createKeepAliveClient(stack.app.url);
    try {
      const refused = await client.request({
        method: "POST",
        path: "/app/shipments?_data=routes%2Fapp.shipments",
        headers: { ...(await pageHeaders()), "content-type": "application/json" },
        body: "{}",
      });
      expect(refused.status).toBe(415);
      expect(refused.headers.connection).not.toBe("close");
    } finally {
      client.close();
    }
  });
});

describe("no 500 from outside input", () => {
  it("GIVEN /auth/exit-iframe with an exitIframe to another host THEN 400 naming exitIframe", async () => {
    const answer = await send(`/auth/exit-iframe?shop=${stack.shop}&exitIframe=${encodeURIComponent("https://evil.example/steal")}`, {
      headers: { "user-agent": BROWSER_USER_AGENT },
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(/exitIframe/);
  });

  it("GIVEN HEAD /auth/login, as a page and as its data THEN it is answered as its GET is, headers only", async () => {
    for (const path of ["/auth/login", "/auth/login?_data=routes%2Fauth.login"]) {
      const answer = await send(path, { method: "HEAD", headers: { "user-agent": BROWSER_USER_AGENT } });
      expect(answer.status, path).toBe(200);
      expect(answer.text, path).toBe("");
    }
  });

  it("GIVEN POST /auth/login with a JSON body THEN 415 with the login page saying how to send it", async () => {
    const answer = await send("/auth/login", {
      method: "POST",
      body: '{"shop":"x"}',
      headers: { "content-type": "application/json", "user-agent": BROWSER_USER_AGENT },
    });
    expect(answer.status).toBe(415);
    expect(answer.text).toMatch(/application\/x-www-form-urlencoded/);
  });

  it("GIVEN TRACE and other methods no route takes, on any path THEN 405 with Allow", async () => {
    for (const [method, path] of [
      ["TRACE", "/app"],
      ["TRACE", "/webhooks/orders"],
      ["PROPFIND", "/"],
      ["MKCOL", "/app/settings"],
    ] as const) {
      const exchange = await rawExchange(stack.app.url, `${method} ${path} HTTP/1.1\r\nHost: app\r\nUser-Agent: ${BROWSER_USER_AGENT}\r\n\r\n`);
      expect(exchange.response?.status, `${method} ${path}`).toBe(405);
      expect(exchange.response?.headers.allow).toMatch(/GET/);
    }
  });

  it("GIVEN POST /app/shipments whose body is not a form THEN 415 naming the content type", async () => {
    const answer = await send("/app/shipments?_data=routes%2Fapp.shipments", {
      method: "POST",
      body: "intent=check",
      headers: { ...(await pageHeaders()), "content-type": "text/plain" },
    });
    expect(answer.status).toBe(415);
    expect(answer.text).toMatch(/text\/plain/);
  });

  it("GIVEN a list's page that is not a whole number from 1 THEN 400 naming the page, on every list paged on the server", async () => {
    const headers = await pageHeaders();
    for (const path of [
      "/app?page=0.0000001&_data=routes%2Fapp._index",
      "/app/quotes/1?page=0&_data=routes%2Fapp.quotes.%24runId",
      "/app/batches?page=-1&_data=routes%2Fapp.batches._index",
      "/app/batches/1?page=x&_data=routes%2Fapp.batches.%24id",
      "/app/shipments?page=1e400&_data=routes%2Fapp.shipments",
    ]) {
      const answer = await send(path, { headers });
      expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBe(400);
      expect(answer.text, path).toMatch(/page must be a whole number from 1/);
    }
  });

  it("GIVEN non-integer, huge and odd pages and ids on the lists and the new-batch and new-quote pages THEN no 5xx", async () => {
    const headers = await pageHeaders();
    for (const path of [
      "/app/quotes/1?page=0.0000001&_data=routes%2Fapp.quotes.%24runId",
      "/app?page=0.0000001&_data=routes%2Fapp._index",
      "/app?page=1e400&_data=routes%2Fapp._index",
      "/app/batches?page=-1&_data=routes%2Fapp.batches._index",
      "/app/batches?page=9007199254740993&_data=routes%2Fapp.batches._index",
      "/app/batches/new?ids=%00&_data=routes%2Fapp.batches.new",
      "/app/quotes/new?ids[]=1e400&_data=routes%2Fapp.quotes.new",
      "/app/quotes/new?id=%F0%9F%93%A6&_data=routes%2Fapp.quotes.new",
      "/app/quotes/new?id=99999999999999999999999&_data=routes%2Fapp.quotes.new",
    ]) {
      const answer = await send(path, { headers });
      expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
    }
    for (const shipmentIds of ["1e400", "\u0000", "x".repeat(65), "99999999999999999999999"]) {
      const answer = await send("/app/batches/new?_data=routes%2Fapp.batches.new", {
        method: "POST",
        body: new URLSearchParams({ name: "Odd", shipmentIds }),
        headers,
      });
      expect(answer.status, `${JSON.stringify(shipmentIds.slice(0, 10))}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
    }
    expect((stack.appDb.prepare(`SELECT COUNT(*) AS count FROM "Batch"`).get() as { count: number }).count).toBe(0);
  });

  it("GIVEN a session token whose dest is not a shop THEN 401 in words, on pages and on the block's data route", async () => {
    for (const shop of ["not a shop", "evil.example.com", "-.myshopify.com", `${"a".repeat(300)}.myshopify.com`]) {
      for (const path of ["/app?_data=routes%2Fapp", "/app/settings?_data=routes%2Fapp.settings", "/api/order-shipments/1001"]) {
        const answer = await send(path, { headers: await pageHeaders(shop) });
        expect(answer.status, `${shop} ${path}: ${answer.text.slice(0, 200)}`).toBe(401);
      }
    }
  });

  it('GIVEN signed deliveries with a shop domain that is not a shop, a payload 5,000 levels deep, or {"id":1e400} THEN 400 naming the problem, and nothing recorded', async () => {
    const before = deliveries();
    const cases = [
      { path: "/webhooks/orders", shop: "evil.example.com", body: '{"id":1}', says: /X-Shopify-Shop-Domain/ },
      { path: "/webhooks/orders", shop: `${"a".repeat(300)}.myshopify.com`, body: '{"id":1}', says: /X-Shopify-Shop-Domain/ },
      { path: "/webhooks/orders", body: `{"id":${"[".repeat(5_000)}${"]".repeat(5_000)}}`, says: /deeper than 64 levels \(in "id"\)/ },
      { path: "/webhooks/fulfillment-orders", topic: "fulfillment_orders/placed_on_hold", body: '{"id":1e400}', says: /^id: / },
      { path: "/webhooks/orders", body: '{"id":1,"line_items":[{"price":-1e999}]}', says: /^line_items\[0\]\.price: / },
    ];
    for (const { path, body, says, ...headers } of cases) {
      const answer = await send(path, { method: "POST", body, headers: webhookHeaders({ body, ...headers }) });
      expect(answer.status, `${path} ${body.slice(0, 40)}: ${answer.text}`).toBe(400);
      expect(answer.text).toMatch(says);
    }
    expect(deliveries()).toBe(before);
  });

  it("GIVEN two shops' deliveries with the same X-Shopify-Webhook-Id THEN each is recorded as its own delivery", async () => {
    const webhookId = randomUUID();
    for (const shop of [stack.shop, "another-shop.myshopify.com"]) {
      const body = JSON.stringify({ id: 990_003, admin_graphql_api_id: "gid://shopify/Order/990003" });
      const answer = await send("/webhooks/orders", { method: "POST", body, headers: webhookHeaders({ body, shop, webhookId }) });
      expect(answer.status, shop).toBe(200);
    }
    const rows = stack.appDb.prepare(`SELECT shop FROM "WebhookDelivery" WHERE "webhookId" = ? ORDER BY shop`).all(webhookId) as { shop: string }[];
    expect(rows.map((row) => row.shop)).toEqual(["another-shop.myshopify.com", stack.shop].sort());
  });
});
