import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { appRequest, callRoute, formBody } from "../support/route-call";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdminWithoutAccount } from "../support/service-and-admin";
import { PARTNER_KEY } from "../support/service-harness";

// The real service (Create Customer, List Services), the real local admin (the shop's details through Admin
// GraphQL, session tokens) and a real SQLite file behind the app's onboarding route.
const { service, harness, databaseUrl } = await startServiceAndAdminWithoutAccount({ orders: 3, env: { SHIPPING_API_PARTNER_KEY: PARTNER_KEY } });
const { default: prisma } = await import("../../app/db/db.server");
const onboarding = await import("../../app/routes/app.onboarding");
const { shippingClientFor } = await import("../../app/shipping/client.server");

let serviceRunning = true;
afterAll(async () => {
  if (serviceRunning) await service.close();
  await harness.close();
  await prisma.$disconnect();
});

const submit = async (fields: Record<string, string>, path = "/app/onboarding") =>
  callRoute(onboarding.action, await appRequest(harness.admin, path, formBody(fields)));

interface Problem {
  formError: string | null;
  fieldErrors: Record<string, string>;
}

/** What the create form opens with for the seeded shop. */
const SHOP_DEFAULTS = {
  email: "owner@consign-demo.example",
  name: "Dana Rivera",
  company: "Consign Demo Store",
  address1: "55 Water St",
  address2: "Floor 3",
  city: "Brooklyn",
  state: "NY",
  zip: "11201",
  country: "US",
  phone: "7185550100",
  minimumBalance: "50.00",
  rechargeAmount: "100.00",
};

function createFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    ...SHOP_DEFAULTS,
    intent: "create",
    email: `owner-${Date.now()}-${Math.floor(Math.random() * 1e6)}@consign.test`,
    password: "chosen-by-merchant",
    passwordConfirmation: "chosen-by-merchant",
    phone: "+1 718-555-0100",
    ...overrides,
  };
}

const storedAccount = () => prisma.shippingAccount.findUnique({ where: { shop: SHOP } });

/** Whether `text` is anywhere in the app's database: the SQLite file's bytes, or every PostgreSQL table's rows. */
async function databaseHolds(text: string): Promise<boolean> {
  if (databaseUrl.startsWith("file:")) {
    const file = fileURLToPath(databaseUrl);
    return [file, `${file}-wal`].filter((path) => existsSync(path)).some((part) => readFileSync(part).includes(Buffer.from(text)));
  }
  const tables = await prisma.$queryRaw<{ name: string }[]>`SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = 'public'`;
  for (const { name } of tables) {
    const rows = await prisma.$queryRawUnsafe<{ row: string }[]>(`SELECT t::text AS row FROM "${name}" t`);
    if (rows.some((row) => row.row.includes(text))) return true;
  }
  return false;
}

