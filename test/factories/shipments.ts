import type { PrismaClient, Shipment } from "@prisma/client";
import type { ShippingClient } from "../../shipping-api/client";
import { orderToShipments, type MappingSettings } from "../../app/orders/shipment-mapping";
import type { OrderForShipping } from "../../app/orders/types";
import { saveRateChoices } from "../../app/quoting/quote-store.server";
import { chooseRate } from "../../app/quoting/rate-choice";
import { DEFAULT_SETTINGS, type ShippingSettings } from "../../app/settings/settings";
import { TEST_SENDER } from "../support/account";
import { buildAddress, buildOrder, buildSettings } from "./orders";

/**
 * Shipments as the quoting step leaves them, from real quotes of the real service: orders mapped with the
 * app's mapping, quoted with Batch Quote, the rule's rate chosen and stored with the quoting module's own functions.
 */

/** Mapping settings with the account's real outbound services and the test sender. */
export async function realMapping(client: ShippingClient, now: Date, overrides: Partial<MappingSettings> = {}): Promise<MappingSettings> {
  const services = await client.listServices();
  if (!services.ok) throw new Error(`List Services failed: ${JSON.stringify(services.error)}`);
  return buildSettings({
    sender: TEST_SENDER,
    enabledServices: services.value.services.filter((service) => !service.inbound),
    shipmentDate: now.toISOString().slice(0, 10),
    ...overrides,
  });
}

/** An order to London: international, with HS codes and origins, so it carries a commercial invoice. */
export function buildInternationalOrder(overrides: Partial<OrderForShipping> = {}): OrderForShipping {
  return buildOrder({
    shippingAddress: buildAddress({
      name: "Grace Hopper",
      firstName: "Grace",
      lastName: "Hopper",
      address1: "10 Downing Street",
      city: "London",
      provinceCode: null,
      zip: "SW1A 2AA",
      countryCode: "GB",
      phone: "+44 20 7946 0958",
    }),
    ...overrides,
  });
}

export interface QuotedShipmentsOptions {
  db: PrismaClient;
  shop: string;
  client: ShippingClient;
  mapping: MappingSettings;
  now: Date;
  /** Orders to quote; default `count` domestic orders. */
  orders?: OrderForShipping[];
  count?: number;
  /** Quote one service only (faster and predictable), e.g. BLP_GROUND; default every enabled service. */
  serviceCode?: string;
  /** Ship each in this many boxes like its first (insurance and declared value on the first only, as repacking does). */
  boxes?: number;
  settings?: ShippingSettings;
}

/** Creates quoted Shipment rows (rates stored, the rule's pick selected) and returns them in order. */
export async function quotedShipments(options: QuotedShipmentsOptions): Promise<Shipment[]> {
  const orders = options.orders ?? Array.from({ length: options.count ?? 1 }, () => buildOrder());
  const mapped = orders.flatMap((order) => {
    const result = orderToShipments(order, options.mapping);
    if (!result.ok) throw new Error(`order ${order.name} does not map: ${result.issues.map((issue) => issue.message).join("; ")}`);
    return result.shipments.map((shipment) => ({ order, shipment }));
  });
  const requests = mapped.map(({ shipment }) => {
    const request = options.serviceCode ? { ...shipment.shipment, serviceCode: options.serviceCode } : shipment.shipment;
    const [first] = request.pieces;
    if (!options.boxes || options.boxes <= 1 || !first) return request;
    const others = Array.from({ length: options.boxes - 1 }, () => ({ ...first, insuranceAmount: null, declaredValue: null }));
    return { ...request, pieces: [first, ...others] };
  });
  const created = await options.db.shipment.createManyAndReturn({
    data: mapped.map(({ order, shipment }, index) => ({
      shop: options.shop,
      orderId: order.id,
      orderName: order.name,
      fulfillmentOrderId: shipment.fulfillmentOrderId,
      lines: JSON.stringify(shipment.lines),
      request: JSON.stringify(requests[index]),
      // Distinct times keep "in the order they were added" deterministic.
      createdAt: new Date(options.now.getTime() + index),
    })),
  });
  const rows: Shipment[] = [...created].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const outcomes = await options.client.quoteShipments(requests);
  const settings = options.settings ?? DEFAULT_SETTINGS;
  const chosen = rows.map((row, index) => ({
    shipmentId: row.id,
    choice: chooseRate(outcomes[index]!, settings),
    keepOnFailure: false,
    replace: false,
  }));
  const failed = chosen.find((entry) => !entry.choice.ok);
  if (failed && !failed.choice.ok) throw new Error(`quoting failed: ${failed.choice.message}`);
  await saveRateChoices({ db: options.db, shop: options.shop }, chosen, options.now);
  return options.db.shipment.findMany({ where: { id: { in: rows.map((row) => row.id) } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}
