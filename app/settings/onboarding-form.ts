import { z } from "zod";
import type { CreateCustomerRequest } from "../../shipping-api/contract";
import { AddressInput, toAddress, type ShopifyAddress, fromShopifyAddress } from "./addresses";
import { fieldErrors, listFieldErrors, type FieldErrors } from "./field-errors";

/**
 * The onboarding page's two forms (connect an existing Shipping API account, or create one through Create
 * Customer) and the Create Customer request built from the second. Shared by the page and the server; the
 * Shipping API's answers in words are in onboarding-problems.ts (server side: it needs the client).
 */

const required = (what: string) => z.string().trim().min(1, `enter ${what}`);

export const ConnectForm = z.object({
  intent: z.literal("connect"),
  customerId: required("your customer id"),
  email: z.string().trim().pipe(z.email("enter the email you sign in with")),
  password: z.string().min(1, "enter your password"),
});
export type ConnectForm = z.infer<typeof ConnectForm>;

/** The merchant chooses the password; the profile and the campaign source are the app's. */
export const MIN_PASSWORD_LENGTH = 8;

export const CreateForm = AddressInput.omit({ email: true })
  .extend({
    intent: z.literal("create"),
    email: z.string().trim().pipe(z.email("enter an email address")),
    password: z.string().min(MIN_PASSWORD_LENGTH, `use at least ${MIN_PASSWORD_LENGTH} characters`),
    passwordConfirmation: z.string(),
    minimumBalance: z.string().trim(),
    rechargeAmount: z.string().trim(),
  })
  .superRefine((form, ctx) => {
    if (form.password !== form.passwordConfirmation) {
      ctx.addIssue({ code: "custom", path: ["passwordConfirmation"], message: "does not match the password" });
    }
  });
export type CreateForm = z.infer<typeof CreateForm>;

export const OnboardingForm = z.discriminatedUnion("intent", [ConnectForm, CreateForm]);
export type OnboardingForm = z.infer<typeof OnboardingForm>;

/** Prepay defaults: a balance that covers a day of labels for a small shop, topped up in round amounts. */
export const DEFAULT_PREPAY = { minimumBalance: "50.00", rechargeAmount: "100.00" } as const;

/** What the create form opens with (never a password). */
export type CreateFormDefaults = Omit<CreateForm, "intent" | "password" | "passwordConfirmation">;

/** The shop as Shopify describes it, for prefilling the create form. */
export interface ShopProfile {
  name: string;
  email: string;
  ownerName: string;
  /** The shop's address (Shopify's billing address). */
  address: ShopifyAddress & { company: string | null };
  /** The primary location's address, used when the shop's address is incomplete. */
  primaryLocation: ShopifyAddress | null;
}

export function createFormDefaults(profile: ShopProfile): CreateFormDefaults {
  const useLocation = !profile.address.address1 && profile.primaryLocation !== null;
  const source = useLocation && profile.primaryLocation ? profile.primaryLocation : profile.address;
  const { email: _none, ...address } = fromShopifyAddress(source, {
    name: profile.ownerName,
    company: profile.address.company || profile.name,
    email: "",
  });
  return { ...address, email: profile.email, ...DEFAULT_PREPAY };
}

/** The Create Customer request: one address serves as mailing and billing address. */
export function createCustomerRequest(form: CreateForm): z.input<typeof CreateCustomerRequest> {
  const { email: _none, ...address } = toAddress({ ...form, email: "" });
  const customerAddress = { ...address, zip: address.zip ?? "" };
  return {
    profileCode: "Default",
    email: form.email,
    password: form.password,
    mailingAddress: customerAddress,
    billingAddress: customerAddress,
    prepaySettings: { minimumBalance: form.minimumBalance, rechargeAmount: form.rechargeAmount },
    utm: { source: "shopify" },
  };
}

export interface OnboardingProblem {
  /** Shown above the form; null when every problem belongs to a field. */
  formError: string | null;
  fieldErrors: FieldErrors;
  /** The Shipping API could not be reached: nothing is wrong with the input. */
  unavailable?: true;
}

/**
 * Onboarding refused, nothing saved: the problem as the page shows it, a `message` (the form's problem, else the
 * fields' problems in a row), and the `reason`: "unavailable" when the Shipping API could not be reached.
 */
export interface OnboardingFailure {
  reason: "refused" | "unavailable";
  formError: string | null;
  fieldErrors: FieldErrors;
}

export function onboardingRefusal({ unavailable, ...problem }: OnboardingProblem): { ok: false; message: string } & OnboardingFailure {
  return {
    ok: false,
    reason: unavailable ? "unavailable" : "refused",
    message: problem.formError ?? `Nothing was saved: ${listFieldErrors(problem.fieldErrors)}.`,
    ...problem,
  };
}

/** Problems with the submitted form itself, before any call. */
export function formProblem(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): OnboardingProblem {
  return { formError: null, fieldErrors: fieldErrors(issues) };
}
