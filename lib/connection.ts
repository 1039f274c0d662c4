import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";

/**
 * Closing a connection without losing the answer (the Shipping API service's and the app's servers alike).
 * When a server refuses a request it has not read to the end (headers over the limit, a body over the limit, a
 * request the HTTP parser rejects, a refusal before the body was wanted), it must close the connection: what
 * follows on it is not a request. Closing a socket that still has unread bytes makes the kernel send a reset,
 * and a reset can discard the answer before the client reads it. So the server says
 * `Connection: close`, ends its side after the answer, and reads and discards what the client still sends
 * until the client closes too (or {@link LINGER_MS} passes): the same "lingering close" as nginx.
 */

/** How long a closing connection keeps draining what the client still sends. */
export const LINGER_MS = 2_000;

const lingering = new WeakSet<Socket>();

/** Ends the socket after what was written, draining (and discarding) input until the client closes or the linger ends. */
export function lingeringClose(socket: Socket): void {
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  socket.on("end", () => socket.destroy());
  socket.on("data", () => undefined);
  socket.resume();
  socket.end();
}

/**
 * For a response that carries `Connection: close`: Node's HTTP server ends such a connection with
 * `destroySoon()` once the response is written; this makes that end a lingering one.
 */
export function lingerAfterResponse(socket: Socket): void {
  socket.destroySoon = () => lingeringClose(socket);
}

/**
 * Answers on a raw socket, for refusals the HTTP parser makes before there is a request object (431 header
 * overflow, 400 malformed request, 408 timeout), then closes with a lingering close. Nothing is written when
 * the socket is gone or a response on it has already begun (the bytes would corrupt it). The answer to a HEAD
 * request (as far as the bytes the parser refused show one) has its headers only: a body after them would be
 * read as a second, broken answer.
 */
export function answerOnSocket(socket: Socket, refused: Error & { rawPacket?: unknown }, status: number, body: unknown): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.destroyed) return;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  // The HTTP parser is finished with this connection: stop feeding it what the client still sends.
  socket.removeAllListeners("data");
  const text = JSON.stringify(body);
  const head = Buffer.isBuffer(refused.rawPacket) && refused.rawPacket.toString("latin1", 0, 5) === "HEAD ";
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${head ? "" : text}`,
  );
  lingeringClose(socket);
}
