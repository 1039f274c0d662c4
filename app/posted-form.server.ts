import { json } from "@remix-run/node";
import type { z } from "zod";
import { jsonCostProblem } from "../lib/json-cost";
import { FORM_BODY_LIMIT, bodyLimitFor } from "./body-limits";
import { readBoundedBody } from "./request-body.server";

const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/**
 * Reads what is left of a request body, at most what its address takes ({@link bodyLimitFor}), and throws it
 * away, for a refusal that does not want the body: a small body read keeps the client's connection usable for
 * its next request. What is past the limit stays unread, and the server closes the connection after the answer
 * (server/edge.ts).
 */
export async function discardBody(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  await readBoundedBody(request, bodyLimitFor(new URL(request.url).pathname)).catch(() => undefined);
}

/**
 * The form a page posted, its body read up to {@link FORM_BODY_LIMIT} (413 beyond, the rest unread). A body
 * that is not a form (another content type, a multipart body that does not parse) is the sender's mistake: it
 * is answered 415 or 400 with a sentence saying how to send it, never a 500, and the action has done nothing
 * yet. The body is read before the refusal, so the connection stays usable.
 */
export async function readPostedForm(request: Request): Promise<FormData> {
  const body = await readBoundedBody(request, FORM_BODY_LIMIT);
  const type = request.headers.get("content-type") ?? "";
  if (!FORM_TYPES.test(type)) {
    throw json(
      { error: `Send this form as application/x-www-form-urlencoded or multipart/form-data, not ${type.slice(0, 100) || "without a content type"}.` },
      { status: 415 },
    );
  }
  try {
    return await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    throw json({ error: "The form could not be read: its body does not match its content type. Reload the page and try again." }, { status: 400 });
  }
}

/** A posted JSON form nests a few levels (Settings' boxes are 3 deep) and holds no long text. */
const POSTED_JSON_LIMITS = { maxDepth: 16, maxStringChars: 10_000 };

/**
 * The JSON a page posted (Settings), its body read up to {@link FORM_BODY_LIMIT} (413 beyond, thrown): the
 * parsed value for the action's own schema to check, or null (which no form's schema takes) when the body is
 * not JSON or nests deeper or holds longer text than a form does, so it is never parsed.
 */
export async function readPostedJson(request: Request): Promise<unknown> {
  const text = new TextDecoder().decode(await readBoundedBody(request, FORM_BODY_LIMIT));
  if (jsonCostProblem(text, POSTED_JSON_LIMITS)) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * A page's JSON post (readPostedJson) parsed by `schema`, or the field of its first problem: what the page sent
 * that it never sends (a tampered or stale page), for the route to refuse with 400 in a sentence of its own.
 */
export async function readPostedJsonAs<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<{ ok: true; data: z.output<S> } | { ok: false; field: string }> {
  const parsed = schema.safeParse(await readPostedJson(request));
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, field: String(parsed.error.issues[0]?.path[0] ?? "form") };
}
