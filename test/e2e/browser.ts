import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

/** Where screenshots and app logs of the end-to-end tests go (ignored by git). */
export const RESULTS_DIR = join(import.meta.dirname, "..", "..", "test-results");

/**
 * A desktop Chrome user agent. Headless Chromium announces itself as "HeadlessChrome", which isbot (used by
 * @shopify/shopify-app-remix and remix-serve) treats as a bot and answers with 410 Gone.
 */
const USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // The local admin (one port) frames the app (another port) on 127.0.0.1.
  "--disable-features=LocalNetworkAccessChecks",
];

/** Debian's Chromium; override with CHROMIUM_PATH. Playwright's own browser downloads are not used. */
const EXECUTABLE = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export interface BrowserSession {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Real Chromium with a fresh profile, removed again on close. */
export async function openBrowser(): Promise<BrowserSession> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), "consign-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: EXECUTABLE,
    args: ARGS,
    userAgent: USER_AGENT,
    viewport: { width: 1360, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
