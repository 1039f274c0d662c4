import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import { answerOnSocket, lingerAfterResponse } from "../lib/connection";
import { bodyLimitFor, tooLargeMessage } from "../app/body-limits";

/**
 * The app's public edge, in front of Remix (docs/decisions/020): what every request meets before any route,
 * and what every answer does to its connection, whichever layer wrote it (a route, the library's
 * authentication, Remix's own 404/405, an error).
 */

/** The methods the app's routes take; any other (TRACE, PROPFIND …) is answered 405 here. */
export const METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function refuse(response: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  response
    .status(status)
    .set({ "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers })
    .send(message);
}

/**
 * An answer written before its request's body was read to the end (a refusal that did not want the body: a
 * 401 from authentication, a 405, a 413, an error) says `Connection: close`, and the connection ends with a
 * lingering close: what the client still sends is read and thrown away for a moment, so the kernel never
 * resets the connection under the answer, and the client's next request goes on a new connection. The body's
 * reader (Remix's stream, paused) is let go, so the rest flows past it instead of filling memory.
 */
function closeIfUnread(request: IncomingMessage, response: ServerResponse): void {
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  response.writeHead = ((...args: unknown[]) => {
    if (!request.complete && !response.headersSent) {
      response.setHeader("connection", "close");
      lingerAfterResponse(request.socket);
      response.once("finish", () => discardRest(request));
    }
    return writeHead(...args);
  }) as ServerResponse["writeHead"];
}

function discardRest(request: IncomingMessage): void {
  if (request.complete || request.destroyed) return;
  request.removeAllListeners("data");
  request.on("data", () => undefined);
  request.resume();
}

/**
 * The edge's middleware: odd methods are 405, a declared body over what the address reads (`limitFor`, from
 * app/body-limits.ts) is 413 without reading it, and every answer closes a connection whose request body was
 * not read.
 */
export function edge(limitFor: (pathname: string) => number = bodyLimitFor) {
  return (request: Request, response: Response, next: NextFunction): void => {
    closeIfUnread(request, response);
    if (!METHODS.has(request.method)) {
      return refuse(response, 405, `The app does not take ${request.method.slice(0, 20)} requests.`, { allow: [...METHODS].join(", ") });
    }
    const declared = Number(request.headers["content-length"] ?? 0);
    const limit = limitFor(request.path);
    if (declared > limit) {
      return refuse(response, 413, tooLargeMessage(limit));
    }
    next();
  };
}

/**
 * The last error handler: what express or a middleware refused (an error carrying a 4xx status) is that 4xx;
 * anything else is a 500 in words. Never a stack trace or a path; the error goes to `log`.
 */
export function internalError(log: Pick<Logger, "error">) {
  return (error: unknown, request: Request, response: Response, next: NextFunction): void => answerError(log, error, request, response, next);
}

function answerError(log: Pick<Logger, "error">, error: unknown, request: Request, response: Response, next: NextFunction): void {
  const status = (error as { status?: unknown } | null)?.status;
  const refused = typeof status === "number" && status >= 400 && status < 500;
  if (!refused) log.error({ err: error, path: request.path }, "request failed");
  if (response.headersSent) {
    request.socket.destroy();
    return next(error);
  }
  if (refused) return refuse(response, status, "The request could not be read.");
  refuse(response, 500, "Something went wrong in Consign. Try again; if it keeps happening, contact support.");
}

/**
 * Refusals Node's HTTP parser makes before there is a request (a malformed request line or header, headers
 * over the limit, a request not received in time): answered in words with `Connection: close` and a lingering
 * close, instead of Node's default, which closes at once (and can reset the answer away).
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: Error & { code?: string }, socket: Socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    if (error.code === "HPE_HEADER_OVERFLOW") return answerOnSocket(socket, error, 431, { error: "The request headers are larger than the app takes." });
    if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return answerOnSocket(socket, error, 408, { error: "The request was not received in time." });
    answerOnSocket(socket, error, 400, { error: `Malformed HTTP request (${error.code ?? "parse error"}).` });
  });
}
