import type { Prisma, PrismaClient, Shipment } from "@prisma/client";
import { describeError, type ShippingClient } from "../../shipping-api/client";
import { MAX_BATCH_SIZE } from "../../shipping-api/contract";
import { bookedRates } from "../../app/shipping/stored-rates";
import { buildCommercialInvoice, buildDomesticReceiver, buildQuoteShipment, buildUkReceiver } from "./shipping-api";
import { toGid } from "../../devstore/gid";
import type { Store } from "../../devstore/store/store";

/**
 * Booked shipments as the booking step leaves them (bookingStatus BOOKED and fulfillmentStatus PENDING in one
 * row), for the local admin's real fulfillment orders and booked on the real Shipping API service, so that
 * fulfillment write-back has real line items to fulfil and real tracking numbers to send.
 */

export interface FulfillmentOrderToShip {
  orderId: string;
  orderName: string;
  fulfillmentOrderId: string;
  lines: Array<{ fulfillmentOrderLineItemId: string; quantity: number; lineItemId: string }>;
}

/**
 * The store's fulfillment orders a merchant can ship now: open, at one of the merchant's locations, delivered
 * by shipping, with shippable units left; with their remaining units, as quoting takes them.
 */
export function shippableFulfillmentOrders(store: Store, limit = Number.POSITIVE_INFINITY): FulfillmentOrderToShip[] {
  const orderIds = (store.sql("SELECT id FROM orders WHERE cancelled_at IS NULL ORDER BY id").all() as Array<{ id: number }>).map((row) => row.id);
  const found: FulfillmentOrderToShip[] = [];
  for (const orderId of orderIds) {
    const order = store.getOrder(orderId)!;
    for (const fo of store.listFulfillmentOrders(orderId)) {
      if (found.length >= limit) return found;
      const location = store.getLocation(fo.assigned_location_id);
      if (!["OPEN", "IN_PROGRESS"].includes(fo.status) || fo.request_status !== "UNSUBMITTED" || fo.delivery_method_type !== "SHIPPING") continue;
      if (!location || location.is_fulfillment_service === 1) continue;
      const lines = store
        .listFoLineItems(fo.id)
        .filter((line) => line.remaining_quantity > 0 && store.getLineItem(line.line_item_id)?.requires_shipping === 1)
        .map((line) => ({
          fulfillmentOrderLineItemId: toGid("FulfillmentOrderLineItem", line.id),
          quantity: line.remaining_quantity,
          lineItemId: toGid("LineItem", line.line_item_id),
        }));
      if (lines.length === 0) continue;
      found.push({ orderId: toGid("Order", orderId), orderName: order.name, fulfillmentOrderId: toGid("FulfillmentOrder", fo.id), lines });
    }
  }
  return found;
}

/** A domestic service of each of the service's carriers, so write-back sees every carrier. */
const DOMESTIC_SERVICES = [
  { carrierCode: "NPS", serviceCode: "NPS_GROUND_ADVANTAGE", packageTypeCode: "NPS_PACKAGE" },
  { carrierCode: "BLP", serviceCode: "BLP_GROUND", packageTypeCode: "BLP_PACKAGE" },
  { carrierCode: "MRX", serviceCode: "MRX_2DAY", packageTypeCode: "MRX_PACKAGE" },
  { carrierCode: "GPC", serviceCode: "GPC_ECOM_GROUND", packageTypeCode: "GPC_PARCEL" },
] as const;

/** An international service (to the UK), booked with a commercial invoice. */
const INTERNATIONAL_SERVICE = { carrierCode: "BLP", serviceCode: "BLP_WORLDWIDE_EXPEDITED", packageTypeCode: "BLP_PACKAGE" } as const;

/**
 * Books one shipment per fulfillment order on the Shipping API (Book Shipment, carriers in turn) and stores
 * each as a booked Shipment row queued for write-back, with its cost as the booked record states it. Returns the rows in the fulfillment orders' order.
 * The fulfillment orders at the `international` positions ship to London with a commercial invoice.
 */
