import { randomBytes, randomInt } from "node:crypto";
import type { CreateCustomerRequest } from "../../shipping-api/contract";
import { ServiceError, invalidRequest } from "../errors";
import { openingEntries } from "../../lib/prepay-ledger";
import { parseNonNegativeCents } from "../money";
import { hashPassword } from "../secrets";
import type { DomainContext } from "./context";
import { insertLedgerEntries } from "./ledger-store";

interface CustomerRow {
  id: string;
  passwordHash: string;
}

export function findCustomerByEmail(ctx: DomainContext, email: string): CustomerRow | undefined {
  return ctx.store.statement(`SELECT id, passwordHash FROM Customer WHERE email = ?`).get(email.toLowerCase()) as CustomerRow | undefined;
}

/** Prepay settings above this are typing mistakes, and would leave the safe range of integer cents. */
const MAX_PREPAY_CENTS = 100_000_000;

function amount(value: string, field: string, minimumCents: number): number {
  const cents = parseNonNegativeCents(value);
  if (cents === null || cents < minimumCents || cents > MAX_PREPAY_CENTS) {
    throw invalidRequest(
      `prepaySettings.${field} must be a decimal from ${(minimumCents / 100).toFixed(2)} to ${(MAX_PREPAY_CENTS / 100).toFixed(2)}, got ${JSON.stringify(value)}`,
    );
  }
  return cents;
}

/** Plausible demo credentials for a carrier account (the service talks to no real carrier). */
function demoAccountFields(fields: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    fields.map((field) => [field, field === "accountNumber" ? String(randomInt(100_000_000, 999_999_999)) : randomBytes(12).toString("hex")]),
  );
}

/**
 * Creates a customer: stores the password as scrypt, bills `rechargeAmount` into the prepay balance and
 * seeds one provider account per carrier with its secrets sealed. Email is unique (case-insensitive).
 */
export async function createCustomer(ctx: DomainContext, input: CreateCustomerRequest): Promise<{ customerId: string }> {
  const email = input.email.toLowerCase();
  const minimumBalanceCents = amount(input.prepaySettings.minimumBalance, "minimumBalance", 0);
  // A zero recharge amount could never lift the balance: every booking above it would be refused.
  const rechargeAmountCents = amount(input.prepaySettings.rechargeAmount, "rechargeAmount", 1);
  for (const role of ["mailingAddress", "billingAddress"] as const) {
    const address = input[role];
    for (const field of ["zip", "phone"] as const) {
      if (address[field].trim().length === 0) throw invalidRequest(`${role}.${field} must not be empty`);
    }
  }
  if (findCustomerByEmail(ctx, email)) throw emailTaken(email);
  const passwordHash = await hashPassword(input.password);
  const customerId = `C${randomBytes(6).toString("hex").toUpperCase()}`;
  const now = ctx.clock.now().toISOString();
  ctx.store.transaction(() => {
    // Checked again inside the transaction: the scrypt above yielded, another request may have won.
    if (findCustomerByEmail(ctx, email)) throw emailTaken(email);
    ctx.store
      .statement(
        `INSERT INTO Customer (id, email, passwordHash, profileCode, franchiseId, mailingAddress, billingAddress, minimumBalanceCents,
           rechargeAmountCents, balanceCents, salesRep, industry, utm, monthlyVolume, createdAt)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        customerId,
        email,
        passwordHash,
        input.profileCode,
        input.franchiseId ?? null,
        JSON.stringify(input.mailingAddress),
        JSON.stringify(input.billingAddress),
        minimumBalanceCents,
        rechargeAmountCents,
        0,
        input.salesRep ?? null,
        input.industry ?? null,
        input.utm ? JSON.stringify(input.utm) : null,
        input.monthlyVolume ?? null,
        now,
      );
    insertLedgerEntries(ctx, customerId, openingEntries(rechargeAmountCents), now);
    for (const carrier of ctx.catalog.carriers) {
      ctx.store
        .statement(`INSERT INTO ProviderAccount (id, customerId, providerCode, sealedFields, createdAt) VALUES (?, ?, ?, ?, ?)`)
        .run(
          `PA${randomBytes(6).toString("hex").toUpperCase()}`,
          customerId,
          carrier.providerCode,
          ctx.secrets.seal(demoAccountFields(carrier.providerFields)),
          now,
        );
    }
  });
  return { customerId };
}

function emailTaken(email: string): ServiceError {
  return new ServiceError(409, "CONFLICT", `A customer with email ${email} already exists`);
}
