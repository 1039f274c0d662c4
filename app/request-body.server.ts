import { json } from "@remix-run/node";
import { tooLargeMessage } from "./body-limits";

/**
 * Request bodies are bounded before anything reads them, authentication included (docs/decisions/020): the
 * declared length is checked first, and a body sent without one (chunked) is counted while it streams, so a
 * body over its route's limit (app/body-limits.ts) is refused with 413 having held at most the limit in
 * memory. The unread rest is the server's to discard (server/edge.ts answers such a refusal with
 * `Connection: close`); the server refuses a declared length over the limit before the app sees the request.
 */

/** Bytes reserved by bodies being read, against a ceiling. */
export class BodyBudget {
  private reserved = 0;
  constructor(readonly ceiling: number) {}

  /** Reserves `bytes`; false (nothing reserved) when they do not fit. */
  reserve(bytes: number): boolean {
    if (this.reserved + bytes > this.ceiling) return false;
    this.reserved += bytes;
    return true;
  }

  release(bytes: number): void {
    this.reserved = Math.max(0, this.reserved - bytes);
  }

  get inUse(): number {
    return this.reserved;
  }
}

function tooLarge(limit: number): Response {
  return json({ error: tooLargeMessage(limit) }, { status: 413 });
}

/**
 * The body's length as the request declares it: a number, null when it declares none (chunked), or a 400
 * when the header is not a length (Node's HTTP parser refuses most such requests before they get here).
 */
function declaredLength(request: Request): number | null {
  const header = request.headers.get("content-length");
  if (header === null) return null;
  if (!/^\s*\d{1,16}\s*$/.test(header)) throw json({ error: "Content-Length is not a length in bytes." }, { status: 400 });
  return Number(header);
}

/**
 * Reads the request's body, at most `limit` bytes: a body declared or found longer is refused with 413
 * (thrown) without reading what is past the limit. The rest is left unread, never cancelled: cancelling the
 * stream would destroy the socket under the answer.
 */
export async function readBoundedBody(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = declaredLength(request);
  if (declared !== null && declared > limit) throw tooLarge(limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) throw tooLarge(limit);
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof Response) throw error;
    throw json({ error: "The request body ended before it was whole." }, { status: 400 });
  } finally {
    reader.releaseLock();
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The same request with its body read, at most `limit` bytes (see {@link readBoundedBody}), for a reader that reads it whole (the library's). */
export async function boundedRequest(request: Request, limit: number): Promise<Request> {
  const body = request.method === "GET" || request.method === "HEAD" ? null : await readBoundedBody(request, limit);
  return new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal });
}

/**
 * Reads a body of at most `limit` bytes with `bytes` of `budget` reserved while `read` uses it: the declared
 * length, or the limit for a body sent without one. When the budget has no room the request is answered 503
 * (thrown) with Retry-After, before any of it is read.
 */
export async function withBudgetedBody<T>(
  request: Request,
  limit: number,
  budget: BodyBudget,
  read: (body: Uint8Array<ArrayBuffer>) => Promise<T>,
): Promise<T> {
  const declared = declaredLength(request);
  if (declared !== null && declared > limit) throw tooLarge(limit);
  const reservation = Math.min(declared ?? limit, limit);
  if (!budget.reserve(reservation)) {
    throw json({ error: "Too many large requests at once; retry in a few seconds." }, { status: 503, headers: { "retry-after": "5" } });
  }
  try {
    return await read(await readBoundedBody(request, limit));
  } finally {
    budget.release(reservation);
  }
}
