import { afterAll, describe, expect, it, vi } from "vitest";
import { flowSignature } from "../../app/flow/flow-signature";
import { API_SECRET, SHOP } from "../support/devstore-harness";
import { startServiceAndAdminWithoutAccount } from "../support/service-and-admin";

vi.setConfig({ testTimeout: 30_000 });

// Shopify Flow's trigger lifecycle callback (issue 30, docs/decisions/047): the app's route (bounded, signed, parsed
// naming the field, newer timestamps first) and the local admin's Flow playing Flow: a workflow turned on calls the
// route signed and is on only once the app answered 2xx. Which triggers the order-signals job sends:
// order-tags-flow.test.ts.
const { harness, close } = await startServiceAndAdminWithoutAccount({ orders: 2 });
afterAll(() => close());
const { default: prisma } = await import("../../app/db/db.server");
const { action, loader } = await import("../../app/routes/flow.lifecycle");
const { FLOW_ACTION_BODY_LIMIT } = await import("../../app/body-limits");

const OTHER_SHOP = "other-shop.myshopify.com";

function callback(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    flow_trigger_definition_id: "shipping-label-bought",
    has_enabled_flow: true,
    shop_id: 1,
    shopify_domain: SHOP,
    timestamp: "2026-11-28T10:00:00.000Z",
    ...fields,
  };
}

/** The route's answer to `body` (an object as JSON, or text as it is), signed with the app's secret unless `signature` replaces it. */
async function post(body: Record<string, unknown> | string, options: { signature?: string; headers?: Record<string, string> } = {}) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const request = new Request("http://localhost:3000/flow/lifecycle", {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-hmac-sha256": options.signature ?? flowSignature(text, API_SECRET), ...options.headers },
    body: text,
  });
  let response: Response;
  try {
    response = await action({ request, params: {}, context: {} });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  return { status: response.status, body: (await response.json()) as { message?: string; error?: string } };
}

const workflows = (shop = SHOP) => prisma.flowTriggerWorkflow.findMany({ where: { shop }, orderBy: { handle: "asc" } });

