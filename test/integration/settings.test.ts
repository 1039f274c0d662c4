import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRequest, callRoute, jsonBody } from "../support/route-call";
import { SHOP } from "../support/devstore-harness";
import { aLocation } from "../factories/locations";
import { startServiceAndAdminWithoutAccount } from "../support/service-and-admin";
import type { TestCustomer } from "../support/service-harness";
import { ratesOf } from "../support/stored-rates";

// The Settings page against the real service (List Services, List Provider Accounts), the real local admin
// (locations through Admin GraphQL) and a real SQLite file, through the route's loader and action.
const { service, harness } = await startServiceAndAdminWithoutAccount({ orders: 1 });
const { default: prisma } = await import("../../app/db/db.server");
const settingsRoute = await import("../../app/routes/app.settings");
const { loadSettings, saveAccount } = await import("../../app/settings/account.server");
const { shippingClientFor } = await import("../../app/shipping/client.server");
const { quotedShipments, realMapping } = await import("../factories/shipments");
const { DEFAULT_SETTINGS } = await import("../../app/settings/settings");
const { settingsFormValues } = await import("../../app/settings/settings-form");
type SettingsPage = Awaited<ReturnType<typeof settingsRoute.loader>>;
type FormValues = SettingsPage["values"];

let serviceRunning = true;
let customer: TestCustomer;
afterAll(async () => {
  if (serviceRunning) await service.close();
  await harness.close();
  await prisma.$disconnect();
});

const openPage = async () => callRoute(settingsRoute.loader, await appRequest(harness.admin, "/app/settings"));
const save = async (body: unknown) => callRoute(settingsRoute.action, await appRequest(harness.admin, "/app/settings", jsonBody(body)));

