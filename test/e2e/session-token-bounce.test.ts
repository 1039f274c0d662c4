import { beforeAll, describe, expect, it } from "vitest";
import { connectStackAccount } from "../support/account.js";
import { useStackInBrowser, withPage } from "./harness.js";

const e2e = useStackInBrowser();

// /app/quotes/new quotes the selection at once, which needs a Shipping API account.
beforeAll(() => connectStackAccount(e2e.stack));

// The library's bounce page (/auth/session-token) must be frameable by the local admin like the app's pages.
describe("the session-token bounce inside the local admin's frame", () => {
  it("GIVEN the app in the frame WHEN it loads one of its pages as a document without a session token THEN the bounce page gets one from the admin and the page loads", () =>
    withPage(e2e.browser.context, async (page) => {
      await page.goto(e2e.stack.adminAppUrl("/app"));
      const frame = page.frameLocator("#app-iframe");
      await frame.getByText(e2e.stack.admin.store.getShop().name, { exact: true }).waitFor();
      const appFrame = page.frame({ name: "app-iframe" });
      if (!appFrame) throw new Error("no app frame");

      const bounced: string[] = [];
      page.on("request", (request) => {
        if (new URL(request.url()).pathname === "/auth/session-token") bounced.push(request.url());
      });
      await appFrame.evaluate(() => {
        const next = new URL("/app/quotes/new", location.href);
        const current = new URLSearchParams(location.search);
        for (const key of ["shop", "host", "embedded"]) next.searchParams.set(key, current.get(key) ?? "");
        next.searchParams.append("ids[]", "gid://shopify/Order/1002");
        location.assign(next.href);
      });

      // The page quotes the order and redirects to its rates page, keeping the session token it was given.
      await frame.getByTestId("quote-order-name").waitFor();
      expect(await frame.getByTestId("quote-order-name").allTextContents()).toEqual(["#1002"]);
      expect(bounced).toHaveLength(1);
      expect(new URL(appFrame.url()).searchParams.get("id_token")).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      await page.waitForURL(/\/admin\/apps\/consign\/app\/quotes\/(?!new)\w+/);
    }));
});
