import type { PrismaClient } from "@prisma/client";
import type { PrepayOnFile } from "./prepay";
import { sealSecret } from "../secrets.server";
import { encryptionKey, type AccountCredentials } from "../shipping/client.server";
import { DEFAULT_SETTINGS, ShippingSettings } from "./settings";

/**
 * The shop's Shipping API account and settings, as stored by the app. The password is sealed here and opened
 * only by `shippingClientFor` (app/shipping/client.server.ts).
 */

export type Db = Pick<PrismaClient, "shippingAccount" | "shopSettings">;

export interface AccountSummary {
  customerId: string;
  email: string;
  origin: "CONNECTED" | "CREATED";
  connectedAt: Date;
}

export async function loadAccount(db: Db, shop: string): Promise<AccountSummary | null> {
  const row = await db.shippingAccount.findUnique({ where: { shop } });
  if (!row) return null;
  return { customerId: row.customerId, email: row.email, origin: row.origin === "CREATED" ? "CREATED" : "CONNECTED", connectedAt: row.connectedAt };
}

/**
 * Stores (or replaces) the shop's account with the password sealed under CONSIGN_ENCRYPTION_KEY. An account
 * Consign created comes with its prepay settings, and its opening balance is the recharge billed on creation;
 * of a connected account neither is known until its first booking reports the balance.
 */
export async function saveAccount(
  db: Db,
  shop: string,
  credentials: AccountCredentials,
  origin: AccountSummary["origin"],
  options: { now?: Date; key?: Buffer; prepay?: { minimumBalance: string; rechargeAmount: string } } = {},
): Promise<void> {
  const now = options.now ?? new Date();
  const row = {
    customerId: credentials.customerId,
    email: credentials.email,
    sealedPassword: sealSecret(options.key ?? encryptionKey(), credentials.password, shop),
    origin,
    connectedAt: now,
    prepayBalance: options.prepay?.rechargeAmount ?? null,
    prepayBalanceAt: options.prepay ? now : null,
    prepayMinimum: options.prepay?.minimumBalance ?? null,
    prepayRecharge: options.prepay?.rechargeAmount ?? null,
  };
  await db.shippingAccount.upsert({ where: { shop }, create: { shop, ...row }, update: row });
}

/** What the app knows of the account's prepay balance and settings (see prepay.ts). */
export async function loadPrepayOnFile(db: Db, shop: string): Promise<PrepayOnFile> {
  const row = await db.shippingAccount.findUnique({
    where: { shop },
    select: { prepayBalance: true, prepayBalanceAt: true, prepayMinimum: true, prepayRecharge: true },
  });
  return {
    balance: row?.prepayBalance ?? null,
    reportedAt: row?.prepayBalanceAt?.toISOString() ?? null,
    minimumBalance: row?.prepayMinimum ?? null,
    rechargeAmount: row?.prepayRecharge ?? null,
  };
}

/** Keeps the balance a booking reported: the latest answer is the latest balance. */
export async function recordPrepayBalance(db: Db, shop: string, balance: string, reportedAt: Date): Promise<void> {
  await db.shippingAccount.updateMany({ where: { shop }, data: { prepayBalance: balance, prepayBalanceAt: reportedAt } });
}

/** The shop's settings; the defaults until the merchant saves. */
export async function loadSettings(db: Db, shop: string): Promise<ShippingSettings> {
  const row = await db.shopSettings.findUnique({ where: { shop } });
  if (!row) return DEFAULT_SETTINGS;
  return ShippingSettings.parse(JSON.parse(row.data));
}

export async function saveSettings(db: Db, shop: string, settings: ShippingSettings): Promise<void> {
  const data = JSON.stringify(ShippingSettings.parse(settings));
  await db.shopSettings.upsert({ where: { shop }, create: { shop, data }, update: { data } });
}
