import "@shopify/shopify-api/adapters/node";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Script } from "node:vm";
import { ApiVersion, shopifyApi } from "@shopify/shopify-api";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalAdmin, type LocalAdmin } from "../server.js";
import { fulfillmentCreate } from "../store/fulfillment-ops.js";
import type { Store } from "../store/store.js";
import type { Address } from "../store/types.js";
import { shellPlugin } from "./plugin.js";

const SHOP = "shell-test.myshopify.com";
const API_KEY = "shell-test-key";
const API_SECRET = "shell-test-secret";
const APP_URL = "http://127.0.0.1:4555";

function address(firstName: string, lastName: string, countryCode: string, country: string): Address {
  return { firstName, lastName, address1: "1 Main St", city: "Town", zip: "12345", country, countryCode };
}

/** Three orders with known customers and destinations; #1003 is the newest. */
function fillStore(store: Store): void {
  store.insertShop({
    name: "Shell Test Supplies",
    email: "owner@example.com",
    myshopify_domain: SHOP,
    currency_code: "USD",
    weight_unit: "KILOGRAMS",
    unit_system: "METRIC_SYSTEM",
    iana_timezone: "UTC",
    address: address("Shop", "Owner", "US", "United States"),
  });
  store.insertStaffUser({ id: 42, first_name: "Olive", last_name: "Owner", email: "owner@example.com", account_owner: 1, locale: "en" });
  store.insertLocation({
    name: "Warehouse",
    address1: "1 Dock Rd",
    address2: null,
    city: "Portland",
    province: "Oregon",
    province_code: "OR",
    zip: "97201",
    country: "United States",
    country_code: "US",
    phone: null,
    is_active: 1,
    fulfills_online_orders: 1,
    is_fulfillment_service: 0,
    fulfillment_service_handle: null,
  });
  const product = store.insertProduct({ title: "Mug", vendor: "Acme", product_type: "Kitchen", handle: "mug" });
  const { variantId } = store.insertVariant({
    product_id: product,
    title: "Default Title",
    sku: "MUG-1",
    price: "12.00",
    position: 1,
    weight_unit: "GRAMS",
    weight_value: 350,
    harmonized_system_code: null,
    country_code_of_origin: null,
    province_code_of_origin: null,
  });
  const order = (shippingAddress: Address | null, quantity: number, createdAt: string, email: string | null = null) =>
    store.createOrder({ createdAt, email, shippingAddress, shippingLine: null, lines: [{ variantId, quantity }] });
  order(address("Ada", "Lovelace", "GB", "United Kingdom"), 2, "2026-11-01T10:00:00Z");
  order(address("<b>Bobby", "Tables</b>", "DE", "Germany"), 1, "2026-11-02T10:00:00Z");
  order(null, 3, "2026-11-03T10:00:00Z", "pickup@example.com");
  const fo = store.listFulfillmentOrders(1001)[0];
  if (!fo) throw new Error("order 1001 has no fulfillment order");
  const shipped = fulfillmentCreate(store, {
    lineItemsByFulfillmentOrder: [
      { fulfillmentOrderId: fo.id, fulfillmentOrderGid: `gid://shopify/FulfillmentOrder/${fo.id}`, fulfillmentOrderLineItems: null },
    ],
    notifyCustomer: false,
    trackingInfo: { company: "UPS", number: "1Z999AA10123456784" },
    message: null,
  });
  if (!shipped.ok) throw new Error(`fixture fulfillment failed: ${JSON.stringify(shipped)}`);
}

function decodeEntities(text: string): string {
  return text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

function iframeSrc(page: string): URL {
  const match = /<iframe[^>]* src="([^"]+)"/.exec(page);
  if (!match?.[1]) throw new Error("The frame page has no iframe");
  return new URL(decodeEntities(match[1]));
}

/** Verifies a session token exactly as the app does (shopify-api, HS256 with the secret, aud = API key). */
const appApi = shopifyApi({
  apiKey: API_KEY,
  apiSecretKey: API_SECRET,
  apiVersion: ApiVersion.October26,
  hostName: "127.0.0.1:4555",
  hostScheme: "http",
  isEmbeddedApp: true,
  logger: { level: 0 },
});

