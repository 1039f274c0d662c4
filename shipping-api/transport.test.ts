import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { nodeHttpTransport } from "./transport";

/** The client's default transport against a real HTTP server on a free port. */
describe("nodeHttpTransport", () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    const open = server;
    server = undefined;
    if (!open) return;
    open.closeAllConnections();
    await new Promise((resolve) => open.close(resolve));
  });
  const serve = async (handler: http.RequestListener): Promise<string> => {
    server = http.createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  it("GIVEN a JSON POST THEN the server gets the body with its length and headers, and the answer comes back whole with its status and headers", async () => {
    const seen: Array<{ method?: string; length?: string; type?: string; body: string }> = [];
    const base = await serve((request, response) => {
      let body = "";
      request.setEncoding("utf8");
      request.on("data", (chunk: string) => (body += chunk));
      request.on("end", () => {
        seen.push({ method: request.method, length: request.headers["content-length"], type: request.headers["content-type"], body });
        response.writeHead(422, { "content-type": "application/json", "retry-after": "3" });
        response.end(JSON.stringify({ error: "Zürich is not a state" }));
      });
    });
    const body = JSON.stringify({ city: "Zürich" });
    const answer = await nodeHttpTransport(`${base}/restapi/v1/x`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(seen).toEqual([{ method: "POST", length: String(Buffer.byteLength(body)), type: "application/json", body }]);
    expect(answer.ok).toBe(false);
    expect(answer.status).toBe(422);
    expect(answer.headers.get("Retry-After")).toBe("3");
    expect(answer.headers.get("x-none")).toBeNull();
    expect(JSON.parse(await answer.text())).toEqual({ error: "Zürich is not a state" });
  });

  it("GIVEN requests one after another THEN they share one kept-alive connection", async () => {
    const connections = new Set<unknown>();
    const base = await serve((request, response) => {
      connections.add(request.socket);
      response.end("[]");
    });
    for (let i = 0; i < 5; i++) expect(await (await nodeHttpTransport(`${base}/t`, {})).text()).toBe("[]");
    expect(connections.size).toBe(1);
  });

  it("GIVEN a server that drops the connection half-way through its answer THEN the request fails instead of answering a part", async () => {
    const base = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      response.write('{"bookNumber":');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    await expect(nodeHttpTransport(`${base}/b`, { method: "POST", body: "{}" })).rejects.toThrow();
  });

  it("GIVEN a signal that aborts while the server is silent THEN the request fails and the signal says why", async () => {
    const base = await serve(() => undefined);
    const signal = AbortSignal.timeout(50);
    await expect(nodeHttpTransport(`${base}/slow`, { signal })).rejects.toThrow();
    expect(signal.aborted).toBe(true);
  });

  it("GIVEN nobody listening THEN the request fails", async () => {
    const base = await serve((_request, response) => response.end());
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    await expect(nodeHttpTransport(`${base}/gone`, {})).rejects.toThrow();
  });
});
