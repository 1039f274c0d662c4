import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { BROWSER_USER_AGENT } from "./stack.js";

/** Real Chromium for the browser tests and `npm run bench:ui` (no test runner here: the bench imports it). */

/** Where screenshots and app logs of the end-to-end tests go (ignored by git). */
export const RESULTS_DIR = join(import.meta.dirname, "..", "..", "test-results");

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
/** The local admin (one port) frames the app (another port) on this machine's loopback addresses. */
const DISABLED_FEATURES = ["LocalNetworkAccessChecks"];

/** Debian's Chromium; override with CHROMIUM_PATH. Playwright's own browser downloads are not used. */
const EXECUTABLE = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export interface BrowserSession {
  context: BrowserContext;
  close(): Promise<void>;
}

export interface BrowserOptions {
  /**
   * The merchant's "Block third-party cookies" setting, with third-party storage denied outright rather than
   * partitioned (as incognito windows and stricter browsers do): a cross-site frame's sessionStorage and
   * localStorage throw SecurityError on access.
   */
  blockThirdPartyStorage?: boolean;
}

/** Real Chromium with a fresh profile, removed again on close. */
export async function openBrowser(options: BrowserOptions = {}): Promise<BrowserSession> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), "consign-chromium-"));
  const disabledFeatures = [...DISABLED_FEATURES];
  if (options.blockThirdPartyStorage) {
    mkdirSync(join(profile, "Default"));
    writeFileSync(join(profile, "Default", "Preferences"), JSON.stringify({ profile: { cookie_controls_mode: 1, block_third_party_cookies: true } }));
    disabledFeatures.push("ThirdPartyStoragePartitioning");
  }
  const args = [...ARGS, `--disable-features=${disabledFeatures.join(",")}`];
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: EXECUTABLE,
    args,
    // Headless Chromium announces itself as "HeadlessChrome", which isbot (used by @shopify/shopify-app-remix
    // and the app's document rendering) treats as a bot and answers with 410 Gone.
    userAgent: BROWSER_USER_AGENT,
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
