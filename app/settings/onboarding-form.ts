import { z } from "zod";
import type { CreateCustomerRequest } from "../../shipping-api/contract";
import { AddressInput, addressFieldLabel, toAddress, type ShopifyAddress, fromShopifyAddress } from "./addresses";
import { describeFieldErrors, fieldErrors, type FieldErrors, type FieldNamer } from "../field-errors";
import { PositiveDecimal, type RateRule } from "./settings";

/**
 * The onboarding page's two forms (connect an existing Shipping API account, or create one through Create
 * Customer) and the Create Customer request built from the second. Shared by the page and the server; the
 * Shipping API's answers in words are in onboarding-problems.ts (server side: it needs the client).
 */

const required = (what: string) => z.string().trim().min(1, `enter ${what}`);

/**
 * Which rate Consign preselects for each order, asked at onboarding (issue 23): the rules that need nothing but
 * the rates, each explained, "match the customer's choice" suggested: it keeps what the customer paid for. A
 * preferred carrier needs the account's carriers, so it is chosen later in Settings.
 */
export const ONBOARDING_RULES = [
  {
    kind: "match",
    label: "Match the customer's choice (suggested)",
    helpText:
      "The service nearest in speed to the shipping the customer paid for at checkout: Priority stays Priority, 2nd Day Air stays 2-day. Up to a price you set; above it, the cheapest.",
  },
  {
    kind: "cheapest",
    label: "The cheapest rate",
    helpText: "Always the lowest price, even when the customer paid for faster shipping: an order paid for as Priority may go by ground.",
  },
  {
    kind: "fastest",
    label: "The fastest rate",
    helpText: "The quickest service, by your own delivery times once there are enough, else by the service's name. Usually the dearest.",
  },
] as const;
export type OnboardingRuleKind = (typeof ONBOARDING_RULES)[number]["kind"];
/** What the match rule's price ceiling opens with. */
export const DEFAULT_MATCH_CEILING = "50.00";

const RuleFields = z.object({
  rateRuleKind: z.enum(["match", "cheapest", "fastest"], "choose how Consign picks a rate").default("match"),
  rateRuleMaxAmount: z.string().trim().default(DEFAULT_MATCH_CEILING),
});

/** The rule chosen at onboarding, as Settings keeps it. */
export function onboardingRule(form: z.infer<typeof RuleFields>): RateRule {
  return form.rateRuleKind === "match" ? { kind: "match", maxAmount: form.rateRuleMaxAmount } : { kind: form.rateRuleKind };
}

function checkCeiling(form: z.infer<typeof RuleFields>, ctx: z.RefinementCtx): void {
  if (form.rateRuleKind !== "match") return;
  const ceiling = PositiveDecimal.safeParse(form.rateRuleMaxAmount);
  if (!ceiling.success) ctx.addIssue({ code: "custom", path: ["rateRuleMaxAmount"], message: ceiling.error.issues[0]!.message });
}

export const ConnectForm = z
  .object({
    intent: z.literal("connect"),
    customerId: required("your customer id"),
    email: z.string().trim().pipe(z.email("enter the email you sign in with")),
    password: z.string().min(1, "enter your password"),
  })
  .extend(RuleFields.shape)
  .superRefine(checkCeiling);
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
  .extend(RuleFields.shape)
  .superRefine(checkCeiling)
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
export type CreateFormDefaults = Omit<CreateForm, "intent" | "password" | "passwordConfirmation" | "rateRuleKind" | "rateRuleMaxAmount">;

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

/** The onboarding page's labels for its fields that are not an address's. */
const ONBOARDING_LABELS: Record<string, string> = {
  customerId: "Customer id",
  password: "Password",
  passwordConfirmation: "Repeat the password",
  minimumBalance: "Minimum balance",
  rechargeAmount: "Recharge amount",
  rateRuleKind: "How Consign picks a rate",
  rateRuleMaxAmount: "Price ceiling",
};

/** The onboarding page's names for its fields: the page's labels ("Customer id", "ZIP or postal code"). */
export const onboardingFieldNames: FieldNamer = ([field]) => ({
  label: (typeof field === "string" ? ONBOARDING_LABELS[field] : undefined) ?? addressFieldLabel(field),
});

/** Onboarding refused: each field's problem and the message in words naming the fields by their labels. */
export function onboardingRefusal({ unavailable, ...problem }: OnboardingProblem): { ok: false; message: string } & OnboardingFailure {
  const said = describeFieldErrors(problem.fieldErrors, onboardingFieldNames);
  return {
    ok: false,
    reason: unavailable ? "unavailable" : "refused",
    message: problem.formError ?? `Nothing was saved. ${said.message}.`,
    formError: problem.formError,
    fieldErrors: said.fieldErrors,
  };
}

/** Problems with the submitted form itself, before any call. */
export function formProblem(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): OnboardingProblem {
  return { formError: null, fieldErrors: fieldErrors(issues) };
}
