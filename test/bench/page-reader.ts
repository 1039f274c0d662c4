import { z } from "zod";
import { mintSessionToken } from "../../devstore/auth/session-token";

/**
 * The merchant of a product bench, in a process of its own so that what it measures is the app's answer and not
 * the bench process's own work (the local admin it hosts executes every Admin API request and sends every
 * webhook): reads the pages one after another, round after round, each with a fresh session token as App Bridge
 * gives one, until a line arrives on stdin (at least one round); then writes each page's latencies and the
 * pages that did not answer 200 (or whose connection failed) to stdout as JSON. Started by product-stack.ts's readPagesUntil.
 *
 * It reads as a busy merchant clicks, a page a second at most (`intervalMs`): read back to back, a fast app was
 * asked for every page three times a second, and the reader's own pace, not the app, spent the shop's throttle.
 */

const Options = z.object({
  appUrl: z.string().url(),
  apiKey: z.string(),
  apiSecret: z.string(),
  shop: z.string(),
  userAgent: z.string(),
  pages: z.array(z.object({ name: z.string(), path: z.string(), route: z.string() })),
  /** The least time from one read's start to the next's. */
  intervalMs: z.number().int().nonnegative(),
});

const options = Options.parse(JSON.parse(process.argv[2] ?? ""));
let stopped = false;
process.stdin.once("data", () => (stopped = true));

const latencies: Record<string, number[]> = Object.fromEntries(options.pages.map((page) => [page.name, []]));
const failures: string[] = [];
do {
  for (const page of options.pages) {
    const token = await mintSessionToken({ apiKey: options.apiKey, apiSecret: options.apiSecret, clock: Date.now }, { shop: options.shop, userId: 1 });
    const started = performance.now();
    try {
      const response = await fetch(`${options.appUrl}${page.path}${page.path.includes("?") ? "&" : "?"}_data=${encodeURIComponent(page.route)}`, {
        headers: { authorization: `Bearer ${token}`, "user-agent": options.userAgent },
        redirect: "manual",
      });
      await response.arrayBuffer();
      if (response.status !== 200) failures.push(`${page.name} answered ${response.status}`);
    } catch (error) {
      // A connection the app closed under the request (issue 28's keep-alive resets) is a failed read, counted.
      failures.push(`${page.name}: ${error instanceof Error ? `${error.message} (${String(error.cause)})` : String(error)}`);
    }
    latencies[page.name]!.push(performance.now() - started);
    const rest = options.intervalMs - (performance.now() - started);
    if (rest > 0 && !stopped) await new Promise((resolve) => setTimeout(resolve, rest));
  }
} while (!stopped);
process.stdout.write(JSON.stringify({ latencies, failures }));
process.stdin.destroy();
