import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLocalAdmin } from "../../devstore/server.js";
import { seedStore } from "../../devstore/seed/seed.js";
import { temporaryDirectory } from "../support/temporary-directory";
import { API_KEY, API_SECRET, manualClock, SHOP, startHarness } from "../support/devstore-harness.js";

describe("local admin server", () => {
  it("GIVEN a registerRoutes hook WHEN the server starts THEN the extra routes are served next to the Admin API with the handles", async () => {
    const h = await startHarness({
      orders: 3,
      registerRoutes: (app, handles) => {
        app.get("/shell/session-token", async () => ({ token: await handles.mintSessionToken(), shop: handles.shopDomain }));
      },
    });
    const body = (await (await fetch(`${h.url}/shell/session-token`)).json()) as { token: string; shop: string };
    expect(body.shop).toBe(SHOP);
    expect(body.token.split(".")).toHaveLength(3);
    expect((await h.gql("{ shop { name } }")).status).toBe(200);
    await h.close();
  });

  it("GIVEN a fulfillment and a pending webhook WHEN the server restarts on the same database THEN both survive and the delivery resumes", async () => {
    const dir = temporaryDirectory("devstore-persist-");
    const dbPath = path.join(dir, "db.sqlite");
    const clock = manualClock();
    const options = { dbPath, shopDomain: SHOP, apiKey: API_KEY, apiSecret: API_SECRET, clock };
    const bodies: string[] = [];
    let up = false;
    const fakeFetch: typeof fetch = async (_input, init) => {
      if (!up) throw new Error("connect ECONNREFUSED");
      bodies.push(String(init?.body));
      return new Response(null, { status: 200 });
    };
    const first = createLocalAdmin({ ...options, appUrl: "http://app.test", fetch: fakeFetch, webhookRetry: { maxAttempts: 5, baseDelayMs: 60_000 } });
    seedStore(first.store, { orders: 3, shopDomain: SHOP });
    const token = first.issueAccessToken();
    const fo = first.store.listFulfillmentOrders(1001)[0];
    const res = await first.graphql({
      query: `mutation($id: ID!) { fulfillmentCreate(fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: $id }] }) { fulfillment { id } userErrors { message } } }`,
      variables: { id: `gid://shopify/FulfillmentOrder/${fo?.id}` },
    });
    expect(res.errors).toBeUndefined();
    await new Promise((r) => setTimeout(r, 20));
    expect(first.webhooks.deliveries().map((d) => [d.topic, d.status])).toEqual([
      ["fulfillments/create", "pending"],
      ["orders/updated", "pending"],
    ]);
    await first.close();

    up = true;
    const second = createLocalAdmin({ ...options, appUrl: "http://app.test", fetch: fakeFetch });
    await second.webhooks.drain();
    expect(second.webhooks.deliveries().map((d) => d.status)).toEqual(["delivered", "delivered"]);
    expect(bodies).toHaveLength(2);
    expect(second.store.findValidAccessToken(token)).toBeDefined();
    expect(second.store.getOrder(1001)?.display_fulfillment_status).toBe("FULFILLED");
    await second.close();
  });
});