export async function createBookedShipments(options: {
  db: Pick<PrismaClient, "shipment">;
  shop: string;
  client: ShippingClient;
  fulfillmentOrders: readonly FulfillmentOrderToShip[];
  bookedAt?: Date;
  international?: readonly number[];
}): Promise<Shipment[]> {
  const bookedAt = options.bookedAt ?? new Date();
  const rows: Shipment[] = [];
  for (const [index, fo] of options.fulfillmentOrders.entries()) {
    const abroad = options.international?.includes(index) ?? false;
    const service = abroad ? INTERNATIONAL_SERVICE : DOMESTIC_SERVICES[index % DOMESTIC_SERVICES.length]!;
    const request = buildQuoteShipment({
      shipmentReference: fo.orderName,
      serviceCode: service.serviceCode,
      receiver: abroad ? buildUkReceiver() : buildDomesticReceiver(),
      ...(abroad ? { commercialInvoice: buildCommercialInvoice({ packageMarks: fo.orderName }) } : {}),
    });
    const booked = await options.client.bookShipment({
      body: {
        ...service,
        shipmentDate: request.shipmentDate,
        shipmentReference: fo.orderName,
        shipmentReference2: fo.orderId,
        orderNumber: fo.orderName.replace(/^#/, ""),
        sender: request.sender,
        receiver: request.receiver,
        weightUnit: "lb",
        dimUnit: "in",
        currency: "USD",
        pieces: [{ weight: "2.5", length: "12", width: "9", height: "4", insuranceAmount: null, declaredValue: abroad ? "52.00" : null }],
        ...(abroad ? { commercialInvoice: request.commercialInvoice } : {}),
        approvePrepayRecharge: true,
      },
    });
    if (!booked.ok) throw new Error(`Book Shipment for ${fo.orderName} failed: ${JSON.stringify(booked.error)}`);
    // The answer has no total; the booked record has it, as the app's booking reads it (Search Shipments).
    const found = await options.client.searchShipments({ body: { keyword: booked.value.bookNumber } });
    const record = found.ok ? found.value.shipments.find((entry) => entry.bookNumber === booked.value.bookNumber) : undefined;
    if (!record) throw new Error(`Search Shipments does not find ${booked.value.bookNumber}`);
    rows.push(
      await storeBooked(options, fo, request, bookedAt, {
        bookNumber: booked.value.bookNumber,
        trackingNumber: booked.value.trackingNumber,
        carrierCode: service.carrierCode,
        serviceCode: service.serviceCode,
        shippingCost: record.totalShippingCost,
        currency: record.currency,
        zone: booked.value.zone,
      }),
    );
  }
  return rows;
}

/** What booking a fulfillment order in a batch answered (the columns of the app's booked row). */
export interface BatchBooking {
  fulfillmentOrder: FulfillmentOrderToShip;
  request: ReturnType<typeof buildQuoteShipment>;
  booked: Pick<Shipment, "rates" | "selectedQuoteId" | "bookNumber" | "trackingNumber" | "carrierCode" | "serviceCode" | "shippingCost" | "currency" | "zone">;
}

/**
 * Books each entry's request (one per fulfillment order, each naming its service) in batches of the spec's 500, as the
 * app's batches book: Batch Quote, Create Batch and Batch Book, whose answer carries each label's cost and one combined
 * label PDF per batch. Returns what each booking answered, in the entries' order; throws on anything not booked.
 */
async function bookInBatches(
  client: ShippingClient,
  entries: ReadonlyArray<{ fulfillmentOrder: FulfillmentOrderToShip; request: BatchBooking["request"] }>,
  batchName: (index: number) => string,
): Promise<BatchBooking[]> {
  const bookings: BatchBooking[] = [];
  for (let start = 0; start < entries.length; start += MAX_BATCH_SIZE) {
    const chunk = entries.slice(start, start + MAX_BATCH_SIZE);
    const quoted = await client.batchQuote({ body: { shipments: chunk.map((entry) => entry.request) } });
    if (!quoted.ok) throw new Error(`Batch Quote failed: ${describeError(quoted.error)}`);
    const quotes = quoted.value.results.map((result, index) => {
      const { fulfillmentOrder, request } = chunk[index]!;
      const quote = result.status === "success" ? result.quotes.find((entry) => entry.serviceCode === request.serviceCode) : undefined;
      if (!quote) throw new Error(`Batch Quote has no ${request.serviceCode} rate for ${fulfillmentOrder.orderName}: ${JSON.stringify(result)}`);
      return quote;
    });
    const batch = await client.createBatch({ body: { name: batchName(start / MAX_BATCH_SIZE), quoteIds: quotes.map((quote) => quote.quoteId) } });
    if (!batch.ok) throw new Error(`Create Batch failed: ${describeError(batch.error)}`);
    const booked = await client.batchBook({ body: { batchId: batch.value.batchId } });
    if (!booked.ok) throw new Error(`Batch Book failed: ${describeError(booked.error)}`);
    const results = new Map(booked.value.results.map((result) => [result.quoteId, result]));
    quotes.forEach((quote, index) => {
      const result = results.get(quote.quoteId);
      if (result?.status !== "success") throw new Error(`Batch Book of ${chunk[index]!.fulfillmentOrder.orderName} failed: ${JSON.stringify(result)}`);
      bookings.push({
        ...chunk[index]!,
        booked: {
          // A booked row keeps the rate it was booked at, as the app's booking leaves it.
          rates: bookedRates(quote),
          selectedQuoteId: quote.quoteId,
          bookNumber: result.bookNumber,
          trackingNumber: result.trackingNumber,
          carrierCode: quote.carrierCode,
          serviceCode: quote.serviceCode,
          shippingCost: result.totalShippingCost,
          currency: quote.currency,
          zone: result.zone,
        },
      });
    });
  }
  return bookings;
}

/**
 * Books one domestic shipment per fulfillment order (the carriers' services in turn) in batches of 500
 * ({@link bookInBatches}). Tens of thousands of labels this way cost the service a fraction of one Book Shipment each
 * (a label PDF, its font and its search apiece). Storing the rows is the caller's (a bench inserts them in bulk,
 * with {@link bookedRowColumns}).
 */
export function batchBookShipments(options: { client: ShippingClient; fulfillmentOrders: readonly FulfillmentOrderToShip[] }): Promise<BatchBooking[]> {
  const entries = options.fulfillmentOrders.map((fulfillmentOrder, index) => ({
    fulfillmentOrder,
    request: buildQuoteShipment({
      shipmentReference: fulfillmentOrder.orderName,
      serviceCode: DOMESTIC_SERVICES[index % DOMESTIC_SERVICES.length]!.serviceCode,
      receiver: buildDomesticReceiver(),
    }),
  }));
  return bookInBatches(options.client, entries, (index) => `Bench ${index + 1}`);
}

/** The columns of a booked shipment's row, as {@link createBookedShipments} stores it, for a bulk insert. */
export function bookedRowColumns(shop: string, booking: BatchBooking, bookedAt: Date) {
  return bookedRow(shop, booking.fulfillmentOrder, booking.request, bookedAt, booking.booked);
}

/**
 * One shipment of `boxes` boxes (the postal carrier's Priority Mail, a tracking number per box) booked in a batch
 * on the service (Batch Quote, Create Batch, Batch Book) and stored as the app's batch booking records it: BOOKED
 * with the one number Batch Book answers and every box's number not known yet (`trackingNumbers` null), queued for
 * write-back.
 */
export async function createBatchBookedBoxes(options: {
  db: Pick<PrismaClient, "shipment">;
  shop: string;
  client: ShippingClient;
  fulfillmentOrder: FulfillmentOrderToShip;
  boxes: number;
  bookedAt: Date;
}): Promise<Shipment> {
  const { fulfillmentOrder: fo } = options;
  const box = { weight: "12", length: "12", width: "10", height: "8", insuranceAmount: null, declaredValue: null };
  const request = buildQuoteShipment({
    shipmentReference: fo.orderName,
    serviceCode: "NPS_PRIORITY",
    receiver: buildDomesticReceiver(),
    pieces: Array.from({ length: options.boxes }, () => box),
  });
  const [booking] = await bookInBatches(options.client, [{ fulfillmentOrder: fo, request }], () => `Boxes of ${fo.orderName}`);
  return storeBooked(options, fo, request, options.bookedAt, { ...booking!.booked, trackingNumbers: null });
}

/** The booked shipment row of `fo`, queued for write-back, with what its booking answered. */
function storeBooked(
  options: { db: Pick<PrismaClient, "shipment">; shop: string },
  fo: FulfillmentOrderToShip,
  request: unknown,
  bookedAt: Date,
  booked: BookedColumns,
): Promise<Shipment> {
  return options.db.shipment.create({ data: bookedRow(options.shop, fo, request, bookedAt, booked) });
}

/** What a booking answered, as the booked row stores it. */
type BookedColumns = Pick<
  Prisma.ShipmentUncheckedCreateInput,
  "rates" | "selectedQuoteId" | "bookNumber" | "trackingNumber" | "trackingNumbers" | "carrierCode" | "serviceCode" | "shippingCost" | "currency" | "zone"
>;

/** The columns of `fo`'s booked row, queued for write-back. */
function bookedRow(shop: string, fo: FulfillmentOrderToShip, request: unknown, bookedAt: Date, booked: BookedColumns) {
  return {
    shop,
    orderId: fo.orderId,
    orderName: fo.orderName,
    fulfillmentOrderId: fo.fulfillmentOrderId,
    lines: JSON.stringify(fo.lines.map(({ fulfillmentOrderLineItemId, quantity }) => ({ fulfillmentOrderLineItemId, quantity }))),
    request: JSON.stringify(request),
    quoteStatus: "QUOTED",
    quotedAt: bookedAt,
    bookingStatus: "BOOKED",
    ...booked,
    bookedAt,
    fulfillmentStatus: "PENDING",
  };
}
