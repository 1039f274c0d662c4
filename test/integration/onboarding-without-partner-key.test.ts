import { afterAll, describe, expect, it } from "vitest";
import { useAppEnvironment } from "../support/app-env";
import { appRequest, callRoute, formBody } from "../support/route-call";
import { SHOP, startHarness } from "../support/devstore-harness";

// An installation without SHIPPING_API_PARTNER_KEY: accounts can be connected, not created.
const harness = await startHarness({ orders: 1 });
useAppEnvironment({ LOCAL_ADMIN_URL: harness.url, SHOPIFY_API_KEY: "consign-test-key", SHOPIFY_API_SECRET: "consign-test-secret" });
delete process.env.SHIPPING_API_PARTNER_KEY;
const { default: prisma } = await import("../../app/db/db.server");
const onboarding = await import("../../app/routes/app.onboarding");

afterAll(async () => {
  await harness.close();
  await prisma.$disconnect();
});

describe("onboarding without a partner key", () => {
  it("GIVEN no partner key WHEN the page opens THEN creating an account is marked unavailable", async () => {
    const page = await callRoute(onboarding.loader, await appRequest(harness.admin, "/app/onboarding"));
    expect(page.body).toMatchObject({ account: null, createAvailable: false });
  });

  it("GIVEN no partner key WHEN a create form is posted anyway THEN 400 explains it and suggests connecting, and nothing is saved", async () => {
    const fields = {
      intent: "create",
      email: "owner@consign.test",
      password: "long-enough-1",
      passwordConfirmation: "long-enough-1",
      name: "Dana Rivera",
      company: "Shop",
      address1: "1 Main St",
      address2: "",
      city: "Columbus",
      state: "OH",
      zip: "43215",
      country: "US",
      phone: "6145550100",
      minimumBalance: "50.00",
      rechargeAmount: "100.00",
    };
    const answer = await callRoute(onboarding.action, await appRequest(harness.admin, "/app/onboarding", formBody(fields)));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      ok: false,
      reason: "refused",
      message: expect.stringMatching(/no Shipping API partner key. Connect an existing account instead/),
      formError: expect.stringMatching(/no Shipping API partner key. Connect an existing account instead/),
      fieldErrors: {},
    });
    expect(await prisma.shippingAccount.findUnique({ where: { shop: SHOP } })).toBeNull();
  });
});
