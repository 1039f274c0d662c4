import "@shopify/shopify-api/adapters/node";
import { ApiVersion, RequestedTokenType, shopifyApi, type Shopify } from "@shopify/shopify-api";
import { setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { getJwt } from "@shopify/shopify-api/test-helpers";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY, API_SECRET, manualClock, SHOP, startHarness, type Harness } from "../support/devstore-harness.js";

const INVALID = "[API] Invalid API key or access token (unrecognized login or wrong password)";

describe("local admin access tokens and token exchange", () => {
  let h: Harness;
  let shopify: Shopify;
  const clock = manualClock(Date.now());

  beforeAll(async () => {
    h = await startHarness({ clock, orders: 5 });
    shopify = shopifyApi({
      apiKey: API_KEY,
      apiSecretKey: API_SECRET,
      apiVersion: ApiVersion.October26,
      scopes: h.admin.appConfig.scopes.split(","),
      hostName: "localhost:3000",
      hostScheme: "http",
      isEmbeddedApp: true,
      logger: { level: 0 },
    });
    // shopify-api always calls https://{shop}/admin/...; reroute that host to the local admin, as the app will.
    setAbstractFetchFunc(async (input, init) => {
      const url = new URL(String(input));
      if (url.host === SHOP) return fetch(`${h.url}${url.pathname}${url.search}`, init);
      return fetch(input, init);
    });
  });
  afterAll(async () => {
    await h.close();
  });

  const exchange = (body: Record<string, string>, form = false) =>
    fetch(`${h.url}/admin/oauth/access_token`, {
      method: "POST",
      headers: { "Content-Type": form ? "application/x-www-form-urlencoded" : "application/json" },
      body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
    });
  const exchangeBody = (subjectToken: string, requested = "urn:shopify:params:oauth:token-type:offline-access-token") => ({
    client_id: API_KEY,
    client_secret: API_SECRET,
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    subject_token: subjectToken,
    subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    requested_token_type: requested,
  });

  it("GIVEN no or an unknown access token WHEN calling the Admin API THEN 401 with Shopify's message", async () => {
    const missing = await fetch(`${h.url}/admin/api/2026-10/graphql.json`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ query: "{ shop { name } }" }),
    });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ errors: INVALID });
    const wrong = await h.gql("{ shop { name } }", {}, "shpat_0000");
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ errors: INVALID });
  });

  it("GIVEN a minted session token WHEN shopify-api decodes it THEN it validates with the app's key and secret", async () => {
    const token = await h.admin.mintSessionToken({ userId: 2 });
    const payload = await shopify.session.decodeSessionToken(token);
    expect(payload).toMatchObject({ iss: `https://${SHOP}/admin`, dest: `https://${SHOP}`, aud: API_KEY, sub: "2" });
    expect(typeof payload.jti).toBe("string");
    expect(typeof payload.sid).toBe("string");
    expect(payload.exp - payload.nbf).toBe(60);
  });

  it("GIVEN shopify-api's tokenExchange WHEN exchanging offline and online THEN sessions come back and the offline token queries the Admin API", async () => {
    const sessionToken = await h.admin.mintSessionToken();
    const { session } = await shopify.auth.tokenExchange({ shop: SHOP, sessionToken, requestedTokenType: RequestedTokenType.OfflineAccessToken });
    expect(session.accessToken).toMatch(/^shpat_/);
    expect(session.scope).toBe(h.admin.appConfig.scopes);
    const client = new shopify.clients.Graphql({ session });
    const res = await client.request<{ shop: { name: string } }>("{ shop { name } }");
    expect(res.data?.shop.name).toBe("Consign Demo Store");

    const online = await shopify.auth.tokenExchange({ shop: SHOP, sessionToken, requestedTokenType: RequestedTokenType.OnlineAccessToken });
    expect(online.session.isOnline).toBe(true);
    expect(online.session.onlineAccessInfo?.associated_user).toMatchObject({ id: 1, first_name: "Dana", account_owner: true });
    expect(online.session.expires?.getTime()).toBeGreaterThan(Date.now());
  });

  it("GIVEN a token made by shopify-api's own test helper WHEN exchanged as a form post THEN it is accepted", async () => {
    const { token } = await getJwt("consign-test", API_KEY, API_SECRET, { sub: "1" });
    const res = await exchange(exchangeBody(token), true);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; scope: string };
    expect(body.scope).toBe(h.admin.appConfig.scopes);
    expect((await h.gql("{ shop { name } }", {}, body.access_token)).status).toBe(200);
  });

  it("GIVEN a bad signature, a wrong audience, another shop or an expired token WHEN exchanged THEN each is refused as invalid_subject_token", async () => {
    const now = Math.floor(clock() / 1000);
    const sign = (claims: Record<string, unknown>, secret = API_SECRET) =>
      new SignJWT({
        iss: `https://${SHOP}/admin`,
        dest: `https://${SHOP}`,
        aud: API_KEY,
        sub: "1",
        iat: now,
        nbf: now,
        exp: now + 60,
        jti: "j",
        sid: "s",
        ...claims,
      })
        .setProtectedHeader({ alg: "HS256" })
        .sign(new TextEncoder().encode(secret));
    const cases: [string, string][] = [
      ["bad signature", await sign({}, "not-the-secret")],
      ["wrong aud", await sign({ aud: "someone-else" })],
      ["other shop", await sign({ dest: "https://other-shop.myshopify.com", iss: "https://other-shop.myshopify.com/admin" })],
      ["expired", await sign({ exp: now - 30 })],
      ["not yet valid", await sign({ nbf: now + 60 })],
    ];
    for (const [name, token] of cases) {
      const res = await exchange(exchangeBody(token));
      expect({ name, status: res.status }).toEqual({ name, status: 400 });
      expect(((await res.json()) as { error: string }).error).toBe("invalid_subject_token");
    }
    // within the 10 s tolerance the just-expired token still works
    const graceful = await sign({ exp: now - 5 });
    expect((await exchange(exchangeBody(graceful))).status).toBe(200);
  });

  it("GIVEN a session token WHEN the injected clock passes its expiry THEN the exchange refuses it", async () => {
    const token = await h.admin.mintSessionToken({ ttlSeconds: 60 });
    clock.advance(65_000);
    expect((await exchange(exchangeBody(token))).status).toBe(200);
    clock.advance(10_000);
    expect((await exchange(exchangeBody(token))).status).toBe(400);
    clock.set(Date.now());
  });

  it("GIVEN wrong client credentials or grant type WHEN exchanging THEN invalid_client / unsupported_grant_type", async () => {
    const token = await h.admin.mintSessionToken();
    const badClient = await exchange({ ...exchangeBody(token), client_secret: "nope" });
    expect(badClient.status).toBe(401);
    expect(((await badClient.json()) as { error: string }).error).toBe("invalid_client");
    const badGrant = await exchange({ ...exchangeBody(token), grant_type: "authorization_code" });
    expect(((await badGrant.json()) as { error: string }).error).toBe("unsupported_grant_type");
  });

  it("GIVEN the app is uninstalled WHEN its tokens are used THEN they no longer work", async () => {
    const token = h.admin.issueAccessToken();
    expect((await h.gql("{ shop { name } }", {}, token)).status).toBe(200);
    h.admin.store.uninstallApp();
    expect((await h.gql("{ shop { name } }", {}, token)).status).toBe(401);
  });
});
