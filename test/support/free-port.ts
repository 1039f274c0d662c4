import { createServer } from "node:net";

/**
 * A TCP port nothing listens on right now, for servers whose URL must be known before they start. On its
 * own so that a process measuring its memory (test/bench) can use it without loading the stack's servers.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
