import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowLocalAdminToFrame, localAdminFetch } from "./local-admin.server";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

function recordingServer(seen: Seen[]): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ ok: true }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, origin: `http://127.0.0.1:${port}` });
    }),
  );
}

describe("localAdminFetch", () => {
  const adminSeen: Seen[] = [];
  const otherSeen: Seen[] = [];
  let admin: { server: Server; origin: string };
  let other: { server: Server; origin: string };

  beforeAll(async () => {
    admin = await recordingServer(adminSeen);
    other = await recordingServer(otherSeen);
  });
  afterAll(() => {
    admin.server.close();
    other.server.close();
  });

  it("GIVEN an Admin GraphQL call THEN it reaches the local admin with method, headers, body and shop", async () => {
    const fetchViaLocal = localAdminFetch(admin.origin, fetch);
    const response = await fetchViaLocal("https://demo.myshopify.com/admin/api/2026-10/graphql.json?x=1", {
      method: "POST",
      headers: { "X-Shopify-Access-Token": "shpat_local", "Content-Type": "application/json" },
      body: JSON.stringify({ query: "{ shop { name } }" }),
    });
    expect(await response.json()).toEqual({ ok: true });
    const [request] = adminSeen;
    expect(request).toMatchObject({ method: "POST", url: "/admin/api/2026-10/graphql.json?x=1" });
    expect(request?.headers["x-shopify-access-token"]).toBe("shpat_local");
    expect(request?.headers["x-shopify-shop-domain"]).toBe("demo.myshopify.com");
    expect(JSON.parse(request?.body ?? "")).toEqual({ query: "{ shop { name } }" });
  });

  it("GIVEN token exchange THEN it goes to the local admin's /admin/oauth/access_token", async () => {
    const fetchViaLocal = localAdminFetch(admin.origin, fetch);
    await fetchViaLocal("https://demo.myshopify.com/admin/oauth/access_token", { method: "POST", body: "{}" });
    expect(adminSeen.at(-1)?.url).toBe("/admin/oauth/access_token");
  });

  it("GIVEN any other URL THEN it is fetched unchanged", async () => {
    const fetchViaLocal = localAdminFetch(admin.origin, fetch);
    const before = adminSeen.length;
    await fetchViaLocal(`${other.origin}/admin/not-shopify`, { method: "GET" });
    expect(otherSeen.at(-1)?.url).toBe("/admin/not-shopify");
    expect(adminSeen.length).toBe(before);
  });
});

describe("allowLocalAdminToFrame", () => {
  it("GIVEN Shopify's frame-ancestors THEN the local admin's origin is added and the rest kept", () => {
    const headers = new Headers({
      "Content-Security-Policy": "frame-ancestors https://demo.myshopify.com https://admin.shopify.com; upgrade-insecure-requests",
    });
    allowLocalAdminToFrame(headers, "http://127.0.0.1:8790/anything");
    expect(headers.get("Content-Security-Policy")).toBe(
      "frame-ancestors https://demo.myshopify.com https://admin.shopify.com http://127.0.0.1:8790; upgrade-insecure-requests",
    );
  });

  it("GIVEN no policy THEN none is invented", () => {
    const headers = new Headers();
    allowLocalAdminToFrame(headers, "http://127.0.0.1:8790");
    expect(headers.has("Content-Security-Policy")).toBe(false);
  });
});
