import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { STACK_PARTNER_KEY } from "../support/stack.js";
import { waitUntilQuoted } from "./flows.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

// The app gets the stack service's partner key, so onboarding can create an account through Create Customer.
const e2e = useStackInBrowser({ appEnv: { SHIPPING_API_PARTNER_KEY: STACK_PARTNER_KEY } });

const OAKLAND = "Oakland Studio — 2150 Broadway, Oakland CA 94612, US";
const BROOKLYN = "Brooklyn Warehouse — 55 Water St, Brooklyn NY 11201, US";
const CHOSEN_SERVICES = ["National Postal Service Priority Mail", "Brownline Parcel Ground"];

function readAppDb<T>(sql: string, ...params: unknown[]): T | undefined {
  const db = new Database(fileURLToPath(e2e.stack.app.databaseUrl), { readonly: true });
  try {
    return db.prepare(sql).get(...params) as T | undefined;
  } finally {
    db.close();
  }
}

function storedSettings(): { data: string } | undefined {
  return readAppDb("SELECT data FROM ShopSettings WHERE shop = ?", e2e.stack.shop);
}

describe("onboarding and settings in the embedded app", () => {
  it("GIVEN a new install WHEN the merchant creates a Shipping API account from the home banner and picks a location and services in Settings THEN they are saved and a reload shows them", () =>
    withPage(e2e.browser.context, async (page) => {
      expect(e2e.stack.service.partnerKey).toBe(STACK_PARTNER_KEY);
      await page.goto(e2e.stack.adminAppUrl("/app"));
      const frame = page.frameLocator("#app-iframe");

      // Not connected yet: the home page asks to set up shipping, without redirecting.
      await frame.getByText("Connect a Shipping API account to get rates").waitFor();
      await frame.getByRole("link", { name: "Set up shipping" }).click();

      // Create an account: the form opens with the shop's details; the merchant only chooses a password.
      // Polaris draws its own radio and checkbox over the inputs: the merchant clicks the label.
      await frame.getByText("Create a new account", { exact: true }).click();
      const create = frame.getByTestId("onboarding-create");
      expect(await create.getByLabel("Email").inputValue()).toBe("owner@consign-demo.example");
      expect(await create.getByLabel("Name", { exact: true }).inputValue()).toBe("Dana Rivera");
      expect(await create.getByLabel("State or province code").inputValue()).toBe("NY");
      await create.getByLabel("Password", { exact: true }).fill("merchant-secret-1");
      await create.getByLabel("Repeat the password").fill("merchant-secret-2");
      await create.getByRole("button", { name: "Create account" }).click();
      await create.getByText("does not match the password").waitFor();
      await create.getByLabel("Repeat the password").fill("merchant-secret-1");
      await create.getByRole("button", { name: "Create account" }).click();

      // Onboarding ends in Settings, signed in as the new account.
      await frame.getByTestId("account-email").waitFor();
      expect(await frame.getByTestId("account-email").textContent()).toBe("owner@consign-demo.example");
      const customer = e2e.stack.service.db.statement("SELECT utm, profileCode FROM Customer WHERE email = ?").get("owner@consign-demo.example") as {
        utm: string;
        profileCode: string;
      };
      expect(customer).toEqual({ utm: JSON.stringify({ source: "shopify" }), profileCode: "Default" });

      // First use: the sender is already the shop's primary location, saved, so quoting can start at once.
      expect(await frame.getByLabel("Ship from").locator("option:checked").textContent()).toBe(BROOKLYN);
      expect((JSON.parse(storedSettings()?.data ?? "{}") as { sender?: { city: string } }).sender?.city).toBe("Brooklyn");

      // Choose another location as sender and quote with two services only.
      await frame.getByLabel("Ship from").selectOption({ label: OAKLAND });
      expect(await frame.getByLabel("City").first().inputValue()).toBe("Oakland");
      await frame.getByText("Only the services I choose", { exact: true }).click();
      for (const service of CHOSEN_SERVICES) await frame.getByText(service, { exact: true }).click();
      for (const service of CHOSEN_SERVICES) expect(await frame.getByRole("checkbox", { name: service, exact: true }).isChecked()).toBe(true);
      expect(await frame.getByRole("checkbox", { name: "National Postal Service Ground Return", exact: true }).isDisabled()).toBe(true);
      await frame.getByText("Return service: not quoted for orders").first().waitFor();
      await page.screenshot({ path: join(RESULTS_DIR, "settings-unsaved.png"), fullPage: true });

      // App Bridge's save bar, drawn by the admin above the app's frame.
      const saveBar = page.getByTestId("save-bar");
      await saveBar.getByText("Unsaved changes").waitFor();
      await saveBar.getByRole("button", { name: "Save" }).click();
      await page.locator(".toast", { hasText: "Settings saved" }).waitFor();
      await saveBar.waitFor({ state: "hidden" });
      const saved = JSON.parse(storedSettings()?.data ?? "{}") as { sender?: { city: string }; enabledServices?: unknown[] };
      expect(saved.sender?.city).toBe("Oakland");
      expect(saved.enabledServices).toEqual([
        { carrierCode: "NPS", serviceCode: "NPS_PRIORITY" },
        { carrierCode: "BLP", serviceCode: "BLP_GROUND" },
      ]);

      // A reload opens Settings again with what was saved.
      await page.reload();
      await frame.getByTestId("account-email").waitFor();
      const shipFrom = frame.getByLabel("Ship from");
      expect(await shipFrom.locator("option:checked").textContent()).toBe(OAKLAND);
      expect(await frame.getByRole("radio", { name: "Only the services I choose" }).isChecked()).toBe(true);
      for (const service of CHOSEN_SERVICES) expect(await frame.getByRole("checkbox", { name: service, exact: true }).isChecked()).toBe(true);
      expect(await frame.getByRole("checkbox", { name: "Brownline Parcel Next Day Air", exact: true }).isChecked()).toBe(false);
      await page.screenshot({ path: join(RESULTS_DIR, "settings-saved.png"), fullPage: true });
    }));

  it("GIVEN Settings opened from selected orders that could not be quoted WHEN the merchant saves THEN the app goes back and quotes those orders", () =>
    withPage(e2e.browser.context, async (page) => {
      // The first visit reads the orders into the mirror; take a domestic one.
      await page.goto(e2e.stack.adminAppUrl("/app"));
      await page.frameLocator("#app-iframe").getByTestId("shop-name").waitFor();
      await expect.poll(() => page.frameLocator("#app-iframe").getByText("Reading your open orders from Shopify…").count(), { timeout: 30_000 }).toBe(0);
      const order = readAppDb<{ id: string; name: string }>(
        "SELECT id, name FROM MirrorOrder WHERE shop = ? AND destinationCountry = 'US' AND cancelledAt IS NULL ORDER BY name LIMIT 1",
        e2e.stack.shop,
      )!;
      const returnTo = `/app/quotes/new?${new URLSearchParams({ "ids[]": order.id })}`;
      await page.goto(e2e.stack.adminAppUrl(`/app/settings?${new URLSearchParams({ returnTo })}`));
      const frame = page.frameLocator("#app-iframe");
      await frame.getByText("Your selected orders are waiting").waitFor();

      await frame.getByLabel("Ship from").selectOption({ label: BROOKLYN });
      await page.getByTestId("save-bar").getByRole("button", { name: "Save" }).click();

      // Saved, and back to the selection: its rates page.
      await waitUntilQuoted(frame);
      expect(await frame.getByTestId("quote-order").getAttribute("data-order-name")).toBe(order.name);
      expect((JSON.parse(storedSettings()?.data ?? "{}") as { sender?: { city: string } }).sender?.city).toBe("Brooklyn");
    }));

  it("GIVEN unsaved changes in Settings WHEN the merchant leaves through the admin's navigation THEN the admin asks first: Stay keeps the edits, Leave page drops them, and Discard restores the saved values", () =>
    withPage(e2e.browser.context, async (page) => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(e2e.stack.adminAppUrl("/app/settings"));
      const frame = page.frameLocator("#app-iframe");
      const saveBar = page.getByTestId("save-bar");
      const packagingWeight = frame.getByLabel("Packaging weight", { exact: true });
      await packagingWeight.waitFor();
      const savedWeight = await packagingWeight.inputValue();
      await expect.poll(() => saveBar.isVisible()).toBe(false);

      // An edit shows the save bar over the admin's top bar, outside the app's frame.
      await packagingWeight.fill("7.5");
      await saveBar.getByText("Unsaved changes").waitFor();
      const bar = (await saveBar.boundingBox())!;
      const iframe = (await page.locator("#app-iframe").boundingBox())!;
      expect(bar.y + bar.height).toBeLessThanOrEqual(iframe.y);

      // The admin's sidebar: asked first; Stay keeps the page and the edit.
      await page.locator("nav.sidebar").getByRole("link", { name: "Orders", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Leave page with unsaved changes?" });
      await dialog.waitFor();
      await page.screenshot({ path: join(RESULTS_DIR, "settings-leave-confirmation.png") });
      await dialog.getByRole("button", { name: "Stay" }).click();
      await dialog.waitFor({ state: "detached" });
      expect(new URL(page.url()).pathname).toMatch(/\/app\/settings$/);
      expect(await packagingWeight.inputValue()).toBe("7.5");

      // Discard: the saved values come back and the bar goes.
      await saveBar.getByRole("button", { name: "Discard" }).click();
      await saveBar.waitFor({ state: "hidden" });
      expect(await packagingWeight.inputValue()).toBe(savedWeight);

      // The app's own navigation in the admin: Leave page goes, and nothing was saved.
      await packagingWeight.fill("8.25");
      await saveBar.getByText("Unsaved changes").waitFor();
      await page.locator("#app-nav").getByRole("link", { name: "Batches" }).click();
      await page.getByRole("dialog", { name: "Leave page with unsaved changes?" }).getByRole("button", { name: "Leave page" }).click();
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toMatch(/\/app\/batches$/);
      await saveBar.waitFor({ state: "hidden" });
      await page.goto(e2e.stack.adminAppUrl("/app/settings"));
      await packagingWeight.waitFor();
      expect(await packagingWeight.inputValue()).toBe(savedWeight);

      // A refused save: the error banner is in the app's page, the save bar stays above the frame.
      await packagingWeight.fill("heavy");
      await saveBar.getByRole("button", { name: "Save" }).click();
      const banner = frame.getByText("1 setting needs attention");
      await banner.waitFor();
      expect(await banner.isVisible()).toBe(true);
      expect(await saveBar.isVisible()).toBe(true);
      await page.screenshot({ path: join(RESULTS_DIR, "settings-refused-with-save-bar.png") });
    }));
});
