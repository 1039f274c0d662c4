import { PDFDocument } from "pdf-lib";
import { afterAll, afterEach } from "vitest";
import type { z } from "zod";
import type { BatchQuoteShipment, BookShipmentRequest } from "../../shipping-api/contract";
import { buildDomesticBooking, buildQuoteShipment } from "../factories/shipping-api";
import { type RunningService, START, type TestCustomer, ok, startService } from "../support/service-harness";

/**
 * What the service's endpoint tests (test/integration/service-*.test.ts, one file per endpoint group) share: the
 * real service on a fresh database with two funded customers, and builders of the requests they send.
 */

export type ShipmentIn = z.input<typeof BatchQuoteShipment>;
export type BookIn = z.input<typeof BookShipmentRequest>;

export interface ServiceWithCustomers {
  service: RunningService;
  alice: TestCustomer;
  bob: TestCustomer;
}

/**
 * Starts the service for this test file with Alice and Bob, stops it after the file, and sets its clock back
 * after every test, so tests that move the clock do not leak into others. Call at the file's top level.
 */
export async function startServiceWithCustomers(): Promise<ServiceWithCustomers> {
  const service = await startService();
  afterAll(() => service.close());
  afterEach(() => service.clock.set(START));
  // A large recharge amount keeps the main customers' bookings independent of test order.
  const funded = { prepaySettings: { minimumBalance: "500.00", rechargeAmount: "5000.00" } };
  const [alice, bob] = await Promise.all([service.createCustomer(funded), service.createCustomer(funded)]);
  return { service, alice, bob };
}

export function shipment(overrides: Partial<ShipmentIn> = {}): ShipmentIn {
  return buildQuoteShipment({ serviceCode: "BLP_GROUND", ...overrides });
}

/** Quotes `count` shipments for one service and returns their quote ids. */
export async function quoteIds(customer: TestCustomer, count: number, serviceCode = "BLP_GROUND"): Promise<number[]> {
  const response = ok(
    await customer.client.batchQuote({
      body: { shipments: Array.from({ length: count }, (_, index) => shipment({ serviceCode, shipmentReference: `#Q${index}` })) },
    }),
  );
  return response.results.map((result) => {
    if (result.status !== "success") throw new Error(result.error);
    return result.quotes[0]!.quoteId;
  });
}

export async function openBatch(customer: TestCustomer, count: number, name = "batch"): Promise<{ batchId: number; quoteIds: number[] }> {
  const ids = await quoteIds(customer, count);
  const batch = ok(await customer.client.createBatch({ body: { name, quoteIds: ids } }));
  return { batchId: batch.batchId, quoteIds: ids };
}

/** A domestic booking with the order it ships (shipmentReference2, orderNumber), as the app books one. */
export function domesticBooking(overrides: Partial<BookIn> = {}): BookIn {
  return buildDomesticBooking({ shipmentReference2: "gid://shopify/Order/1042", orderNumber: "1042", ...overrides });
}

export async function pdfPages(base64: string): Promise<number> {
  return (await PDFDocument.load(Buffer.from(base64, "base64"))).getPageCount();
}
