import { Agent, request as httpRequest } from "node:http";
import { connect } from "node:net";

/**
 * HTTP as a hostile or a careful client sends it, for the tests of what a server does with bad input.
 * - {@link rawExchange}: bytes written on a fresh socket, exactly as given (oversized headers, broken request
 *   lines, lying lengths), and how the server answered and then ended the connection.
 * - {@link createKeepAliveClient}: a client that reuses one pooled connection and honours `Connection: close`,
 *   like the app's client; a server that closes without saying so makes its next request fail with a reset.
 */

export interface ProbeResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface RawExchange {
  /** The answer, or null when the connection ended before a whole answer arrived. */
  response: ProbeResponse | null;
  /** How the connection ended after the answer: closed cleanly, reset, or still open after `waitMs`. */
  ending: "closed" | "reset" | "open";
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseResponse(buffer: Buffer): ProbeResponse | null {
  const headEnd = buffer.indexOf("\r\n\r\n");
  if (headEnd === -1) return null;
  const [statusLine = "", ...lines] = buffer.subarray(0, headEnd).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) return null;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers["content-length"] ?? NaN);
  const body = buffer.subarray(headEnd + 4);
  if (Number.isFinite(length) && body.length < length) return null;
  const text = (Number.isFinite(length) ? body.subarray(0, length) : body).toString("utf8");
  return { status, headers, text, json: parseJson(text) };
}

/**
 * Writes `bytes` on a new connection to `baseUrl` and reads one answer. When the answer says
 * `Connection: close`, waits up to `waitMs` for the server to close and tells whether it closed or reset.
 */
export function rawExchange(baseUrl: string, bytes: Buffer | string, options: { waitMs?: number } = {}): Promise<RawExchange> {
  const { hostname, port } = new URL(baseUrl);
  const waitMs = options.waitMs ?? 3_000;
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = Buffer.alloc(0);
    let response: ProbeResponse | null = null;
    let reset = false;
    let settled = false;
    const finish = (ending: RawExchange["ending"]) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ response, ending });
    };
    const timer = setTimeout(() => finish("open"), waitMs);
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      response ??= parseResponse(received);
      // An answer that keeps the connection open is the end of the exchange.
      if (response && response.headers.connection?.toLowerCase() !== "close") finish("open");
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET" || error.code === "EPIPE") reset = true;
      finish(reset ? "reset" : "closed");
    });
    socket.on("close", () => finish(reset ? "reset" : "closed"));
    socket.on("end", () => finish("closed"));
    socket.write(bytes, (error) => {
      if (error) reset = true;
    });
  });
}

export interface KeepAliveClient {
  request(input: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<ProbeResponse>;
  close(): void;
}

/**
 * One pooled keep-alive connection to `baseUrl`; requests go one after another over it. With `timeoutMs`, a
 * request not answered in that time fails ("no answer within …"): a server that leaves a connection hanging.
 */
export function createKeepAliveClient(baseUrl: string, options: { timeoutMs?: number } = {}): KeepAliveClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(baseUrl);
  return {
    request({ method, path, headers = {}, body }) {
      return new Promise((resolve, reject) => {
        const outgoing = httpRequest({ host: hostname, port: Number(port), method, path, headers, agent }, (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
          incoming.on("error", reject);
          incoming.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            const flat = Object.fromEntries(
              Object.entries(incoming.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : (value ?? "")]),
            );
            resolve({ status: incoming.statusCode ?? 0, headers: flat, text, json: parseJson(text) });
          });
        });
        outgoing.on("error", reject);
        if (options.timeoutMs !== undefined)
          outgoing.setTimeout(options.timeoutMs, () => outgoing.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
        outgoing.end(body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

export interface StreamedUpload {
  /** The answer's status, or null when the connection ended before one. */
  status: number | null;
  /** The answer's body (up to the first 64 KiB). */
  text: string;
  /** The answer's Connection header, lower-cased. */
  connection: string | undefined;
  /** How much of the body was written before the answer came or the connection ended. */
  sentBytes: number;
}

/**
 * POSTs a body of `bytes` bytes (zeros written in 64 KiB chunks as fast as the server takes them, streamed,
 * never held whole) on a connection of its own, declaring its length or sending it chunked, as a hostile
 * client does: it keeps writing after the answer, until the whole body is sent or the server ends the
 * connection (which is then not an error). For the tests that send oversized bodies.
 */
export function streamOversizedBody(
  baseUrl: string,
  input: { path: string; bytes: number; declareLength: boolean; headers?: Record<string, string> },
): Promise<StreamedUpload> {
  const { hostname, port } = new URL(baseUrl);
  const chunk = Buffer.alloc(64 * 1024);
  return new Promise((resolve) => {
    let sentBytes = 0;
    let answer: Omit<StreamedUpload, "sentBytes"> | null = null;
    let ended = false;
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      outgoing.destroy();
      resolve({ ...(answer ?? { status: null, text: "", connection: undefined }), sentBytes });
    };
    const headers = { ...input.headers, ...(input.declareLength ? { "content-length": String(input.bytes) } : { "transfer-encoding": "chunked" }) };
    const outgoing = httpRequest({ host: hostname, port: Number(port), method: "POST", path: input.path, headers, agent: false }, (incoming) => {
      const received: Buffer[] = [];
      let size = 0;
      incoming.on("data", (data: Buffer) => {
        if (size < 65_536) received.push(data);
        size += data.length;
      });
      incoming.on("end", () => {
        answer = {
          status: incoming.statusCode ?? null,
          text: Buffer.concat(received).toString("utf8"),
          connection: incoming.headers.connection?.toLowerCase(),
        };
        if (ended) settle();
      });
    });
    // The connection ends: the server closed it (after its answer, or resetting it), or the body was all sent.
    outgoing.on("error", settle);
    outgoing.on("close", settle);
    const write = () => {
      while (!settled && sentBytes < input.bytes) {
        const piece = input.bytes - sentBytes >= chunk.length ? chunk : chunk.subarray(0, input.bytes - sentBytes);
        sentBytes += piece.length;
        if (!outgoing.write(piece)) return void outgoing.once("drain", write);
      }
      if (!settled) {
        ended = true;
        outgoing.end();
        if (answer) settle();
      }
    };
    write();
  });
}
