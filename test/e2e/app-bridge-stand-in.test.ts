import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { decodeJwt, jwtVerify } from "jose";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedStore } from "../../devstore/seed/seed.js";
import { createLocalAdmin, type LocalAdmin } from "../../devstore/server.js";
import { shellPlugin } from "../../devstore/shell/plugin.js";
import { openBrowser, withPage, type BrowserSession } from "./harness.js";

// The App Bridge stand-in on its own, with a small page server in place of the app: every behaviour the
// README promises, observed in Chromium from both sides of the frame.

const SHOP = "stand-in.myshopify.com";
const API_KEY = "stand-in-key";
const API_SECRET = "stand-in-secret";
/** Short-lived tokens, so that renewal happens within a test (the stand-in renews 10 s before expiry). */
const TOKEN_TTL_SECONDS = 12;

interface SeenRequest {
  path: string;
  authorization: string | undefined;
}

/** A stand-in "app": pages that load /app-bridge.js, and API routes that record what they receive. */
function appPage(adminUrl: string): string {
  return `<!doctype html><html><head><title>fake app</title></head><body>
<script src="${adminUrl}/app-bridge.js" data-api-key="${API_KEY}"></script>
<ui-title-bar title="Stand-in page"><button variant="primary" onclick="window.primaryClicks = (window.primaryClicks || 0) + 1">Buy labels</button></ui-title-bar>
<ui-nav-menu><a href="/page" rel="home">Home</a><a href="/page/settings">Settings</a></ui-nav-menu>
<p id="path"></p>
<script>
  document.getElementById("path").textContent = location.pathname;
  window.navigations = [];
  addEventListener("shopify:navigate", (event) => {
    const href = event.target.getAttribute("href");
    window.navigations.push(href);
    history.pushState(null, "", href);
  });
</script>
</body></html>`;
}

let adminUrl = "";
let appUrl = "";
const seen: SeenRequest[] = [];
let rejectNextWithRetry = false;

function serveApp(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? "/", appUrl);
  seen.push({ path: url.pathname, authorization: request.headers.authorization });
  const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
    response.writeHead(status, { "content-type": type, ...headers });
    response.end(body);
  };
  if (url.pathname.startsWith("/page")) return send(200, "text/html", appPage(adminUrl));
  if (url.pathname === "/auth/session-token") {
    return send(200, "text/html", `<script data-api-key="${API_KEY}" src="${adminUrl}/app-bridge.js"></script>`);
  }
  if (url.pathname === "/api/echo") {
    if (rejectNextWithRetry) {
      rejectNextWithRetry = false;
      return send(401, "text/plain", "", { "X-Shopify-Retry-Invalid-Session-Request": "1" });
    }
    return send(200, "application/json", JSON.stringify({ authorization: request.headers.authorization ?? null }));
  }
  if (url.pathname === "/api/reauthorize") {
    return send(401, "text/plain", "", { "X-Shopify-API-Request-Failure-Reauthorize-Url": `${appUrl}/page/reauthorized` });
  }
  if (url.pathname === "/label.pdf") return send(200, "application/pdf", "%PDF-1.4\n%%EOF\n");
  send(404, "text/plain", "not found");
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let appServer: Server;
let admin: LocalAdmin;
/** The shell over the local admin's store, on its own server with short-lived tokens. */
let shell: FastifyInstance;
let browser: BrowserSession;
let dir: string;

beforeAll(async () => {
  appServer = createServer(serveApp);
  appUrl = await listen(appServer);
  dir = mkdtempSync(join(tmpdir(), "consign-stand-in-"));
  admin = createLocalAdmin({ dbPath: join(dir, "devstore.sqlite"), shopDomain: SHOP, apiKey: API_KEY, apiSecret: API_SECRET, appUrl });
  seedStore(admin.store, { orders: 3, shopDomain: SHOP });
  shell = Fastify();
  await shell.register(shellPlugin, { admin, appUrl, tokenTtlSeconds: TOKEN_TTL_SECONDS });
  adminUrl = (await shell.listen({ host: "127.0.0.1", port: 0 })).replace("localhost", "127.0.0.1");
  browser = await openBrowser();
});

