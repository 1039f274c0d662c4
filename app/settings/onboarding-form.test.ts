import { describe, expect, it } from "vitest";
import { CreateCustomerRequest } from "../../shipping-api/contract";
import { createCustomerRequest, createFormDefaults, CreateForm, OnboardingForm, onboardingRule, type ShopProfile } from "./onboarding-form";

const PROFILE: ShopProfile = {
  name: "Consign Demo Store",
  email: "owner@consign-demo.example",
  ownerName: "Dana Rivera",
  address: {
    company: null,
    address1: "55 Water St",
    address2: "Floor 3",
    city: "Brooklyn",
    provinceCode: "NY",
    zip: "11201",
    countryCode: "US",
    phone: "+1 718-555-0100",
  },
  primaryLocation: {
    address1: "2150 Broadway",
    address2: null,
    city: "Oakland",
    provinceCode: "CA",
    zip: "94612",
    countryCode: "US",
    phone: "+1 510-555-0144",
  },
};

const form = (overrides: Record<string, string> = {}) =>
  CreateForm.parse({ intent: "create", ...createFormDefaults(PROFILE), password: "a-good-password", passwordConfirmation: "a-good-password", ...overrides });

describe("the create form", () => {
  it("GIVEN the shop THEN the form opens with its owner, name, email, address (phone as 10 digits) and the prepay defaults", () => {
    expect(createFormDefaults(PROFILE)).toEqual({
      name: "Dana Rivera",
      company: "Consign Demo Store",
      email: "owner@consign-demo.example",
      address1: "55 Water St",
      address2: "Floor 3",
      city: "Brooklyn",
      state: "NY",
      zip: "11201",
      country: "US",
      phone: "7185550100",
      minimumBalance: "50.00",
      rechargeAmount: "100.00",
    });
  });

  it("GIVEN a shop without a street address THEN the primary location's address is used", () => {
    const defaults = createFormDefaults({ ...PROFILE, address: { ...PROFILE.address, address1: null } });
    expect(defaults).toMatchObject({ address1: "2150 Broadway", city: "Oakland", state: "CA", zip: "94612", phone: "5105550144" });
  });

  it("GIVEN the filled form THEN Create Customer gets profile Default, one address as mailing and billing, the prepay settings and utm.source shopify", () => {
    const request = CreateCustomerRequest.parse(createCustomerRequest(form({ minimumBalance: "25", rechargeAmount: "250.00" })));
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
    expect(request).toEqual({
      profileCode: "Default",
      email: "owner@consign-demo.example",
      password: "a-good-password",
      mailingAddress: address,
      billingAddress: address,
      prepaySettings: { minimumBalance: "25", rechargeAmount: "250.00" },
      utm: { source: "shopify" },
    });
  });

  it("GIVEN a short password or a confirmation that differs THEN the form names the field", () => {
    const short = OnboardingForm.safeParse({ ...form(), password: "short", passwordConfirmation: "short" });
    expect(short.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([["password", "use at least 8 characters"]]);
    const differs = OnboardingForm.safeParse({ ...form(), passwordConfirmation: "another-password" });
    expect(differs.error?.issues.map((issue) => issue.path.join("."))).toEqual(["passwordConfirmation"]);
  });
});

describe("the rate rule chosen at onboarding", () => {
  const connect = { intent: "connect", customerId: "C1", email: "ada@example.com", password: "secret" };
  it.each([
    ["nothing chosen", {}, { kind: "match", maxAmount: "50.00" }],
    ["the cheapest", { rateRuleKind: "cheapest" }, { kind: "cheapest" }],
    ["matching up to 30", { rateRuleKind: "match", rateRuleMaxAmount: "30" }, { kind: "match", maxAmount: "30" }],
  ])("GIVEN %s THEN Settings keeps that rule (matching the customer's choice is the suggestion)", (_, typed, rule) => {
    const form = OnboardingForm.parse({ ...connect, ...typed });
    expect(onboardingRule(form)).toEqual(rule);
  });

  it("GIVEN a ceiling that is not a price THEN it is refused on its field", () => {
    const parsed = OnboardingForm.safeParse({ ...connect, rateRuleKind: "match", rateRuleMaxAmount: "lots" });
    expect(parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join("."))).toEqual(["rateRuleMaxAmount"]);
  });
});