describe("the Settings page", () => {
  it("GIVEN a shop without a Shipping API account WHEN Settings opens THEN it redirects to onboarding, which comes back here", async () => {
    const answer = await openPage();
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get("location") ?? "", "http://localhost:3000");
    expect(location.pathname).toBe("/app/onboarding");
    expect(location.searchParams.get("returnTo")).toBe("/app/settings");
  });

  describe("with an account", () => {
    let page: SettingsPage;
    beforeAll(async () => {
      customer = await service.createCustomer();
      await saveAccount({ db: prisma, shop: SHOP, now: () => new Date() }, customer, "CONNECTED");
      // A Canadian location: its province code becomes the sender's state.
      harness.admin.store.insertLocation(
        aLocation({
          name: "Toronto Depot",
          address1: "100 King St W",
          city: "Toronto",
          province: "Ontario",
          province_code: "ON",
          zip: "M5X 1A9",
          country: "Canada",
          country_code: "CA",
          phone: "+1 416-555-0123",
        }),
      );
      const answer = await openPage();
      expect(answer.status).toBe(200);
      page = answer.body as SettingsPage;
    });

    it("GIVEN no saved settings WHEN Settings opens THEN the defaults are shown with the shop's primary location as the sender (saved, editable), and no problems", async () => {
      const primary = page.locations.find((location) => location.name === "Brooklyn Warehouse")!;
      expect(page.values).toEqual({ ...settingsFormValues(DEFAULT_SETTINGS), senderLocationId: primary.id, sender: primary.sender });
      expect(await loadSettings({ db: prisma, shop: SHOP })).toMatchObject({
        senderLocationId: primary.id,
        sender: { name: "Brooklyn Warehouse", city: "Brooklyn", state: "NY", zip: "11201", phone: "7185550100" },
      });
      expect(page.returnTo).toBeNull();
      expect(page.account).toEqual({ customerId: customer.customerId, email: customer.email });
      expect(page.problems).toEqual([]);
      expect(page.ratesCurrency).toBeNull();
    });

    it("GIVEN an order quoted WHEN Settings opens THEN the rule's price ceiling is in the currency the account's rates come in", async () => {
      const client = await shippingClientFor(prisma, SHOP);
      const now = new Date();
      const [shipment] = await quotedShipments({ db: prisma, shop: SHOP, client, mapping: await realMapping(client, now), now, serviceCode: "BLP_GROUND" });
      const currency = (await ratesOf(prisma, shipment!.id))[0]!.currency;
      expect(currency).toMatch(/^[A-Z]{3}$/);
      const answer = await openPage();
      expect((answer.body as SettingsPage).ratesCurrency).toBe(currency);
      await prisma.shipment.delete({ where: { id: shipment!.id } });
    });

    it("GIVEN the shop's locations WHEN Settings opens THEN each it ships from is a sender address (province code as state, phone as digits); the fulfillment service's is not", () => {
      expect(page.locations.map((location) => location.name)).toEqual(["Brooklyn Warehouse", "Oakland Studio", "Toronto Depot"]);
      const shop = { company: "Consign Demo Store", email: "owner@consign-demo.example" };
      expect(page.locations[0]).toEqual({
        id: expect.stringMatching(/^gid:\/\/shopify\/Location\/\d+$/),
        name: "Brooklyn Warehouse",
        summary: "55 Water St, Brooklyn NY 11201, US",
        sender: {
          name: "Brooklyn Warehouse",
          ...shop,
          address1: "55 Water St",
          address2: "Floor 3",
          city: "Brooklyn",
          state: "NY",
          zip: "11201",
          country: "US",
          phone: "7185550100",
        },
      });
      expect(page.locations[2]?.sender).toEqual({
        name: "Toronto Depot",
        ...shop,
        address1: "100 King St W",
        address2: "",
        city: "Toronto",
        state: "ON",
        zip: "M5X 1A9",
        country: "CA",
        phone: "4165550123",
      });
    });

    it("GIVEN the account's services WHEN Settings opens THEN return services are marked, country rules are in words, presets, signatures and provider accounts (masked) are offered", () => {
      const catalog = page.catalog!;
      const byCode = new Map(catalog.services.map((entry) => [entry.serviceCode, entry]));
      expect(byCode.get("NPS_PRIORITY")).toMatchObject({ inbound: false, countries: "US only" });
      expect(byCode.get("NPS_GROUND_RETURN")).toMatchObject({ inbound: true, countries: "from US only" });
      expect(byCode.get("MRX_INTERNATIONAL_PRIORITY")?.countries).toBe("all but 5 countries");
      expect(byCode.get("BLP_WORLDWIDE_EXPEDITED")?.countries).toMatch(/^\d+ countries$/);
      expect(catalog.presetPackages.length).toBeGreaterThan(0);
      expect(catalog.signatureOptions.length).toBeGreaterThan(0);
      expect(catalog.providerAccounts).toHaveLength(catalog.carriers.length);
      for (const account of catalog.providerAccounts) expect(account.label).toMatch(/\*{4}/);
    });

    function chosenForm(): FormValues {
      const catalog = page.catalog!;
      const oakland = page.locations.find((location) => location.name === "Oakland Studio")!;
      const preset = catalog.presetPackages[0]!;
      return {
        ...page.values,
        senderLocationId: oakland.id,
        sender: { ...oakland.sender, name: "Oakland shipping desk" },
        returnToSender: false,
        returnAddress: { ...page.locations[0]!.sender, name: "Returns" },
        boxes: [...page.values.boxes, { kind: "preset", name: "Carrier box", carrierCode: preset.carrierCode, packageTypeCode: preset.packageTypeCode }],
        defaultBox: "Carrier box",
        packagingWeight: { value: "3", unit: "oz" },
        quoteAllServices: false,
        enabledServices: [
          { carrierCode: "NPS", serviceCode: "NPS_PRIORITY" },
          { carrierCode: "BLP", serviceCode: "BLP_GROUND" },
        ],
        providerAccountId: catalog.providerAccounts[0]!.id,
        labelFormat: "ZPL",
        notifyCustomer: false,
        rateRule: { kind: "preferred", carrierCode: "BLP", maxAmount: "30.00" },
        signatureOptionCode: catalog.signatureOptions[0]!.code,
        insure: true,
        residential: "commercial",
        termsOfTrade: "DDP",
        senderVatTaxId: "GB123456789",
      };
    }

    it("GIVEN a location, chosen services, a carrier box and every default WHEN saved THEN they are stored as settings and the page reopens with them", async () => {
      const form = chosenForm();
      const answer = await save(form);
      expect(answer).toMatchObject({ status: 200, body: { ok: true } });

      const stored = await loadSettings({ db: prisma, shop: SHOP });
      expect(stored).toMatchObject({
        senderLocationId: form.senderLocationId,
        sender: {
          name: "Oakland shipping desk",
          company: "Consign Demo Store",
          city: "Oakland",
          state: "CA",
          zip: "94612",
          country: "US",
          phone: "5105550144",
        },
        returnAddress: { name: "Returns", city: "Brooklyn", state: "NY" },
        defaultBox: "Carrier box",
        packagingWeight: { value: 3, unit: "oz" },
        enabledServices: form.enabledServices,
        providerAccountId: form.providerAccountId,
        labelFormat: "ZPL",
        notifyCustomer: false,
        rateRule: { kind: "preferred", carrierCode: "BLP", maxAmount: "30.00" },
        insure: true,
        residential: "commercial",
        termsOfTrade: "DDP",
        senderVatTaxId: "GB123456789",
      });
      const reopened = (await openPage()).body as SettingsPage;
      expect(reopened.values).toEqual(form);
    });

    it("GIVEN Settings opened from orders that could not be quoted WHEN saved THEN the merchant goes back to quoting those orders; invalid values stay on the page", async () => {
      const returnTo = "/app/quotes/new?ids%5B%5D=gid%3A%2F%2Fshopify%2FOrder%2F1&ids%5B%5D=gid%3A%2F%2Fshopify%2FOrder%2F2";
      const settingsUrl = `/app/settings?${new URLSearchParams({ returnTo })}`;
      const opened = await callRoute(settingsRoute.loader, await appRequest(harness.admin, settingsUrl));
      expect((opened.body as SettingsPage).returnTo).toBe(
        "/app/quotes/new?ids%5B%5D=gid%3A%2F%2Fshopify%2FOrder%2F1&ids%5B%5D=gid%3A%2F%2Fshopify%2FOrder%2F2",
      );

      const form = chosenForm();
      const refused = await callRoute(
        settingsRoute.action,
        await appRequest(harness.admin, settingsUrl, jsonBody({ ...form, packagingWeight: { value: "-1", unit: "oz" } })),
      );
      expect(refused.status).toBe(400);

      const saved = await callRoute(settingsRoute.action, await appRequest(harness.admin, settingsUrl, jsonBody(form)));
      expect(saved.status).toBe(302);
      expect(saved.headers.get("location")).toBe(returnTo);
      expect((await loadSettings({ db: prisma, shop: SHOP })).senderLocationId).toBe(form.senderLocationId);

      // Anything outside the app is not followed: the save stays on Settings.
      const elsewhere = await callRoute(
        settingsRoute.action,
        await appRequest(harness.admin, "/app/settings?returnTo=https%3A%2F%2Fevil.example%2F", jsonBody(form)),
      );
      expect(elsewhere).toMatchObject({ status: 200, body: { ok: true } });
    });

    it("GIVEN invalid values in several sections WHEN saved THEN 400 names each field, and the stored settings are unchanged", async () => {
      const before = await loadSettings({ db: prisma, shop: SHOP });
      const form = chosenForm();
      const answer = await save({
        ...form,
        sender: { ...form.sender!, state: "California", address1: "" },
        packagingWeight: { value: "-2", unit: "oz" },
        rateRule: { kind: "preferred", carrierCode: "", maxAmount: "30.00" },
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        ok: false,
        message: expect.stringMatching(/^Nothing was saved\. Packaging weight must be a number, 0 or more; .*Correct them and save again\.$/),
        fieldErrors: {
          "sender.state": "Sender address: state or province code must be a two-letter code for US and CA",
          "sender.address1": "Sender address: address must not be empty",
          "packagingWeight.value": "Packaging weight must be a number, 0 or more",
          "rateRule.carrierCode": "Preferred carrier: choose a carrier",
        },
      });
      expect(await loadSettings({ db: prisma, shop: SHOP })).toEqual(before);
    });

    it("GIVEN a return service, an unknown provider account and a package the carrier lacks WHEN saved THEN 400 names each against what the account offers", async () => {
      const form = chosenForm();
      const answer = await save({
        ...form,
        enabledServices: [{ carrierCode: "NPS", serviceCode: "NPS_GROUND_RETURN" }],
        providerAccountId: "PA-NOT-MINE",
        boxes: [form.boxes[0]!, { kind: "preset", name: "Carrier box", carrierCode: "NPS", packageTypeCode: "NO_SUCH_BOX" }],
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        ok: false,
        message: expect.stringMatching(/^Nothing was saved\. Services to quote with: not offered/),
        fieldErrors: {
          enabledServices: expect.stringMatching(/^Services to quote with: not offered for orders by your account: National Postal Service \S/),
          providerAccountId: "Provider account is not one of your account's provider accounts",
          "boxes[1].packageTypeCode": "Box “Carrier box”: carrier package is not one National Postal Service offers (“NO_SUCH_BOX”)",
        },
      });
    });

    it("GIVEN a body that is not JSON WHEN saved THEN 400, not a server error", async () => {
      const request = await appRequest(harness.admin, "/app/settings", { method: "POST", body: "sender=x", headers: { "content-type": "application/json" } });
      const answer = await callRoute(settingsRoute.action, request);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ ok: false, fieldErrors: { "(root)": expect.any(String) } });
    });

    it("GIVEN stored credentials the service no longer accepts WHEN Settings opens THEN the page renders and asks to connect again", async () => {
      await saveAccount({ db: prisma, shop: SHOP, now: () => new Date() }, { ...customer, password: "changed-elsewhere" }, "CONNECTED");
      try {
        const reopened = (await openPage()).body as SettingsPage;
        expect(reopened.catalog).toBeNull();
        expect(reopened.problems).toEqual([
          { kind: "reconnect", message: expect.stringMatching(/no longer accepts the stored credentials.*Connect the account again/) },
        ]);
        expect(reopened.values.senderLocationId).toBe(chosenForm().senderLocationId);
      } finally {
        await saveAccount({ db: prisma, shop: SHOP, now: () => new Date() }, customer, "CONNECTED");
      }
    });

    it("GIVEN the Shipping API is down WHEN Settings opens and saves THEN the page renders with the saved values and a banner, and valid settings still save", async () => {
      await service.close();
      serviceRunning = false;
      const reopened = (await openPage()).body as SettingsPage;
      expect(reopened.catalog).toBeNull();
      expect(reopened.problems).toEqual([
        { kind: "service", message: expect.stringMatching(/could not be loaded: Could not reach the Shipping API.*reload this page in a minute/) },
      ]);
      expect(reopened.locations).toHaveLength(3);
      expect(reopened.values).toEqual(chosenForm());

      const answer = await save({ ...reopened.values, labelFormat: "PDF" });
      expect(answer).toMatchObject({ status: 200, body: { ok: true } });
      expect((await loadSettings({ db: prisma, shop: SHOP })).labelFormat).toBe("PDF");
    });
  });
});
