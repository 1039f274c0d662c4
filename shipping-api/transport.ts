import http from "node:http";
import https from "node:https";

/**
 * How the client sends a request: the part of `fetch` it uses. `fetch` itself is one; the default is
 * {@link nodeHttpTransport}.
 */
export type Transport = (
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<{ ok: boolean; status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;

/**
 * Keep-alive connections, shared by every client of the process (each shop has its own client; they all reach the
 * same Shipping API), made on first use. Sockets the server has closed are dropped by the agent, which reads the
 * server's Keep-Alive timeout.
 */
let agents: { "http:": http.Agent; "https:": https.Agent } | undefined;

/**
 * Sends a request with Node's own HTTP client over kept-alive connections and reads the whole answer: about a
 * third of the CPU of `fetch` (undici's streams, its Request and Response objects) for the small JSON answers of
 * the Shipping API, which tracking asks for once per followed parcel (docs/performance.md). Failures are as
 * `fetch`'s: the promise rejects on a network error or when `signal` aborts (the client tells which from the
 * signal), and an HTTP error status resolves.
 */
export const nodeHttpTransport: Transport = (url, { method = "GET", headers = {}, body, signal }) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const protocol = target.protocol === "https:" ? "https:" : "http:";
    const send = protocol === "https:" ? https.request : http.request;
    const request = send(
      target,
      {
        method,
        headers: body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) },
        agent: (agents ??= { "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }), "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }) })[
          protocol
        ],
        signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("aborted", () => reject(new Error("the connection closed before the whole answer arrived")));
        response.on("end", () => {
          if (!response.complete) return reject(new Error("the connection closed before the whole answer arrived"));
          const text = Buffer.concat(chunks).toString("utf8");
          const status = response.statusCode ?? 0;
          resolve({
            ok: status >= 200 && status < 300,
            status,
            headers: {
              get: (name) => {
                const value = response.headers[name.toLowerCase()];
                return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
              },
            },
            text: async () => text,
          });
        });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
