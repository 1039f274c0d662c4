import { describe, expect, it } from "vitest";
import { connectStackAccount } from "../support/account.js";
import { useStackInBrowser, withPage } from "./harness.js";

// In Shopify admin the app is always a cross-site frame. With "Block third-party cookies" (incognito, Brave,
// stricter defaults) such a frame may not touch sessionStorage or localStorage at all: any read throws
// SecurityError. Here the app is served on localhost inside the local admin on 127.0.0.1, a browser with that
// setting opens it, and the merchant moves around the app by its navigation and links.
const e2e = useStackInBrowser({ appHost: "localhost" }, { blockThirdPartyStorage: true });

describe("the embedded app in a browser that blocks third-party storage", () => {
  it("GIVEN third-party storage denied to the app's frame WHEN the merchant opens the app and navigates between pages THEN every page renders and nothing throws", async () => {
    await connectStackAccount(e2e.stack);
    await withPage(e2e.browser.context, async (page) => {
      const frameErrors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && /SecurityError|Access is denied/.test(message.text())) frameErrors.push(message.text());
      });
      await page.goto(e2e.stack.adminAppUrl("/app"));
      const frame = page.frameLocator("#app-iframe");

      // The precondition: the app's frame really is denied storage in this browser.
      const appFrame = page.frames().find((candidate) => candidate.url().startsWith(e2e.stack.app.url));
      expect(appFrame, "the app's frame").toBeDefined();
      const denied = await appFrame!.evaluate(() => {
        try {
          return Object.getOwnPropertyDescriptor(Window.prototype, "sessionStorage")?.get?.call(window) === undefined;
        } catch (error) {
          return error instanceof DOMException && error.name === "SecurityError";
        }
      });
      expect(denied, "sessionStorage is denied to the app's frame").toBe(true);

      // Each page's title bar reaches the admin's header once the page has rendered in the frame.
      const titled = (title: string) => page.waitForFunction((expected) => document.getElementById("app-title")?.textContent === expected, title);
      await titled("Orders to ship");
      for (const title of ["Batches", "Shipments", "Settings", "Rates"]) {
        await page.locator("#app-nav").getByRole("link", { name: title, exact: true }).click();
        await titled(title);
        expect(await frame.getByText("Application Error").count()).toBe(0);
      }
      expect(frameErrors).toEqual([]);
    });
  });
});
