import Database from "better-sqlite3";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { applySqliteMigrations } from "../../lib/migrations";
import { migrationsBefore } from "../support/migrations-before";
import { temporaryDirectory } from "../support/temporary-directory";

// The migration that gave the old meaning of VOIDED its own reason: a row stored as VOIDED before it was a
// shipment with no book number or fulfillment to follow (NO_LABEL); VOIDED now means a label voided at the provider.
const MIGRATIONS = resolve(import.meta.dirname, "..", "..", "prisma", "migrations");
const MIGRATION = "20261124700000_void_tracking";

it("GIVEN shipments stopped before the migration THEN the ones stored as VOIDED become NO_LABEL, the others keep their reason, and the new columns are empty", () => {
  const { before, from } = migrationsBefore(MIGRATIONS, MIGRATION);
  const file = join(temporaryDirectory("void-migration-"), "app.sqlite");
  expect(applySqliteMigrations(file, before)).not.toContain(MIGRATION);

  const db = new Database(file);
  try {
    const insert = db.prepare(
      `INSERT INTO "Shipment" ("id", "shop", "orderId", "orderName", "fulfillmentOrderId", "lines", "request", "trackingState", "trackingStopReason", "updatedAt")
       VALUES (?, 'shop.myshopify.com', 'gid://shopify/Order/1', '#1001', 'gid://shopify/FulfillmentOrder/1', '[]', '{}', ?, ?, 0)`,
    );
    insert.run("no-label", "STOPPED", "VOIDED");
    insert.run("cancelled", "STOPPED", "FULFILLMENT_CANCELLED");
    insert.run("followed", "ACTIVE", null);
  } finally {
    db.close();
  }

  expect(applySqliteMigrations(file, MIGRATIONS)).toEqual(from);
  const after = new Database(file, { readonly: true });
  try {
    expect(after.prepare(`SELECT "id", "trackingStopReason", "voidCheckedAt", "fulfillmentCancelledAt" FROM "Shipment" ORDER BY "id"`).all()).toEqual([
      { id: "cancelled", trackingStopReason: "FULFILLMENT_CANCELLED", voidCheckedAt: null, fulfillmentCancelledAt: null },
      { id: "followed", trackingStopReason: null, voidCheckedAt: null, fulfillmentCancelledAt: null },
      { id: "no-label", trackingStopReason: "NO_LABEL", voidCheckedAt: null, fulfillmentCancelledAt: null },
    ]);
  } finally {
    after.close();
  }
});
