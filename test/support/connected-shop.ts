import type { PrismaClient, Shipment } from "@prisma/client";
import { afterAll } from "vitest";
import type { ShippingClient } from "../../shipping-api/client";
import type { MappingSettings } from "../../app/orders/shipment-mapping";
import type { ShippingSettings } from "../../app/settings/settings";
import type { AccountCredentials } from "../../app/shipping/client.server";
import { quotedShipments, realMapping, type QuotedShipmentsOptions } from "../factories/shipments";
import { PARTNER_KEY, type RunningService } from "./service-harness";
import { connectTestAccount } from "./account";

export interface ConnectedShop {
  /** The Shipping API client signed in as the shop's account. */
  account: ShippingClient;
  /** Mapping settings with the account's real outbound services and the test sender. */
  mapping: MappingSettings;
  /** Quoted shipments of the shop, quoted now by the service's clock (see quotedShipments). */
  quoted(options?: Pick<QuotedShipmentsOptions, "orders" | "count" | "serviceCode" | "boxes" | "settings">): Promise<Shipment[]>;
}

/**
 * A shop past onboarding for integration tests that quote and book against the real service: a funded
 * account stored in the app database at `databaseUrl` with `settings` (connectTestAccount). After the
 * file's tests, the process's job queue stops first (on PostgreSQL its pg-boss workers take the jobs the tests
 * sent, and would otherwise still be running on `db` and the service while they close), then `db` is
 * disconnected and the service stopped.
 */
export async function useConnectedShop(options: {
  service: RunningService;
  db: PrismaClient;
  databaseUrl: string;
  shop: string;
  settings?: Partial<ShippingSettings>;
}): Promise<ConnectedShop> {
  const { service, db, shop } = options;
  afterAll(async () => {
    await (await import("../../app/job-queue.server")).stopProcessJobQueue({ timeoutMs: 5_000 });
    await db.$disconnect();
    await service.close();
  });
  const credentials = await connectTestAccount({
    serviceUrl: service.baseUrl,
    partnerKey: PARTNER_KEY,
    databaseUrl: options.databaseUrl,
    shop,
    settings: options.settings,
  });
  return connectedShopOf({ service, db, shop, credentials });
}

/** The shop whose account `credentials` is already stored (startServiceAndAdmin connects one), as a ConnectedShop. */
export async function connectedShopOf(options: {
  service: RunningService;
  db: PrismaClient;
  shop: string;
  credentials: AccountCredentials;
}): Promise<ConnectedShop> {
  const { service, db, shop } = options;
  const account = service.clientFor(options.credentials);
  const mapping = await realMapping(account, service.clock.now());
  return {
    account,
    mapping,
    quoted: (more = {}) => quotedShipments({ db, shop, client: account, mapping, now: service.clock.now(), ...more }),
  };
}