describe("onboarding: connect an existing account or create one", () => {
  it("GIVEN a shop without an account WHEN the page opens THEN creating is offered, prefilled from the shop through Admin GraphQL", async () => {
    const page = await callRoute(onboarding.loader, await appRequest(harness.admin, "/app/onboarding?returnTo=%2Fapp%2Fquotes%2Fnew%3Fid%3D7"));
    expect(page.status).toBe(200);
    expect(page.body).toEqual({
      account: null,
      createAvailable: true,
      returnTo: "/app/quotes/new?id=7",
      createDefaults: SHOP_DEFAULTS,
    });
  });

  it("GIVEN a wrong password WHEN connecting THEN 400 says the credentials were not accepted, and nothing is saved", async () => {
    const customer = await service.createCustomer();
    const answer = await submit({ intent: "connect", customerId: customer.customerId, email: customer.email, password: "not-the-password" });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      formError: expect.stringMatching(/did not accept this email and password/),
      fieldErrors: { password: expect.any(String) },
    });
    expect(await storedAccount()).toBeNull();
  });

  it("GIVEN another customer's id with valid credentials WHEN connecting THEN the customer id field says so", async () => {
    const [mine, theirs] = [await service.createCustomer(), await service.createCustomer()];
    const answer = await submit({ intent: "connect", customerId: theirs.customerId, email: mine.email, password: mine.password });
    expect(answer.status).toBe(400);
    expect((answer.body as Problem).fieldErrors).toEqual({ customerId: expect.stringMatching(/not the customer id/) });
    expect(await storedAccount()).toBeNull();
  });

  it("GIVEN a form with an invalid email WHEN submitted THEN 400 names the field before any call", async () => {
    const answer = await submit({ intent: "connect", customerId: "C1", email: "not-an-email", password: "x" });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      ok: false,
      reason: "refused",
      message: "Nothing was saved. Email: enter the email you sign in with.",
      formError: null,
      fieldErrors: { email: "Email: enter the email you sign in with" },
    });
  });

  it("GIVEN an email that already has an account WHEN creating THEN the email field says so, and nothing is saved", async () => {
    const existing = await service.createCustomer();
    const answer = await submit(createFields({ email: existing.email.toUpperCase() }));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      ok: false,
      reason: "refused",
      message: expect.stringMatching(/^Nothing was saved\. Email: a Shipping API account with this email already exists: connect it instead/),
      formError: null,
      fieldErrors: { email: expect.stringMatching(/^Email: a Shipping API account .*already exists: connect it instead/) },
    });
    expect(await storedAccount()).toBeNull();
  });

  it.each([
    ["no phone", { phone: "" }, { phone: "Phone must not be empty" }],
    ["a zero recharge amount", { rechargeAmount: "0" }, { rechargeAmount: 'Recharge amount must be a decimal from 0.01 to 1000000.00, got "0"' }],
    [
      "a state name for a US address (refused by the client before sending)",
      { state: "New York" },
      { state: "State or province code must be a two-letter code for US and CA" },
    ],
  ])("GIVEN %s WHEN creating THEN the message is next to its field, and nothing is saved", async (_case, overrides, fieldErrors) => {
    const answer = await submit(createFields(overrides));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      ok: false,
      reason: "refused",
      message: `Nothing was saved. ${Object.values(fieldErrors).join("; ")}.`,
      formError: null,
      fieldErrors,
    });
    expect(await storedAccount()).toBeNull();
  });

  it("GIVEN the create form WHEN submitted THEN Create Customer gets profile Default, the addresses and prepay settings and utm.source shopify, the account is saved sealed, and onboarding returns to the page that asked", async () => {
    const password = "chosen-by-merchant-2";
    const fields = createFields({ password, passwordConfirmation: password });
    const answer = await submit({ ...fields, returnTo: "/app/quotes/new?id=7" });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/app/quotes/new?id=7");

    const row = await storedAccount();
    // Its prepay settings are known, and its opening balance is the recharge billed on creation.
    expect(row).toMatchObject({
      email: fields.email,
      origin: "CREATED",
      prepayBalance: fields.rechargeAmount,
      prepayMinimum: fields.minimumBalance,
      prepayRecharge: fields.rechargeAmount,
    });
    const customer = service.db.statement(`SELECT * FROM Customer WHERE id = ?`).get(row!.customerId) as Record<string, string | number>;
    const address = {
      name: "Dana Rivera",
      company: "Consign Demo Store",
      address1: "55 Water St",
      address2: "Floor 3",
      city: "Brooklyn",
      state: "NY",
      zip: "11201",
      country: "US",
      phone: "7185550100",
    };
    expect(customer).toMatchObject({ email: fields.email, profileCode: "Default", minimumBalanceCents: 5000, rechargeAmountCents: 10000 });
    expect(JSON.parse(String(customer.utm))).toEqual({ source: "shopify" });
    expect(JSON.parse(String(customer.mailingAddress))).toEqual(address);
    expect(JSON.parse(String(customer.billingAddress))).toEqual(address);

    // The password the merchant chose opens the account; it is stored only sealed.
    const services = await (await shippingClientFor(prisma, SHOP)).listServices();
    expect(services.ok).toBe(true);
    expect(JSON.stringify(row)).not.toContain(password);
    expect(row!.sealedPassword).toMatch(/^v1\./);
    expect(await databaseHolds(password)).toBe(false);
  });

  it("GIVEN an existing account's credentials WHEN connecting THEN it replaces the stored one after List Services answered, and the page gets back only its id and email", async () => {
    const customer = await service.createCustomer();
    const answer = await submit({ intent: "connect", customerId: ` ${customer.customerId} `, email: customer.email, password: customer.password });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/app/settings");
    expect(await storedAccount()).toMatchObject({ customerId: customer.customerId, email: customer.email, origin: "CONNECTED" });

    const page = await callRoute(onboarding.loader, await appRequest(harness.admin, "/app/onboarding"));
    expect((page.body as { account: unknown }).account).toEqual({ customerId: customer.customerId, email: customer.email });
    expect(JSON.stringify(page.body)).not.toContain(customer.password);
  });

  it("GIVEN the Shipping API is down WHEN connecting THEN 503 says it could not be reached and the stored account is unchanged", async () => {
    const before = await storedAccount();
    await service.close();
    serviceRunning = false;
    const answer = await submit({ intent: "connect", customerId: "C123", email: "someone@consign.test", password: "whatever-1" });
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      ok: false,
      reason: "unavailable",
      message: expect.stringMatching(/could not be reached, so nothing was saved/),
      formError: expect.stringMatching(/could not be reached, so nothing was saved/),
      fieldErrors: {},
    });
    expect(await storedAccount()).toEqual(before);
  });
});
