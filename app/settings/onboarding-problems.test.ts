import { describe, expect, it } from "vitest";
import { NOT_SENT, type ShippingApiError } from "../../shipping-api/client";
import { CreateCustomerRequest } from "../../shipping-api/contract";
import { createCustomerRequest, CreateForm } from "./onboarding-form";
import { connectProblem, createProblem } from "./onboarding-problems";

const form = (overrides: Record<string, string> = {}) =>
  CreateForm.parse({
    intent: "create",
    email: "owner@consign.test",
    password: "a-good-password",
    passwordConfirmation: "a-good-password",
    name: "Dana Rivera",
    company: "Shop",
    address1: "55 Water St",
    address2: "",
    city: "Brooklyn",
    state: "NY",
    zip: "11201",
    country: "US",
    phone: "7185550100",
    minimumBalance: "50.00",
    rechargeAmount: "100.00",
    ...overrides,
  });

describe("the Shipping API's answers in words", () => {
  it.each<[string, ShippingApiError, { formError: RegExp | null; fieldErrors: Record<string, unknown> }]>([
    [
      "401",
      { kind: "unauthorized", status: 401, message: "Invalid credentials" },
      { formError: /did not accept this email and password/, fieldErrors: { password: expect.any(String) } },
    ],
    [
      "403",
      { kind: "forbidden", status: 403, message: "Not your customer" },
      { formError: /customer id does not belong/, fieldErrors: { customerId: expect.any(String) } },
    ],
    ["network", { kind: "network", message: "connect ECONNREFUSED 127.0.0.1:9" }, { formError: /could not be reached.*ECONNREFUSED/, fieldErrors: {} }],
    ["503", { kind: "server_error", status: 503, message: "down" }, { formError: /could not be reached/, fieldErrors: {} }],
    ["other", { kind: "bad_response", status: 200, message: "odd", issues: [] }, { formError: /could not be checked/, fieldErrors: {} }],
  ])("GIVEN List Services fails with %s THEN connecting says why", (_case, error, expected) => {
    const problem = connectProblem(error);
    if (expected.formError) expect(problem.formError).toMatch(expected.formError);
    expect(problem.fieldErrors).toEqual(expected.fieldErrors);
  });

  it("GIVEN Create Customer answers 409 THEN the email field says the account exists and how to go on", () => {
    const problem = createProblem({ kind: "conflict", status: 409, message: "A customer with email x exists", category: "CONFLICT" });
    expect(problem).toEqual({ formError: null, fieldErrors: { email: expect.stringMatching(/already exists: connect it instead/) } });
  });

  it("GIVEN 400s naming fields THEN each message is placed on the form's field", () => {
    const problem = createProblem({
      kind: "invalid_request",
      status: 400,
      category: "INVALID_REQUEST",
      message: 'billingAddress.zip must not be empty; prepaySettings.rechargeAmount must be a decimal from 0.01 to 1000000.00, got "0"',
    });
    expect(problem).toEqual({
      formError: null,
      fieldErrors: { zip: "must not be empty", rechargeAmount: 'must be a decimal from 0.01 to 1000000.00, got "0"' },
    });
  });

  it("GIVEN the client refused the request before sending THEN its issues are placed on the form's fields", () => {
    const request = CreateCustomerRequest.safeParse(createCustomerRequest(form({ state: "New York", minimumBalance: "lots" })));
    const problem = createProblem({
      kind: "invalid_request",
      status: NOT_SENT,
      message: "not sent",
      category: "INVALID_REQUEST",
      issues: request.error?.issues,
    });
    expect(problem.formError).toBeNull();
    expect(problem.fieldErrors).toEqual({ state: "must be a two-letter code for US and CA", minimumBalance: expect.stringMatching(/decimal/) });
  });

  it("GIVEN a 400 the form cannot place THEN it is shown above the form", () => {
    const problem = createProblem({ kind: "invalid_request", status: 400, category: "INVALID_REQUEST", message: "Malformed JSON" });
    expect(problem.formError).toMatch(/not created.*Malformed JSON/);
  });

  it("GIVEN the partner key is refused THEN the merchant is told to connect instead and the operator what to check", () => {
    expect(createProblem({ kind: "unauthorized", status: 401, message: "bad key" }).formError).toMatch(/partner key.*SHIPPING_API_PARTNER_KEY/);
  });
});
