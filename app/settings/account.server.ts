import type { PrismaClient } from "@prisma/client";
import type { Context } from "../context";
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

export async function loadAccount({ db, shop }: Pick<Context, "db" | "shop">): Promise<AccountSummary | null> {
  const row = await db.shippingAccount.findUnique({ where: { shop } });
  if (!row) return null;
  return { customerId: row.customerId, email: row.email, origin: row.origin === "CREATED" ? "CREATED" : "CONNECTED", connectedAt: row.connectedAt };
}

/**
 * Stores (or replaces) the shop's account with the password sealed under CONSIGN_ENCRYPTION_KEY. An account
 * Consign created comes with its prepay settings, and its opening balance is the recharge billed on creation;
 * of a connected account neither is known until its first booking reports the balance. It is connected at `ctx.now()`.
 */
export async function saveAccount(
  ctx: Pick<Context, "db" | "shop" | "now">,
  credentials: AccountCredentials,
  origin: AccountSummary["origin"],
  options: { key?: Buffer; prepay?: { minimumBalance: string; rechargeAmount: string } } = {},
): Promise<void> {
  const { db, shop } = ctx;
  const now = ctx.now();
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
export async function loadPrepayOnFile({ db, shop }: Pick<Context, "db" | "shop">): Promise<PrepayOnFile> {
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

/** Keeps the balance a booking reported, as of `ctx.now()`: the latest answer is the latest balance. */
export async function recordPrepayBalance(ctx: Pick<Context, "db" | "shop" | "now">, balance: string): Promise<void> {
  await ctx.db.shippingAccount.updateMany({ where: { shop: ctx.shop }, data: { prepayBalance: balance, prepayBalanceAt: ctx.now() } });
}

/** The shop's settings; the defaults until the merchant saves. */
export async function loadSettings({ db, shop }: Pick<Context, "db" | "shop">): Promise<ShippingSettings> {
  const row = await db.shopSettings.findUnique({ where: { shop } });
  if (!row) return DEFAULT_SETTINGS;
  return ShippingSettings.parse(JSON.parse(row.data));
}

export async function saveSettings({ db, shop }: Pick<Context, "db" | "shop">, settings: ShippingSettings): Promise<void> {
  const data = JSON.stringify(ShippingSettings.parse(settings));
  await db.shopSettings.upsert({ where: { shop }, create: { shop, data }, update: { data } });
}