describe("Flow's trigger lifecycle callback", () => {
  it("GIVEN a signed callback turning a workflow on WHEN Flow posts it THEN 200 and the shop's trigger has a workflow, with the callback's time", async () => {
    const answer = await post(callback());
    expect(answer).toEqual({ status: 200, body: { message: "Recorded." } });
    expect(await workflows()).toEqual([
      expect.objectContaining({ shop: SHOP, handle: "shipping-label-bought", enabled: true, callbackAt: new Date("2026-11-28T10:00:00.000Z") }),
    ]);
  });

  it("GIVEN a wrong signature, none, or a signature of another body THEN 401 and nothing recorded", async () => {
    const body = callback({ shopify_domain: OTHER_SHOP });
    expect((await post(body, { signature: flowSignature(JSON.stringify(body), "not-the-app-secret") })).status).toBe(401);
    expect((await post(body, { signature: "" })).status).toBe(401);
    expect((await post(body, { signature: flowSignature("{}", API_SECRET) })).status).toBe(401);
    expect((await post(body, { signature: "!!not base64!!" })).status).toBe(401);
    expect(await workflows(OTHER_SHOP)).toEqual([]);
  });

  it("GIVEN a body over the bound THEN 413 before the signature is looked at, and nothing recorded", async () => {
    const big = callback({ shopify_domain: OTHER_SHOP, padding: "x".repeat(FLOW_ACTION_BODY_LIMIT) });
    const answer = await post(big);
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatch(/larger than this address takes \(64 KiB\)/);
    // Declared too long: refused unread, signed or not.
    expect((await post(callback({ shopify_domain: OTHER_SHOP }), { headers: { "content-length": String(FLOW_ACTION_BODY_LIMIT + 1) } })).status).toBe(413);
    expect(await workflows(OTHER_SHOP)).toEqual([]);
  });

  it.each([
    ["has_enabled_flow missing", callback({ shopify_domain: OTHER_SHOP, has_enabled_flow: undefined }), "has_enabled_flow is required"],
    ["has_enabled_flow not a boolean", callback({ shopify_domain: OTHER_SHOP, has_enabled_flow: "yes" }), "has_enabled_flow must be true or false"],
    ["timestamp not ISO 8601", callback({ shopify_domain: OTHER_SHOP, timestamp: "yesterday" }), "timestamp must be a time in ISO 8601"],
    ["timestamp missing", callback({ shopify_domain: OTHER_SHOP, timestamp: undefined }), "timestamp is required"],
    ["the trigger missing", callback({ shopify_domain: OTHER_SHOP, flow_trigger_definition_id: "" }), "flow_trigger_definition_id is required"],
    ["the shop not a myshopify.com domain", callback({ shopify_domain: "evil.example.com" }), "shopify_domain must be a shop's myshopify.com domain"],
  ])("GIVEN a signed callback with %s THEN 400 naming the field, and nothing recorded", async (_what, body, message) => {
    const answer = await post(body);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(message);
    expect(await workflows(OTHER_SHOP)).toEqual([]);
    expect(await workflows("evil.example.com")).toEqual([]);
  });

  it("GIVEN a signed body that is not JSON, or not an object THEN 400 says so", async () => {
    expect(await post("{not json")).toEqual({ status: 400, body: { message: "The body is not JSON." } });
    expect(await post("[1]")).toEqual({ status: 400, body: { message: "The body must be a JSON object." } });
    // A byte order mark in front: not JSON as Flow sends it.
    expect(await post(`\uFEFF${JSON.stringify(callback({ shopify_domain: OTHER_SHOP }))}`)).toEqual({
      status: 400,
      body: { message: "The body is not JSON." },
    });
    expect(await workflows(OTHER_SHOP)).toEqual([]);
  });

  it("GIVEN a trigger that is not Consign's THEN 404 naming it, and nothing recorded", async () => {
    const answer = await post(callback({ shopify_domain: OTHER_SHOP, flow_trigger_definition_id: "order-created" }));
    expect(answer.status).toBe(404);
    expect(answer.body.message).toMatch(/flow_trigger_definition_id “order-created” is not a Flow trigger of Consign's \(shipping-label-bought, /);
    expect(await workflows(OTHER_SHOP)).toEqual([]);
  });

  it("GIVEN the trigger named as Flow shows it THEN it is taken as its handle", async () => {
    expect((await post(callback({ shopify_domain: OTHER_SHOP, flow_trigger_definition_id: "Shipment delivered" }))).status).toBe(200);
    expect(await workflows(OTHER_SHOP)).toEqual([expect.objectContaining({ handle: "shipment-delivered", enabled: true })]);
  });

  it("GIVEN a newer callback turning the workflow off, then an older one turning it on THEN the newer wins and the older changes nothing", async () => {
    const off = await post(callback({ flow_trigger_definition_id: "delivery-exception", has_enabled_flow: false, timestamp: "2026-11-28T12:00:00.000Z" }));
    expect(off).toEqual({ status: 200, body: { message: "Recorded." } });
    const late = await post(callback({ flow_trigger_definition_id: "delivery-exception", has_enabled_flow: true, timestamp: "2026-11-28T11:59:59.999Z" }));
    // Answered 2xx all the same: Flow's workflow is not held up by a callback the app no longer needs.
    expect(late.status).toBe(200);
    expect(late.body.message).toMatch(/newer callback/);
    expect(await prisma.flowTriggerWorkflow.findUniqueOrThrow({ where: { shop_handle: { shop: SHOP, handle: "delivery-exception" } } })).toMatchObject({
      enabled: false,
      callbackAt: new Date("2026-11-28T12:00:00.000Z"),
    });
    // A newer one (with an offset, and microseconds) turns it on again.
    expect((await post(callback({ flow_trigger_definition_id: "delivery-exception", timestamp: "2026-11-28T13:30:00.500001+01:00" }))).status).toBe(200);
    expect(await prisma.flowTriggerWorkflow.findUniqueOrThrow({ where: { shop_handle: { shop: SHOP, handle: "delivery-exception" } } })).toMatchObject({
      enabled: true,
      callbackAt: new Date("2026-11-28T12:30:00.500Z"),
    });
  });

  it("GIVEN callbacks for one trigger arriving at once, in any order THEN the newest one's is what stays", async () => {
    const times = Array.from({ length: 12 }, (_, index) => new Date(Date.parse("2026-11-29T00:00:00Z") + index * 1_000));
    const shuffled = [...times].sort(() => Math.random() - 0.5);
    const answers = await Promise.all(
      shuffled.map((at) =>
        post(callback({ flow_trigger_definition_id: "return-label-bought", has_enabled_flow: at === times.at(-1), timestamp: at.toISOString() })),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(await prisma.flowTriggerWorkflow.findUniqueOrThrow({ where: { shop_handle: { shop: SHOP, handle: "return-label-bought" } } })).toMatchObject({
      enabled: true,
      callbackAt: times.at(-1),
    });
  });

  it("GIVEN a GET THEN 405", async () => {
    expect(loader().status).toBe(405);
    const response = await action({ request: new Request("http://localhost:3000/flow/lifecycle"), params: {}, context: {} });
    expect(response.status).toBe(405);
  });
});

describe("the local admin's Flow turning workflows on and off", () => {
  const change = (payload: Record<string, unknown>) => harness.admin.app.inject({ method: "POST", url: "/admin/flow/workflows", payload });
  const page = async () => (await harness.admin.app.inject({ method: "GET", url: "/admin/flow" })).body;

  it("GIVEN the merchant turns on a workflow using “Shipment delivered” THEN the app's route took the signed callback, and the workflow is on in both", async () => {
    await prisma.flowTriggerWorkflow.deleteMany({ where: { shop: SHOP } });
    const answer = await change({ handle: "shipment-delivered", enabled: true });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ handle: "shipment-delivered", enabled: true, workflowOn: true, status: 200, body: { message: "Recorded." } });
    expect(await workflows()).toEqual([expect.objectContaining({ handle: "shipment-delivered", enabled: true })]);
    expect((await harness.admin.app.inject({ method: "GET", url: "/admin/flow/workflows.json" })).json()).toEqual([
      expect.objectContaining({ handle: "shipment-delivered", on: true }),
    ]);
    expect(await page()).toMatch(/data-handle="shipment-delivered" data-on="true"/);

    // Turned off with the page's form: the callback says so, the page goes back to Flow.
    const form = await harness.admin.app.inject({
      method: "POST",
      url: "/admin/flow/workflows",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "handle=shipment-delivered&enabled=false",
    });
    expect(form.statusCode).toBe(303);
    expect(form.headers.location).toBe("/admin/flow");
    expect(await workflows()).toEqual([expect.objectContaining({ handle: "shipment-delivered", enabled: false })]);
    expect(await page()).toMatch(/data-handle="shipment-delivered" data-on="false"/);
  });

  it("GIVEN the app refuses the callback (a forged signature) THEN the workflow stays off, the answer is the app's, and the Flow page says why", async () => {
    const answer = await change({ handle: "delivery-exception", enabled: true, signature: flowSignature("{}", "not-the-app-secret") });
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toMatchObject({ workflowOn: false, status: 401, body: { message: "The request is not signed by Shopify Flow for this app." } });
    expect(await workflows()).not.toContainEqual(expect.objectContaining({ handle: "delivery-exception", enabled: true }));
    const html = await page();
    expect(html).toMatch(/data-handle="delivery-exception" data-on="false"/);
    expect(html).toContain("The app answered 401: The request is not signed by Shopify Flow for this app. So the workflow was not turned on.");
  });

  it("GIVEN a handle that is not one of the app's triggers THEN the local admin refuses it (400) without calling the app", async () => {
    const answer = await change({ handle: "buy-shipping-label", enabled: true });
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ error: string }>().error).toMatch(/handle must be one of the app's Flow triggers: .*shipping-label-bought/);
    expect((await change({ handle: "shipment-delivered", enabled: "yes" })).statusCode).toBe(400);
  });
});
