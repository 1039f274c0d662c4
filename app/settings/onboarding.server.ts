import type { ShippingClientOptions } from "../../shipping-api/client";
import type { Context } from "../context";
import type { Outcome } from "../outcome";
import { loadAccount, loadSettings, saveAccount, saveSettings } from "./account.server";
import { clientForCredentials, partnerClient } from "../shipping/client.server";
import {
  createCustomerRequest,
  createFormDefaults,
  type ConnectForm,
  type CreateForm,
  type CreateFormDefaults,
  type OnboardingForm,
  type OnboardingFailure,
  onboardingRefusal,
  onboardingRule,
} from "./onboarding-form";
import { connectProblem, createProblem } from "./onboarding-problems";
import { loadShopProfile } from "./shop-profile.server";

/**
 * Onboarding: the shop gets a Shipping API account, either an existing one (verified with List Services
 * before anything is saved) or a new one through Create Customer. The password is sealed on save and never
 * leaves the server again: what the page gets back is the customer id and email.
 */

export interface OnboardingPage {
  account: { customerId: string; email: string } | null;
  /** False when the app has no partner key: accounts can only be connected. */
  createAvailable: boolean;
  createDefaults: CreateFormDefaults;
}

export async function loadOnboarding(ctx: Pick<Context, "db" | "shop" | "shopify">): Promise<OnboardingPage> {
  const [account, profile] = await Promise.all([loadAccount(ctx), loadShopProfile(ctx)]);
  return {
    account: account && { customerId: account.customerId, email: account.email },
    createAvailable: partnerClient() !== null,
    createDefaults: createFormDefaults(profile),
  };
}

/** The account's customer id, or why nothing was saved. */
export type OnboardingOutcome = Outcome<{ customerId: string }, OnboardingFailure>;

/** The account being verified is not saved yet, so its client is not the context's: these are its options (tests shorten retries). */
interface OnboardingOptions {
  client?: Omit<ShippingClientOptions, "baseUrl" | "credentials">;
}

/** The context onboarding saves the account in: the shop's database, connected at `now()`. */
type OnboardingContext = Pick<Context, "db" | "shop" | "now">;

/** Connects an existing account: saved only when List Services answers for these credentials. */
export async function connectAccount(ctx: OnboardingContext, form: ConnectForm, options: OnboardingOptions = {}): Promise<OnboardingOutcome> {
  const credentials = { customerId: form.customerId, email: form.email, password: form.password };
  const services = await clientForCredentials(credentials, options.client).listServices();
  if (!services.ok) return onboardingRefusal(connectProblem(services.error));
  await saveAccount(ctx, credentials, "CONNECTED");
  return { ok: true, customerId: credentials.customerId };
}

/** Creates an account through Create Customer (profile Default, utm.source shopify) and saves it. */
export async function createAccount(ctx: OnboardingContext, form: CreateForm, options: OnboardingOptions = {}): Promise<OnboardingOutcome> {
  const partner = partnerClient(options.client);
  if (!partner) {
    return onboardingRefusal({
      formError: "Creating an account is not available here: the app has no Shipping API partner key. Connect an existing account instead.",
      fieldErrors: {},
    });
  }
  // Create Customer is never retried by the client: a lost answer must not open a second account.
  const created = await partner.createCustomer({ body: createCustomerRequest(form) });
  if (!created.ok) return onboardingRefusal(createProblem(created.error));
  await saveAccount(ctx, { customerId: created.value.customerId, email: form.email, password: form.password }, "CREATED", {
    prepay: { minimumBalance: form.minimumBalance, rechargeAmount: form.rechargeAmount },
  });
  return { ok: true, customerId: created.value.customerId };
}

/** The merchant's choice on the onboarding page: connect or create; with the account, the rate rule they chose. */
export async function completeOnboarding(ctx: OnboardingContext, form: OnboardingForm, options: OnboardingOptions = {}): Promise<OnboardingOutcome> {
  const outcome = form.intent === "connect" ? await connectAccount(ctx, form, options) : await createAccount(ctx, form, options);
  if (outcome.ok) await saveSettings(ctx, { ...(await loadSettings(ctx)), rateRule: onboardingRule(form) });
  return outcome;
}
