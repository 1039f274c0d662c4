import { z } from "zod";
import { describeError, NOT_SENT, type ShippingApiError } from "../../shipping-api/client";
import type { CreateCustomerRequest } from "../../shipping-api/contract";
import { AddressInput, toAddress, type ShopifyAddress, fromShopifyAddress } from "./addresses";
import { fieldErrors, type FieldErrors } from "./field-errors";

/**
 * The onboarding page's two forms (connect an existing Shipping API account, or create one through Create
 * Customer), the Create Customer request built from the second, and the Shipping API's answers in words,
 * each placed next to the field it is about.
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

const UNREACHABLE_KINDS: ReadonlySet<ShippingApiError["kind"]> = new Set(["network", "timeout", "server_error", "rate_limited"]);

function unreachable(error: ShippingApiError): OnboardingProblem {
  return {
    formError: `The Shipping API could not be reached, so nothing was saved. Try again in a few minutes. (${describeError(error)})`,
    fieldErrors: {},
    unavailable: true,
  };
}

/** Why List Services with the merchant's credentials failed, in words. */
export function connectProblem(error: ShippingApiError): OnboardingProblem {
  if (error.kind === "unauthorized") {
    return {
      formError: "The Shipping API did not accept this email and password. Check them and try again; nothing was saved.",
      fieldErrors: { password: "email or password not accepted" },
    };
  }
  if (error.kind === "forbidden" || error.kind === "not_found" || (error.kind === "invalid_request" && error.status === NOT_SENT)) {
    return {
      formError: "This customer id does not belong to the account you signed in with; nothing was saved.",
      fieldErrors: { customerId: "not the customer id of this email's account" },
    };
  }
  if (UNREACHABLE_KINDS.has(error.kind)) return unreachable(error);
  return { formError: `The account could not be checked, so nothing was saved: ${describeError(error)}`, fieldErrors: {} };
}

/** Create Customer's request fields, as the form names them. */
function formField(path: readonly PropertyKey[]): string | null {
  const [head, field] = path;
  if (head === "mailingAddress" || head === "billingAddress" || head === "prepaySettings") return typeof field === "string" ? field : null;
  if (head === "email" || head === "password") return head;
  return null;
}

/** `mailingAddress.zip must not be empty`, `email: Invalid email` → the path and the message. */
const SERVICE_MESSAGE = /^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\d+\])*)(?::\s*|\s+)(.+)$/;

function serviceFieldErrors(message: string): FieldErrors | null {
  const errors: FieldErrors = {};
  for (const part of message.split("; ")) {
    const match = SERVICE_MESSAGE.exec(part.trim());
    const field = match?.[1] ? formField(match[1].split(".")) : null;
    if (!field || !match?.[2]) return null;
    errors[field] ??= match[2];
  }
  return errors;
}

/** Why Create Customer failed, placed on the form's fields where the answer names one. */
export function createProblem(error: ShippingApiError): OnboardingProblem {
  if (error.kind === "conflict") {
    return {
      formError: null,
      fieldErrors: { email: "a Shipping API account with this email already exists: connect it instead, or use another email" },
    };
  }
  if (error.kind === "invalid_request" && error.status === NOT_SENT && error.issues) {
    const errors: FieldErrors = {};
    for (const issue of error.issues) {
      const field = formField(issue.path);
      if (field) errors[field] ??= issue.message;
    }
    if (Object.keys(errors).length > 0) return { formError: null, fieldErrors: errors };
  }
  if (error.kind === "invalid_request" && error.status !== NOT_SENT) {
    const errors = serviceFieldErrors(error.message);
    if (errors) return { formError: null, fieldErrors: errors };
  }
  if (error.kind === "unauthorized" || error.kind === "forbidden") {
    return {
      formError: "The Shipping API refused the app's partner key, so accounts cannot be created right now. Connect an existing account, or ask the app's administrator to check SHIPPING_API_PARTNER_KEY.",
      fieldErrors: {},
    };
  }
  if (UNREACHABLE_KINDS.has(error.kind)) return unreachable(error);
  return { formError: `The account was not created: ${describeError(error)}`, fieldErrors: {} };
}

/** Problems with the submitted form itself, before any call. */
export function formProblem(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): OnboardingProblem {
  return { formError: null, fieldErrors: fieldErrors(issues) };
}
