import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ShopRouter {
  /** The one origin the app's LOCAL_ADMIN_URL points at. */
  url: string;
  close(): Promise<void>;
}

export interface ShopRouterOptions {
  /** Where a request naming no shop (or one not in `admins`) goes; without it such a request is answered 404. */
  fallback?: string;
  /** Answers a request itself (its path and body) instead of passing it on, when it returns a value: sent as JSON. */
  intercept?: (path: string, body: Buffer) => unknown;
}

/**
 * One origin for several local admins (each serves one shop): a request goes to the admin of the shop its
 * X-Shopify-Shop-Domain names, as the app's local-admin fetch sends it (app/shopify/local-admin.server.ts).
 * For tests and benches with more than one shop.
 */
export async function startShopRouter(admins: ReadonlyMap<string, string>, options: ShopRouterOptions = {}): Promise<ShopRouter> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const intercepted = options.intercept?.(req.url ?? "/", body);
        if (intercepted !== undefined) {
          res.setHeader("content-type", "application/json");
          res.end(JSON.stringify(intercepted));
          return;
        }
        const target = admins.get(String(req.headers["x-shopify-shop-domain"])) ?? options.fallback;
        if (!target) {
          res.statusCode = 404;
          res.end("unknown shop");
          return;
        }
        const headers = new Headers();
        for (const [key, value] of Object.entries(req.headers))
          if (typeof value === "string" && key !== "host" && key !== "content-length") headers.set(key, value);
        const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: chunks.length > 0 ? body : undefined, redirect: "manual" });
        res.statusCode = answer.status;
        answer.headers.forEach((value, key) => {
          if (key !== "content-length" && key !== "content-encoding" && key !== "transfer-encoding") res.setHeader(key, value);
        });
        res.end(Buffer.from(await answer.arrayBuffer()));
      })().catch((error: unknown) => {
        res.statusCode = 502;
        res.end(String(error));
      });
    });
  });
  // Longer than the app's HTTP client keeps an idle connection, so the router never closes one under a request.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