afterAll(async () => {
  await browser?.close();
  await shell?.close();
  await admin?.close();
  await new Promise((resolve) => appServer?.close(resolve));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function verifyToken(token: string): Promise<void> {
  const { payload } = await jwtVerify(token, new TextEncoder().encode(API_SECRET), { audience: API_KEY });
  expect(payload.dest).toBe(`https://${SHOP}`);
}

/** Opens the admin's frame at `path` and runs `use` once the stand-in in the app's frame is ready. */
function inFrame(path: string, use: (opened: { page: Page; app: Frame }) => Promise<void>): Promise<void> {
  return withPage(browser.context, async (page) => {
    await page.goto(`${adminUrl}/admin/apps/consign${path}`);
    await page.locator("[data-app-frame][data-app-ready='true']").waitFor({ state: "attached" });
    const app = page.frame({ name: "app-iframe" });
    if (!app) throw new Error("no app frame");
    await use({ page, app });
  });
}

/** Runs `fetch(path)` in the app frame and returns status and JSON body. */
function appFetch(app: Frame, path: string): Promise<{ status: number; body: unknown }> {
  return app.evaluate(async (target) => {
    const response = await fetch(target);
    return { status: response.status, body: response.headers.get("content-type")?.includes("json") ? await response.json() : null };
  }, path);
}

describe("the App Bridge stand-in inside the local admin's frame", () => {
  it("GIVEN a ui-title-bar with a button THEN the admin header shows its title and the button, and clicking it clicks the app's", () =>
    inFrame("/page", async ({ page, app }) => {
      await page.waitForFunction(() => document.getElementById("app-title")?.textContent === "Stand-in page");
      await page.locator("#app-title-actions button", { hasText: "Buy labels" }).click();
      await app.waitForFunction(() => (window as unknown as { primaryClicks?: number }).primaryClicks === 1);
      expect(await app.locator("ui-title-bar").isVisible()).toBe(false);
    }));

  it("GIVEN a ui-nav-menu THEN its links become the admin's app navigation, which navigates inside the app and moves the admin's address", () =>
    inFrame("/page", async ({ page, app }) => {
      const settings = page.locator("#app-nav a", { hasText: "Settings" });
      await settings.click();
      await app.waitForFunction(() => (window as unknown as { navigations: string[] }).navigations.join() === "/page/settings");
      await page.waitForURL(`${adminUrl}/admin/apps/consign/page/settings`);
      expect(await settings.getAttribute("class")).toContain("current");
    }));

  it("GIVEN shopify.idToken() THEN it returns the cached token until 10 s before it expires, then a new one", () =>
    inFrame("/page", async ({ app }) => {
      const idToken = () => app.evaluate(() => (window as unknown as { shopify: { idToken(): Promise<string> } }).shopify.idToken());
      const first = await idToken();
      expect(await idToken()).toBe(first);
      const renewAt = (decodeJwt(first).exp ?? 0) * 1000 - 10_000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, renewAt - Date.now()) + 200));
      const renewed = await idToken();
      expect(renewed).not.toBe(first);
      await verifyToken(renewed);
      expect(await idToken()).toBe(renewed);
    }));

  it("GIVEN same-origin fetches THEN they carry a valid Bearer token, and a retry-invalid-session answer is retried once with a new token", () =>
    inFrame("/page", async ({ app }) => {
      const first = await appFetch(app, "/api/echo");
      expect(first.status).toBe(200);
      const firstToken = String((first.body as { authorization: string }).authorization).replace(/^Bearer /, "");
      await verifyToken(firstToken);

      rejectNextWithRetry = true;
      const before = seen.length;
      const retried = await appFetch(app, "/api/echo");
      expect(retried.status).toBe(200);
      const attempts = seen.slice(before).filter((request) => request.path === "/api/echo");
      expect(attempts).toHaveLength(2);
      expect(attempts[1]?.authorization).not.toBe(attempts[0]?.authorization);
      await verifyToken(String(attempts[1]?.authorization).replace(/^Bearer /, ""));
    }));

  it("GIVEN a reauthorize answer to a data request THEN the admin opens the URL it names (an app URL reopens the frame there)", () =>
    inFrame("/page", async ({ page, app }) => {
      await appFetch(app, "/api/reauthorize");
      await page.waitForURL(`${adminUrl}/admin/apps/consign/page/reauthorized`);
    }));

  it("GIVEN the library's bounce page THEN the stand-in gets a token and replaces it with the reload URL carrying id_token", () =>
    inFrame("/page", async ({ page, app }) => {
      await app.evaluate((reload) => {
        location.assign(`/auth/session-token?shopify-reload=${encodeURIComponent(reload)}`);
      }, `${appUrl}/page/after-bounce?ids%5B%5D=gid%3A%2F%2Fshopify%2FOrder%2F1001`);
      await page.waitForFunction(() => document.getElementById("app-title")?.textContent === "Stand-in page");
      await app.waitForURL(/\/page\/after-bounce\?/);
      const landed = new URL(app.url());
      expect(landed.searchParams.getAll("ids[]")).toEqual(["gid://shopify/Order/1001"]);
      await verifyToken(landed.searchParams.get("id_token") ?? "");
    }));

  it("GIVEN toast, loading and user THEN the admin shows and hides them and answers with the account owner", () =>
    inFrame("/page", async ({ page, app }) => {
      type Shopify = {
        toast: { show(m: string, o?: { isError?: boolean }): string; hide(id: string): void };
        loading(on: boolean): void;
        user(): Promise<{ name: string; accountOwner: boolean }>;
      };
      const toastId = await app.evaluate(() => (window as unknown as { shopify: Shopify }).shopify.toast.show("Could not buy", { isError: true }));
      const toast = page.locator(".toast.toast-error", { hasText: "Could not buy" });
      await toast.waitFor();
      await app.evaluate((id) => (window as unknown as { shopify: Shopify }).shopify.toast.hide(id), toastId);
      await toast.waitFor({ state: "detached" });

      await app.evaluate(() => (window as unknown as { shopify: Shopify }).shopify.loading(true));
      await page.locator("#loading-bar").waitFor({ state: "visible" });
      await app.evaluate(() => (window as unknown as { shopify: Shopify }).shopify.loading(false));
      await page.locator("#loading-bar").waitFor({ state: "hidden" });

      const user = await app.evaluate(() => (window as unknown as { shopify: Shopify }).shopify.user());
      const owner = admin.store.accountOwner();
      expect(user).toMatchObject({ name: `${owner?.first_name} ${owner?.last_name}`, accountOwner: true });
    }));

  it("GIVEN window.open of a label file THEN it opens in a new tab and the admin stays", () =>
    inFrame("/page", async ({ page, app }) => {
      const popup = page.waitForEvent("popup");
      await app.evaluate(() => {
        window.open("/label.pdf");
      });
      expect((await popup).url()).toBe(`${appUrl}/label.pdf`);
      expect(page.url()).toBe(`${adminUrl}/admin/apps/consign/page`);
    }));
});
