import type { Clock } from "./clock";
import type { ServiceStore } from "./db/store";
import { createDomainContext } from "./domain/context";
import { createCustomer, findCustomerByEmail } from "./domain/customers";

/** The local demo customer the app's onboarding connects with (documented in service/README.md). */
export const DEMO_CUSTOMER = {
  email: "demo@consign.local",
  password: "demo-password",
} as const;

const DEMO_ADDRESS = {
  name: "Demo Merchant",
  company: "Consign Demo Store",
  address1: "500 Market St",
  address2: "",
  city: "San Francisco",
  state: "CA",
  zip: "94105",
  country: "US",
  phone: "4155550100",
};

export interface DemoCustomer {
  customerId: string;
  email: string;
  password: string;
  created: boolean;
}

/** Creates the demo customer unless it exists; idempotent, so it can run on every start. */
export async function ensureDemoCustomer(deps: { db: ServiceStore; clock: Clock; secretsKey: string }): Promise<DemoCustomer> {
  const ctx = createDomainContext({ store: deps.db, clock: deps.clock, secretsKey: deps.secretsKey });
  const existing = findCustomerByEmail(ctx, DEMO_CUSTOMER.email);
  if (existing) return { customerId: existing.id, ...DEMO_CUSTOMER, created: false };
  const { customerId } = await createCustomer(ctx, {
    profileCode: "Default",
    email: DEMO_CUSTOMER.email,
    password: DEMO_CUSTOMER.password,
    mailingAddress: DEMO_ADDRESS,
    billingAddress: DEMO_ADDRESS,
    prepaySettings: { minimumBalance: "100.00", rechargeAmount: "500.00" },
    industry: "merchandise",
  });
  return { customerId, ...DEMO_CUSTOMER, created: true };
}
