import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A forwarding proxy that breaks chosen exchanges the way networks and upstreams do, for the tests of what
 * the app does when an answer is lost (test/integration/lost-answers.test.ts). It sits between the app and
 * the Shipping API service or the local admin and forwards everything to `target`, except a request that
 * matches an injected fault, which it breaks once per `times`:
 * - `503`: answered 503 without forwarding (the upstream is down; nothing happened there);
 * - `reset-before`: the connection is reset without forwarding (nothing happened there);
 * - `reset-after`: forwarded, the upstream acts, then the connection is reset before any answer (a lost answer);
 * - `truncate`: forwarded, and the answer's body cut in half, its length saying so (an answer cut off);
 * - `hold`: forwarded, and the answer held for `holdMs` (past the client's timeout) before it is sent.
 */

export type FaultKind = "503" | "reset-before" | "reset-after" | "truncate" | "hold";

export interface SeenRequest {
  method: string;
  /** Path and query. */
  path: string;
  body: string;
}

export interface FaultRule {
  /** Which requests the fault breaks. */
  match: (request: SeenRequest) => boolean;
  fault: FaultKind;
  /** How many matching requests it breaks before it lets them through. */
  times: number;
  /** For `hold`: how long the answer is held. */
  holdMs?: number;
}

export interface FaultProxy {
  url: string;
  /** Where requests are forwarded (settable once the upstream has started). */
  target: string;
  inject(rule: FaultRule): void;
  /** The faults applied so far, in order. */
  readonly applied: Array<{ fault: FaultKind } & SeenRequest>;
  /** Drops the faults not yet applied and forgets those applied. */
  clear(): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "host"]);

export async function startFaultProxy(target = "http://127.0.0.1:0"): Promise<FaultProxy> {
  const rules: FaultRule[] = [];
  const applied: FaultProxy["applied"] = [];

  async function forward(seen: SeenRequest, request: IncomingMessage): Promise<{ status: number; headers: Headers; body: Buffer }> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const hasBody = seen.method !== "GET" && seen.method !== "HEAD";
    const response = await fetch(new URL(seen.path, proxy.target), { method: seen.method, headers, body: hasBody ? seen.body : undefined });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  }

  function answer(response: ServerResponse, upstream: { status: number; headers: Headers; body: Buffer }, body = upstream.body): void {
    const headers: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== "content-encoding") headers[name] = value;
    });
    response.writeHead(upstream.status, { ...headers, "content-length": String(body.length) });
    response.end(body);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const seen: SeenRequest = { method: request.method ?? "GET", path: request.url ?? "/", body: Buffer.concat(chunks).toString("utf8") };
    const rule = rules.find((candidate) => candidate.times > 0 && candidate.match(seen));
    if (!rule) return answer(response, await forward(seen, request));
    rule.times--;
    applied.push({ fault: rule.fault, ...seen });
    switch (rule.fault) {
      case "503":
        response.writeHead(503, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: "Service temporarily unavailable (injected)", errorCategory: "SERVICE_UNAVAILABLE" }));
        return;
      case "reset-before":
        request.socket.resetAndDestroy();
        return;
      case "reset-after":
        await forward(seen, request);
        request.socket.resetAndDestroy();
        return;
      case "truncate": {
        const upstream = await forward(seen, request);
        return answer(response, upstream, upstream.body.subarray(0, Math.floor(upstream.body.length / 2)));
      }
      case "hold": {
        const upstream = await forward(seen, request);
        await new Promise((resolve) => setTimeout(resolve, rule.holdMs ?? 5_000));
        if (!request.socket.destroyed) answer(response, upstream);
        return;
      }
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
      response.end(`fault proxy: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const proxy: FaultProxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    target,
    inject: (rule) => void rules.push({ ...rule }),
    applied,
    clear: () => {
      rules.splice(0);
      applied.splice(0);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return proxy;
}
