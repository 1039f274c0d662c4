import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { BROWSER_USER_AGENT, startStack, type Stack, type StackOptions } from "../support/stack.js";

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

/** Runs `use` on a new page, then requires that the page reported no uncaught errors; closes it either way. */
export async function withPage(context: BrowserContext, use: (page: Page) => Promise<void>): Promise<void> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  try {
    await use(page);
    expect(errors, "uncaught errors in the page").toEqual([]);
  } finally {
    await page.close();
  }
}

export interface E2e {
  readonly stack: Stack;
  readonly browser: BrowserSession;
}

/** Starts the stack and Chromium before a test file's tests and stops both after them. */
export function useStackInBrowser(options?: StackOptions, browserOptions?: BrowserOptions): E2e {
  let stack: Stack | undefined;
  let browser: BrowserSession | undefined;
  beforeAll(async () => {
    stack = await startStack(options);
    browser = await openBrowser(browserOptions);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`The ${name} is not started (use it inside a test)`);
    return value;
  };
  return {
    get stack() {
      return started(stack, "stack");
    },
    get browser() {
      return started(browser, "browser");
    },
  };
}
