import type { ShippingClientOptions } from "../../shipping-api/client";
import type { Outcome } from "../outcome";
import type { ShopAdmin } from "../shopify/gateway.server";
import { loadAccount, saveAccount, type Db } from "./account.server";
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

export async function loadOnboarding(context: ShopAdmin, db: Db): Promise<OnboardingPage> {
  const [account, profile] = await Promise.all([loadAccount(db, context.shop), loadShopProfile(context)]);
  return {
    account: account && { customerId: account.customerId, email: account.email },
    createAvailable: partnerClient() !== null,
    createDefaults: createFormDefaults(profile),
  };
}

/** The account's customer id, or why nothing was saved. */
export type OnboardingOutcome = Outcome<{ customerId: string }, OnboardingFailure>;

interface OnboardingOptions {
  now?: Date;
  /** Client options (tests shorten retries). */
  client?: Omit<ShippingClientOptions, "baseUrl" | "credentials">;
}

/** Connects an existing account: saved only when List Services answers for these credentials. */
export async function connectAccount(db: Db, shop: string, form: ConnectForm, options: OnboardingOptions = {}): Promise<OnboardingOutcome> {
  const credentials = { customerId: form.customerId, email: form.email, password: form.password };
  const services = await clientForCredentials(credentials, options.client).listServices();
  if (!services.ok) return onboardingRefusal(connectProblem(services.error));
  await saveAccount(db, shop, credentials, "CONNECTED", { now: options.now });
  return { ok: true, customerId: credentials.customerId };
}

/** Creates an account through Create Customer (profile Default, utm.source shopify) and saves it. */
export async function createAccount(db: Db, shop: string, form: CreateForm, options: OnboardingOptions = {}): Promise<OnboardingOutcome> {
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
  await saveAccount(db, shop, { customerId: created.value.customerId, email: form.email, password: form.password }, "CREATED", {
    now: options.now,
    prepay: { minimumBalance: form.minimumBalance, rechargeAmount: form.rechargeAmount },
  });
  return { ok: true, customerId: created.value.customerId };
}

/** The merchant's choice on the onboarding page: connect or create. */
export function completeOnboarding(db: Db, shop: string, form: OnboardingForm, options: OnboardingOptions = {}): Promise<OnboardingOutcome> {
  return form.intent === "connect" ? connectAccount(db, shop, form, options) : createAccount(db, shop, form, options);
}
