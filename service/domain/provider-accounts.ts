import type { ListProviderAccountsResponse } from "../../shipping-api/contract";
import { invalidRequest } from "../errors";
import { maskAccountField } from "../secrets";
import type { DomainContext } from "./context";

interface AccountRow {
  id: string;
  providerCode: string;
  sealedFields: string;
}

function accountsOf(ctx: DomainContext, customerId: string): AccountRow[] {
  return ctx.store
    .statement(`SELECT id, providerCode, sealedFields FROM ProviderAccount WHERE customerId = ? ORDER BY createdAt, id`)
    .all(customerId) as AccountRow[];
}

/** Every value masked: secrets never leave the service, identifiers only by their last four characters. */
export function listProviderAccounts(ctx: DomainContext, customerId: string): ListProviderAccountsResponse {
  return {
    providerAccounts: accountsOf(ctx, customerId).map((row) => {
      const fields = ctx.secrets.open<Record<string, string>>(row.sealedFields);
      return {
        id: row.id,
        providerCode: row.providerCode,
        accountFields: Object.fromEntries(Object.entries(fields).map(([field, value]) => [field, maskAccountField(field, value)])),
      };
    }),
  };
}

/**
 * The carrier a provider account books with. An id that is not one of this customer's accounts is
 * refused as a bad request (the same answer whether it exists for someone else or not at all).
 */
export function carrierOfProviderAccount(ctx: DomainContext, customerId: string, providerAccountId: string): string {
  const row = ctx.store.statement(`SELECT providerCode FROM ProviderAccount WHERE id = ? AND customerId = ?`).get(providerAccountId, customerId) as
    { providerCode: string } | undefined;
  const carrier = row && ctx.catalog.carriers.find((entry) => entry.providerCode === row.providerCode);
  if (!carrier) throw invalidRequest(`providerAccountId ${providerAccountId} is not one of this customer's provider accounts`);
  return carrier.carrierCode;
}
