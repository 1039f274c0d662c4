import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { openBrowser, type BrowserOptions, type BrowserSession } from "../support/browser.js";
import { startStack, type Stack, type StackOptions } from "../support/stack.js";

export { openBrowser, RESULTS_DIR, type BrowserOptions, type BrowserSession } from "../support/browser.js";

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
