import { SignJWT } from "jose";
import type { LocalAdmin } from "../../devstore/server.js";
import { API_KEY, SHOP } from "./devstore-harness";

/**
 * Calls a route module's loader or action the way the embedded app's own fetches reach it: with a Bearer
 * session token the local admin signed (the library validates it and exchanges it for an offline token).
 */

export interface RouteAnswer {
  status: number;
  headers: Headers;
  /** The body as the browser gets it (JSON round trip), or the text when it is not JSON. */
  body: unknown;
}

export type RouteHandler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<unknown>;

export async function appRequest(admin: Pick<LocalAdmin, "mintSessionToken">, path: string, init: RequestInit = {}): Promise<Request> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${await admin.mintSessionToken()}`);
  return new Request(new URL(path, "http://localhost:3000"), { ...init, headers });
}

async function answerOf(response: Response): Promise<RouteAnswer> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a redirect's empty body): keep the text.
  }
  return { status: response.status, headers: response.headers, body };
}

/** Runs the handler with the route's `params`; a returned or thrown Response (redirects, json()) is answered as such. */
export async function callRoute(handler: RouteHandler, request: Request, params: Record<string, string> = {}): Promise<RouteAnswer> {
  try {
    const result = await handler({ request, params, context: {} });
    if (result instanceof Response) return answerOf(result);
    return { status: 200, headers: new Headers(), body: JSON.parse(JSON.stringify(result)) };
  } catch (thrown) {
    if (thrown instanceof Response) return answerOf(thrown);
    throw thrown;
  }
}

/** A form post body, as `<Form method="post">` sends it; a list is sent as the same field repeated. */
export function formBody(fields: Record<string, string | readonly string[]>): RequestInit {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const entry of typeof value === "string" ? [value] : value) body.append(name, entry);
  return { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } };
}

/** A JSON post body, as `useSubmit(..., { encType: "application/json" })` sends it. */
export function jsonBody(value: unknown): RequestInit {
  return { method: "POST", body: JSON.stringify(value), headers: { "content-type": "application/json" } };
}

/** The origin of an admin extension's requests (Shopify serves extensions from its CDN): they come cross-origin. */
export const EXTENSION_ORIGIN = "https://extensions.shopifycdn.com";

/** A session token for the shop signed with another secret than the app's: what a forger sends. */
export function forgedSessionToken(): Promise<string> {
  return new SignJWT({ dest: `https://${SHOP}`, sub: "1", sid: "forged" })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(`https://${SHOP}/admin`)
    .setAudience(API_KEY)
    .setIssuedAt()
    .setNotBefore("0s")
    .setExpirationTime("1m")
    .sign(new TextEncoder().encode("not-the-app-secret"));
}
