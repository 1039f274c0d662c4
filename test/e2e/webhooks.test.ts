import { describe, expect, it } from "vitest";
import { useStackInBrowser, withPage } from "./harness.js";

const e2e = useStackInBrowser();

describe("compliance webhooks from the local admin's webhooks page to the app", () => {
  it("GIVEN the webhooks page WHEN “Send customers/data_request” is clicked THEN the app accepts the signed delivery and the page lists it as delivered", () =>
    withPage(e2e.browser.context, async (page) => {
      await page.goto(`${e2e.stack.admin.url}/admin`);
      await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Webhooks" }).click();
      await page.getByLabel(/Customer email/).fill("someone@example.com");
      await page.getByRole("button", { name: "Send customers/data_request" }).click();
      await page.getByRole("status").filter({ hasText: "Queued customers/data_request." }).waitFor();

      const deadline = Date.now() + 15_000;
      const delivered = () => e2e.stack.admin.store.listWebhookDeliveries().find((d) => d.topic === "customers/data_request");
      while (delivered()?.status !== "delivered" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(delivered()).toMatchObject({ status: "delivered", last_status_code: 200, url: `${e2e.stack.app.url}/webhooks/compliance` });

      await page.reload();
      const row = page.getByTestId("webhook-delivery").filter({ hasText: "customers/data_request" });
      expect(await row.textContent()).toContain("delivered");
    }));
});