describe("the local admin shell", () => {
  let admin: LocalAdmin;
  /** The shell on its own server with a page size of two, over the local admin's store. */
  let shell: FastifyInstance;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "consign-shell-"));
    admin = createLocalAdmin({
      dbPath: join(dir, "devstore.sqlite"),
      shopDomain: SHOP,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      appUrl: APP_URL,
    });
    fillStore(admin.store);
    shell = Fastify();
    shell.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    await shell.register(shellPlugin, { admin, appUrl: APP_URL, pageSize: 2 });
  });

  afterAll(async () => {
    await shell?.close();
    await admin?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("GIVEN the app loads /app-bridge.js from the local admin THEN it is served as JavaScript that parses", async () => {
    const response = await admin.app.inject({ method: "GET", url: "/app-bridge.js" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(() => new Script(response.body, { filename: "app-bridge.js" })).not.toThrow();
    expect(response.body).toContain("window.shopify = {");
    expect((await admin.app.inject({ method: "GET", url: "/admin" })).statusCode).toBe(200);
  });

  it("GIVEN orders in the store WHEN /admin is opened THEN the newest page lists them with customer, destination, status and items", async () => {
    const response = await shell.inject({ method: "GET", url: "/admin" });
    expect(response.statusCode).toBe(200);
    const page = response.body;
    expect(page).toContain("Shell Test Supplies");
    const names = [...page.matchAll(/data-order-name="([^"]+)"/g)].map((m) => decodeEntities(m[1] ?? ""));
    expect(names).toEqual(["#1003", "#1002"]);
    expect(page).toContain('value="gid://shopify/Order/1003"');
    expect(page).toContain("pickup@example.com");
    expect(page).toContain("&#60;b&#62;Bobby Tables&#60;/b&#62;");
    expect(page).not.toContain("<b>Bobby");
    expect(page).toContain("Germany");
    expect(page).toContain("3 items");
    expect(page).toContain("Unfulfilled");
    expect(page).toContain('action="/admin/apps/consign/app/quotes/new"');
    expect(page).toContain("Page 1 of 2");
  });

  it("GIVEN more orders than a page WHEN page 2 is opened THEN it shows the oldest order", async () => {
    const page = (await shell.inject({ method: "GET", url: "/admin?page=2" })).body;
    const names = [...page.matchAll(/data-order-name="([^"]+)"/g)].map((m) => decodeEntities(m[1] ?? ""));
    expect(names).toEqual(["#1001"]);
    expect(page).toContain("Ada Lovelace");
    expect(page).toContain('rel="prev"');
  });

  it("GIVEN a fulfilled order WHEN its page is opened THEN it shows items, address and tracking, and the order action opens the app with id", async () => {
    const response = await shell.inject({ method: "GET", url: "/admin/orders/1001" });
    expect(response.statusCode).toBe(200);
    const page = response.body;
    expect(page).toContain('data-testid="order-title">#1001<');
    expect(page).toContain("Mug");
    expect(page).toContain("MUG-1");
    expect(page).toContain("Ada Lovelace");
    expect(page).toContain("United Kingdom");
    expect(page).toContain("Fulfilled");
    expect(page).toContain("1Z999AA10123456784");
    expect(page).toContain('href="https://www.ups.com/track?tracknum=1Z999AA10123456784"');
    expect(page).toContain('data-notify-customer="false"');
    expect(page).toContain("Customer not notified");
    expect(page).toContain('href="/admin/apps/consign/app/quotes/new?id=gid%3A%2F%2Fshopify%2FOrder%2F1001"');
  });

  it("GIVEN an order id the store lacks THEN its page is a 404", async () => {
    expect((await shell.inject({ method: "GET", url: "/admin/orders/999" })).statusCode).toBe(404);
    expect((await shell.inject({ method: "GET", url: "/admin/orders/abc" })).statusCode).toBe(404);
    expect((await shell.inject({ method: "GET", url: "/admin/orders" })).headers.location).toBe("/admin");
  });

  it("GIVEN the bulk action's URL WHEN the frame page renders THEN the iframe loads the app path with the ids, shop, host, embedded and a valid id_token", async () => {
    const query = "ids%5B%5D=gid%3A%2F%2Fshopify%2FOrder%2F1003&ids%5B%5D=gid%3A%2F%2Fshopify%2FOrder%2F1001&id_token=forged&shop=evil.myshopify.com";
    const response = await shell.inject({ method: "GET", url: `/admin/apps/consign/app/quotes/new?${query}` });
    expect(response.statusCode).toBe(200);
    const src = iframeSrc(response.body);
    expect(src.origin + src.pathname).toBe(`${APP_URL}/app/quotes/new`);
    expect(src.searchParams.getAll("ids[]")).toEqual(["gid://shopify/Order/1003", "gid://shopify/Order/1001"]);
    expect(src.searchParams.getAll("shop")).toEqual([SHOP]);
    expect(src.searchParams.get("embedded")).toBe("1");
    expect(Buffer.from(src.searchParams.get("host") ?? "", "base64").toString()).toBe("admin.shopify.com/store/shell-test");
    const tokens = src.searchParams.getAll("id_token");
    expect(tokens).toHaveLength(1);
    const payload = await appApi.session.decodeSessionToken(tokens[0] ?? "");
    expect(payload.aud).toBe(API_KEY);
    expect(payload.dest).toBe(`https://${SHOP}`);
    expect(payload.sub).toBe("42");
    expect(payload.exp - payload.nbf).toBe(60);
  });

  it("GIVEN the app's home WHEN /admin/apps/consign is opened THEN the iframe loads the app's root, as Shopify loads application_url", async () => {
    const src = iframeSrc((await shell.inject({ method: "GET", url: "/admin/apps/consign" })).body);
    expect(src.origin + src.pathname).toBe(`${APP_URL}/`);
  });

  it("GIVEN the frame asks for a token THEN the session-token endpoint mints one the app accepts", async () => {
    const response = await shell.inject({ method: "POST", url: "/admin/shell/session-token" });
    expect(response.statusCode).toBe(200);
    const { token } = response.json<{ token: string }>();
    const payload = await appApi.session.decodeSessionToken(token);
    expect(payload.dest).toBe(`https://${SHOP}`);
  });

  /** The webhooks page's form, as the browser posts it. */
  const sendCompliance = (fields: Record<string, string>) =>
    shell.inject({
      method: "POST",
      url: "/admin/webhooks/compliance",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(fields).toString(),
    });

  it("GIVEN the webhooks page WHEN a compliance topic is sent THEN a signed delivery to the app is queued and listed", async () => {
    const response = await sendCompliance({ topic: "customers/redact", email: "pickup@example.com" });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe("/admin/webhooks?sent=customers%2Fredact");
    const delivery = admin.store.listWebhookDeliveries().find((d) => d.topic === "customers/redact");
    expect(delivery?.url).toBe(`${APP_URL}/webhooks/compliance`);
    expect(JSON.parse(delivery?.body ?? "{}")).toMatchObject({ shop_domain: SHOP, customer: { email: "pickup@example.com" }, orders_to_redact: [1003] });
    const page = (await shell.inject({ method: "GET", url: "/admin/webhooks?sent=customers%2Fredact" })).body;
    expect(page).toContain("Queued customers/redact.");
    expect(page).toMatch(/data-testid="webhook-delivery">[\s\S]*customers\/redact/);
  });

  it("GIVEN an unknown topic THEN the compliance endpoint refuses it", async () => {
    expect((await sendCompliance({ topic: "orders/create" })).statusCode).toBe(400);
  });

  it("GIVEN the app's optional write_products WHEN the frame queries scopes and the merchant allows it THEN the detail lists it granted, later tokens may use it, and app/scopes_update is queued; undeclared scopes are refused", async () => {
    const detail = () => shell.inject({ method: "GET", url: "/admin/shell/scopes" }).then((response) => response.json<Record<string, string[]>>());
    const before = await detail();
    expect(before.optional).toEqual(["write_products", "write_orders"]);
    expect(before.granted).toEqual(before.required);
    expect(before.granted).not.toContain("write_products");

    const allow = (scopes: unknown) => shell.inject({ method: "POST", url: "/admin/shell/scopes", payload: { scopes } });
    expect((await allow(["write_customers"])).statusCode).toBe(400);
    expect((await allow([])).statusCode).toBe(400);
    const allowed = await allow(["write_products"]);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json<Record<string, string[]>>().granted).toEqual([...before.required!, "write_products"]);
    expect((await detail()).granted).toContain("write_products");

    const update = admin.store.listWebhookDeliveries().find((delivery) => delivery.topic === "app/scopes_update");
    expect(JSON.parse(update?.body ?? "{}")).toMatchObject({ previous: before.required, current: [...before.required!, "write_products"] });
    // Tokens issued from now on carry it (tokens issued before may use it too: test/integration/devstore-graphql.test.ts).
    expect(admin.store.findValidAccessToken(admin.issueAccessToken())?.scope.split(",")).toContain("write_products");
  });

  it("GIVEN the app cannot be reached WHEN the Flow page turns a workflow on THEN it stays off and the page says why", async () => {
    const page = async () => (await shell.inject({ method: "GET", url: "/admin/flow" })).body;
    expect(await page()).toMatch(/data-handle="shipping-label-bought" data-on="false"[\s\S]*?Turn on a workflow/);
    const form = await shell.inject({
      method: "POST",
      url: "/admin/flow/workflows",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "handle=shipping-label-bought&enabled=true",
    });
    expect(form.statusCode).toBe(303);
    const after = await page();
    expect(after).toMatch(/data-handle="shipping-label-bought" data-on="false"/);
    expect(after).toContain(`The app could not be reached at ${APP_URL}`);
    expect(after).toContain("the workflow was not turned on.");
    // As JSON, for tests: answered 502 with what happened.
    const json = await shell.inject({ method: "POST", url: "/admin/flow/workflows", payload: { handle: "shipping-label-bought", enabled: true } });
    expect(json.statusCode).toBe(502);
    expect(json.json()).toMatchObject({ handle: "shipping-label-bought", enabled: true, workflowOn: false, status: null });
  });

  it("GIVEN an unknown shell asset THEN it is a 404", async () => {
    expect((await shell.inject({ method: "GET", url: "/admin/shell/missing.js" })).statusCode).toBe(404);
    expect((await shell.inject({ method: "GET", url: "/admin/shell/frame.js" })).headers["content-type"]).toMatch(/^text\/javascript/);
  });
});

describe("admin block extensions on the order page", () => {
  let admin: LocalAdmin;
  let dir: string;
  const module = "export default async () => { document.body.textContent = shopify.data.selected[0].id; };";

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "consign-shell-extensions-"));
    const extensionsDir = join(dir, "extensions");
    mkdirSync(join(extensionsDir, "order-block"), { recursive: true });
    writeFileSync(join(extensionsDir, "order-block", "admin.order-details.block.render.js"), module);
    writeFileSync(
      join(extensionsDir, "manifest.json"),
      JSON.stringify([
        {
          handle: "order-block",
          name: "Shipping <block>",
          apiVersion: "2026-10",
          target: "admin.order-details.block.render",
          module: "order-block/admin.order-details.block.render.js",
        },
        {
          handle: "order-print",
          name: "Shipping documents",
          apiVersion: "2026-10",
          target: "admin.order-details.print-action.render",
          module: "order-print/admin.order-details.print-action.render.js",
        },
        {
          handle: "orders-print",
          name: "Selection documents",
          apiVersion: "2026-10",
          target: "admin.order-index.selection-print-action.render",
          module: "orders-print/admin.order-index.selection-print-action.render.js",
        },
      ]),
    );
    admin = createLocalAdmin({
      dbPath: join(dir, "devstore.sqlite"),
      shopDomain: SHOP,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      appUrl: APP_URL,
      extensionsDir,
    });
    fillStore(admin.store);
  });

  afterAll(async () => {
    await admin?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("GIVEN a built order-details block WHEN an order opens THEN the page frames the extension host for that order", async () => {
    const page = (await admin.app.inject({ method: "GET", url: "/admin/orders/1002" })).body;
    expect(page).toContain('data-extension-block="order-block"');
    const src = decodeEntities(/<iframe[^>]* src="([^"]+)" data-extension-block/.exec(page)?.[1] ?? "");
    expect(src).toBe("/admin/extensions/order-block/admin.order-details.block.render?resource=gid%3A%2F%2Fshopify%2FOrder%2F1002");

    const host = await admin.app.inject({ method: "GET", url: src });
    expect(host.statusCode).toBe(200);
    const config = JSON.parse(decodeEntities(/data-extension-config="([^"]+)"/.exec(host.body)?.[1] ?? "{}"));
    expect(config).toMatchObject({
      extensionName: "Shipping <block>",
      target: "admin.order-details.block.render",
      moduleUrl: "/admin/shell/extension-modules/order-block/admin.order-details.block.render.js",
      appUrl: APP_URL,
      framePrefix: "/admin/apps/consign",
      selected: [{ id: "gid://shopify/Order/1002" }],
    });
    const served = await admin.app.inject({ method: "GET", url: config.moduleUrl });
    expect(served.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(served.body).toBe(module);
    const hostScript = await admin.app.inject({ method: "GET", url: "/admin/shell/extension-host.js" });
    expect(hostScript.body).toContain("globalThis.shopify = customerAccount");
  });

  it("GIVEN built print actions WHEN an order or the order list opens THEN each page's Print menu lists its target's actions, and a selection's host runs on every selected order", async () => {
    const menuOf = (page: string) => JSON.parse(decodeEntities(/data-print-config="([^"]+)"/.exec(page)?.[1] ?? "{}"));
    const order = menuOf((await admin.app.inject({ method: "GET", url: "/admin/orders/1002" })).body);
    expect(order).toEqual({
      appUrl: APP_URL,
      tokenEndpoint: "/admin/shell/session-token",
      resources: ["gid://shopify/Order/1002"],
      actions: [{ name: "Shipping documents", handle: "order-print", src: "/admin/extensions/order-print/admin.order-details.print-action.render" }],
    });
    const list = menuOf((await admin.app.inject({ method: "GET", url: "/admin" })).body);
    expect(list).toMatchObject({
      resources: [],
      actions: [{ name: "Selection documents", handle: "orders-print", src: "/admin/extensions/orders-print/admin.order-index.selection-print-action.render" }],
    });
    const host = await admin.app.inject({
      method: "GET",
      url: `${list.actions[0].src}?resource=gid://shopify/Order/1002&resource=gid://shopify/Order/1001`,
    });
    expect(host.statusCode).toBe(200);
    expect(JSON.parse(decodeEntities(/data-extension-config="([^"]+)"/.exec(host.body)?.[1] ?? "{}")).selected).toEqual([
      { id: "gid://shopify/Order/1002" },
      { id: "gid://shopify/Order/1001" },
    ]);
    // An order's print action runs on its one order.
    const two = await admin.app.inject({ method: "GET", url: `${order.actions[0].src}?resource=gid://shopify/Order/1002&resource=gid://shopify/Order/1001` });
    expect(two.statusCode).toBe(400);
  });

  it("GIVEN an unknown extension, a resource that is no GID or a module outside the manifest THEN 404 / 400", async () => {
    expect(
      (await admin.app.inject({ method: "GET", url: "/admin/extensions/nope/admin.order-details.block.render?resource=gid://shopify/Order/1" })).statusCode,
    ).toBe(404);
    const bad = await admin.app.inject({ method: "GET", url: "/admin/extensions/order-block/admin.order-details.block.render?resource=1002" });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toBe("resource must be a GID such as gid://shopify/Order/1001");
    expect((await admin.app.inject({ method: "GET", url: "/admin/shell/extension-modules/order-block/other.js" })).statusCode).toBe(404);
  });
});
