import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import type { Shipment } from "@prisma/client";
import { useAppEnvironment } from "../support/app-env";
import { useConnectedShop } from "../support/connected-shop";
import { buildInternationalOrder, quotedShipments } from "../factories/shipments";
import { sumAmounts } from "../../app/shipping/money";
import { ok, startService, type RunningService } from "../support/service-harness";
import { ratesOf } from "../support/stored-rates";

// Single booking from an order's page against the real service and a real SQLite database.
const service: RunningService = await startService();
const { databaseUrl } = useAppEnvironment({ SHIPPING_API_URL: service.baseUrl });
const { default: prisma } = await import("../../app/db/db.server");
const { shippingContext } = await import("../factories/context");
const { createBatches } = await import("../../app/booking/creation.server");
const { settleBatchWork } = await import("../../app/booking/batch-work-job");
const { claimBatchBooking } = await import("../../app/booking/batch-booking.server");
const single = await import("../../app/booking/single-booking.server");
const { parseBookingForm } = await import("../../app/booking/book-request");
const { saveSettings, loadSettings } = await import("../../app/settings/account.server");

const SHOP = "single-booking.myshopify.com";
const connected = await useConnectedShop({ service, db: prisma, databaseUrl, shop: SHOP, settings: { labelFormat: "PDF" } });
const { account, mapping } = connected;

const context = () => shippingContext(prisma, SHOP, service.clock.now());
const numeric = (shipment: Shipment) => shipment.orderId.split("/").pop()!;

async function quoted(options: { international?: boolean; serviceCode?: string } = {}): Promise<Shipment> {
  const orders = options.international ? [buildInternationalOrder()] : undefined;
  const [shipment] = await connected.quoted({ orders, count: 1, serviceCode: options.serviceCode });
  return shipment!;
}

/** The booking form as the page posts it. */
function form(shipment: Shipment, quoteId: number, fields: Record<string, string> = {}) {
  const parsed = parseBookingForm(new URLSearchParams({ shipmentId: shipment.id, quoteId: String(quoteId), labelFormat: "PDF", ...fields }));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.fieldErrors));
  return parsed.value;
}

async function quoteOf(shipment: Shipment, serviceCode: string): Promise<number> {
  return (await ratesOf(prisma, shipment.id)).find((quote) => quote.serviceCode === serviceCode)!.quoteId;
}

async function bookedRecord(bookNumber: string) {
  const [record] = ok(await account.searchShipments({ body: { keyword: bookNumber } })).shipments;
  return record!;
}

describe("the order's booking page", () => {
  it("GIVEN a quoted domestic order WHEN its page loads THEN every rate is offered with its signature options, and Saturday delivery only where the service takes it", async () => {
    const shipment = await quoted();
    const view = await single.loadOrderBooking(await context(), numeric(shipment));
    expect(view).toMatchObject({ orderName: shipment.orderName, orderNumber: numeric(shipment) });
    const [line] = view.shipments;
    expect(line).toMatchObject({
      shipmentId: shipment.id,
      international: false,
      bookingStatus: "NONE",
      blocked: null,
      selectedQuoteId: shipment.selectedQuoteId,
      invoice: null,
      defaults: { labelFormat: "PDF" },
    });
    const byService = new Map(line!.rates.map((rate) => [rate.serviceCode, rate]));
    expect(byService.get("BLP_NEXT_DAY_AIR")).toMatchObject({
      saturdayDelivery: true,
      signatureOptions: expect.arrayContaining([expect.objectContaining({ code: expect.any(String) })]),
    });
    expect(byService.get("BLP_GROUND")?.saturdayDelivery).toBe(false);
    const amounts = line!.rates.map((rate) => Number(rate.totalAmount));
    expect([...amounts].sort((a, b) => a - b)).toEqual(amounts);
  });

  it("GIVEN an order never quoted WHEN its page loads THEN it says to get rates first", async () => {
    await expect(single.loadOrderBooking(await context(), "999999")).rejects.toThrow(/no rates for order 999999\. Get rates for it first/);
  });
});

describe("booking one shipment", () => {
  it("GIVEN signature, insurance and Saturday delivery on a next-day service WHEN booked THEN the service has it with those options and the order's references, the shipment is BOOKED with its cost and queued for fulfillment, and its label is one PDF page", async () => {
    const shipment = await quoted();
    const services = ok(await account.listServices()).services;
    const signature = services.find((entry) => entry.serviceCode === "BLP_NEXT_DAY_AIR")!.signatureOptions[0]!.signatureOptionCode;
    const ctx = await context();
    const [nextDay, ground] = [await quoteOf(shipment, "BLP_NEXT_DAY_AIR"), await quoteOf(shipment, "BLP_GROUND")];
    const outcome = await single.bookSingleShipment(
      ctx,
      form(shipment, nextDay, { signatureOptionCode: signature, insuranceAmount: "150.00", saturdayDelivery: "on" }),
    );
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    expect(outcome.label?.format).toBe("PDF");

    const record = await bookedRecord(outcome.bookNumber);
    expect(record).toMatchObject({
      serviceCode: "BLP_NEXT_DAY_AIR",
      signatureOptionCode: signature,
      shipmentReference: shipment.orderName,
      shipperReference2: shipment.id,
      orderIds: [shipment.orderName],
    });
    expect(record.pieces[0]!.insuranceAmount).toBe("150.00");
    const stored = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
    expect(stored).toMatchObject({
      bookingStatus: "BOOKED",
      bookNumber: outcome.bookNumber,
      trackingNumber: outcome.trackingNumber,
      carrierCode: "BLP",
      serviceCode: "BLP_NEXT_DAY_AIR",
      shippingCost: record.totalShippingCost,
      fulfillmentStatus: "PENDING",
      bookedAt: ctx.now(),
      selectedQuoteId: nextDay,
    });
    // Booked, it keeps the rate it was booked at and no other.
    expect((await ratesOf(prisma, shipment.id)).map((quote) => quote.quoteId)).toEqual([nextDay]);

    const label = await single.shipmentLabel(ctx, shipment.id);
    if (!label.ok) throw new Error(label.message);
    expect(label).toMatchObject({ contentType: "application/pdf", filename: `${shipment.orderName.replace("#", "")}-${outcome.trackingNumber}.pdf` });
    expect((await PDFDocument.load(label.body)).getPageCount()).toBe(1);

    // Never twice.
    expect(await single.bookSingleShipment(ctx, form(shipment, ground))).toEqual({
      ok: false,
      reason: "refused",
      message: `Already booked (tracking ${outcome.trackingNumber}).`,
    });
    expect(ok(await account.searchShipments({ body: { keyword: shipment.id } })).shipments).toHaveLength(1);
  });

  it("GIVEN signature and insurance chosen WHEN priced before booking THEN the price is what booking then charges, surcharges named, and the quote on file is left as it was", async () => {
    const shipment = await quoted();
    const services = ok(await account.listServices()).services;
    const signature = services.find((entry) => entry.serviceCode === "BLP_GROUND")!.signatureOptions[0]!.signatureOptionCode;
    const quoteId = await quoteOf(shipment, "BLP_GROUND");
    const quoted_ = (await ratesOf(prisma, shipment.id)).find((quote) => quote.quoteId === quoteId)!;
    const options = { signatureOptionCode: signature, insuranceAmount: "400.00" };
    const ctx = await context();

    const price = await single.priceBookingOptions(ctx, form(shipment, quoteId, options));
    if (!price.ok) throw new Error(JSON.stringify(price));
    expect(price.quotedTotal).toBe(quoted_.totalAmount);
    expect(Number(price.total)).toBeGreaterThan(Number(quoted_.totalAmount));
    expect(price.surcharges.map((surcharge) => surcharge.description)).toEqual(expect.arrayContaining([expect.stringMatching(/^Insurance/)]));
    expect(sumAmounts([price.base, ...price.surcharges.map((surcharge) => surcharge.amount)])).toBe(sumAmounts([price.total]));

    const outcome = await single.bookSingleShipment(ctx, form(shipment, quoteId, options));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).shippingCost).toBe(price.total);
  });

  it("GIVEN a service that is not among the shipment's rates or a foreign shipment WHEN priced THEN it says what to do, with no call", async () => {
    const shipment = await quoted();
    const ctx = await context();
    expect(await single.priceBookingOptions(ctx, form(shipment, 999_999_999, { insuranceAmount: "10.00" }))).toEqual({
      ok: false,
      message: expect.stringMatching(/^That service is not among this order's rates/),
    });
    expect(await single.priceBookingOptions(ctx, { ...form(shipment, await quoteOf(shipment, "BLP_GROUND")), shipmentId: "someone-elses" })).toEqual({
      ok: false,
      message: expect.stringMatching(/Get rates for the order again/),
    });
  });

  it("GIVEN a ZPL label format WHEN booked THEN the label downloads as ZPL text", async () => {
    const shipment = await quoted();
    const ctx = await context();
    const outcome = await single.bookSingleShipment(ctx, form(shipment, await quoteOf(shipment, "BLP_GROUND"), { labelFormat: "ZPL" }));
    expect(outcome.ok).toBe(true);
    const label = await single.shipmentLabel(ctx, shipment.id);
    if (!label.ok) throw new Error(label.message);
    expect(label.contentType).toBe("text/plain; charset=utf-8");
    expect(label.body.toString("latin1")).toMatch(/^\^XA/);
  });

  it("GIVEN an international order WHEN its invoice is edited and booked THEN the service books it with that invoice's declared value, and the return address from Settings", async () => {
    const settings = await loadSettings({ db: prisma, shop: SHOP });
    await saveSettings(
      { db: prisma, shop: SHOP },
      {
        ...settings,
        returnAddress: {
          name: "Returns desk",
          company: "Consign Test Co",
          address1: "1 Return Rd",
          city: "Columbus",
          state: "OH",
          zip: "43215",
          country: "US",
        },
      },
    );
    const shipment = await quoted({ international: true });
    const ctx = await context();
    const view = await single.loadOrderBooking(ctx, numeric(shipment));
    const line = view.shipments[0]!;
    expect(line.international).toBe(true);
    expect(line.returnTo).toBe("Returns desk, Columbus, US");
    expect(line.invoice).toMatchObject({
      termsOfTrade: "DAP",
      packageMarks: shipment.orderName,
      items: [{ description: "Ceramic mug", quantity: 1, unitValue: "18.00", htsNumber: "691200", countryOfOrigin: "PT" }],
    });

    const rate = line.rates.find((entry) => entry.serviceCode === "MRX_INTERNATIONAL_PRIORITY")!;
    const outcome = await single.bookSingleShipment(
      ctx,
      form(shipment, rate.quoteId, {
        termsOfTrade: "DDP",
        "items[0].description": "Stoneware mug, glazed",
        "items[0].quantity": "1",
        "items[0].unitValue": "24.50",
        "items[0].htsNumber": "6912.00",
        "items[0].countryOfOrigin": "PT",
      }),
    );
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    const record = await bookedRecord(outcome.bookNumber);
    expect(record).toMatchObject({ serviceCode: "MRX_INTERNATIONAL_PRIORITY", receiver: { country: "GB" } });
    expect(record.pieces[0]!.declaredValue).toBe("24.50");
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).bookingStatus).toBe("BOOKED");
  });

  it("GIVEN a service that is not among the order's rates WHEN booked THEN nothing is sent and the field is named", async () => {
    const [shipment, other] = [await quoted(), await quoted()];
    const outcome = await single.bookSingleShipment(await context(), form(shipment, other.selectedQuoteId!));
    expect(outcome).toEqual({
      ok: false,
      reason: "refused",
      message: expect.stringMatching(/not among this order's rates/),
      fieldErrors: { quoteId: "Choose one of the listed services." },
    });
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).bookingStatus).toBe("NONE");
    expect(ok(await account.searchShipments({ body: { keyword: shipment.id } })).shipments).toEqual([]);
  });

  it("GIVEN Saturday delivery on a ground service (the page would not offer it) WHEN booked THEN the service's refusal is in words, the shipment is FAILED and can be booked again", async () => {
    const shipment = await quoted();
    const ctx = await context();
    const refused = await single.bookSingleShipment(ctx, form(shipment, await quoteOf(shipment, "BLP_GROUND"), { saturdayDelivery: "on" }));
    expect(refused).toEqual({
      ok: false,
      reason: "refused",
      message: expect.stringMatching(/^The Shipping API refused this shipment \(.*Saturday.*\)\. Change the options/),
    });
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).bookingStatus).toBe("FAILED");
    expect((await single.bookSingleShipment(ctx, form(shipment, await quoteOf(shipment, "BLP_GROUND")))).ok).toBe(true);
  });

  it("GIVEN a shipment in an open batch WHEN booked singly THEN refused: it goes with the batch", async () => {
    const shipment = await quoted({ serviceCode: "BLP_GROUND" });
    const ctx = await context();
    await createBatches(ctx, { name: "Held", shipmentIds: [shipment.id] });
    expect(await single.bookSingleShipment(ctx, form(shipment, shipment.selectedQuoteId!))).toEqual({
      ok: false,
      reason: "refused",
      message: "These items are in batch “Held”. Book them with the batch, or remove them from it to book them here.",
    });
  });

  it("GIVEN a prepay balance below the cost WHEN booked THEN 402 in words; WHEN recharge is allowed THEN it books", async () => {
    const poor = await service.createCustomer({ prepaySettings: { minimumBalance: "0", rechargeAmount: "1.00" } });
    const shop = "poor-single.myshopify.com";
    const { saveAccount } = await import("../../app/settings/account.server");
    await saveAccount({ db: prisma, shop, now: () => new Date() }, poor, "CONNECTED");
    await saveSettings({ db: prisma, shop }, await loadSettings({ db: prisma, shop: SHOP }));
    const ctx = await shippingContext(prisma, shop, service.clock.now());
    const [shipment] = await quotedShipments({ db: prisma, shop, client: poor.client, mapping, now: ctx.now(), count: 1, serviceCode: "BLP_GROUND" });
    const refused = await single.bookSingleShipment(ctx, form(shipment!, shipment!.selectedQuoteId!));
    expect(refused).toEqual({
      ok: false,
      reason: "refused",
      message: expect.stringMatching(
        /^Your prepay balance does not cover this \(.*\)\. Add funds to your Shipping API account, or allow an automatic recharge, and book again\.$/,
      ),
    });
    expect(await single.bookSingleShipment(ctx, form(shipment!, shipment!.selectedQuoteId!, { approvePrepayRecharge: "on" }))).toMatchObject({
      ok: true,
      prepayBalance: expect.any(String),
    });
  });
});

describe("a single booking whose answer was lost", () => {
  it("GIVEN a BOOKING shipment the service booked WHEN the page loads THEN it is found by its reference and recorded, not booked again", async () => {
    const shipment = await quoted();
    const ctx = await context();
    await prisma.shipment.update({ where: { id: shipment.id }, data: { bookingStatus: "BOOKING", updatedAt: ctx.now() } });
    const request = JSON.parse(shipment.request);
    const booked = ok(
      await account.bookShipment({
        body: {
          ...request,
          carrierCode: "BLP",
          serviceCode: "BLP_GROUND",
          packageTypeCode: "BLP_PACKAGE",
          shipmentReference2: shipment.id,
          pieces: request.pieces.map(({ lineItems: _items, ...piece }: Record<string, unknown>) => ({
            length: null,
            width: null,
            height: null,
            insuranceAmount: null,
            declaredValue: null,
            ...piece,
          })),
        },
      }),
    );
    const view = await single.loadOrderBooking(ctx, numeric(shipment));
    expect(view.shipments[0]).toMatchObject({ bookingStatus: "BOOKED", booked: { bookNumber: booked.bookNumber, trackingNumber: booked.trackingNumber } });
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).fulfillmentStatus).toBe("PENDING");
    expect(ok(await account.searchShipments({ body: { keyword: shipment.id } })).shipments).toHaveLength(1);
  });

  it("GIVEN a BOOKING shipment the service never saw WHEN checked at once THEN it waits; WHEN checked after the grace THEN it is released and books once", async () => {
    const shipment = await quoted();
    const ctx = await context();
    await prisma.shipment.update({ where: { id: shipment.id }, data: { bookingStatus: "BOOKING", updatedAt: ctx.now() } });
    expect(await single.bookSingleShipment(ctx, form(shipment, shipment.selectedQuoteId!))).toEqual({
      ok: false,
      reason: "pending",
      message: expect.stringMatching(/not confirmed this booking yet/),
    });
    const later = await shippingContext(prisma, SHOP, new Date(ctx.now().getTime() + single.IN_FLIGHT_GRACE_MS));
    expect((await single.bookSingleShipment(later, form(shipment, shipment.selectedQuoteId!))).ok).toBe(true);
    expect(ok(await account.searchShipments({ body: { keyword: shipment.id } })).shipments).toHaveLength(1);
  });

  it("GIVEN an order whose batch booking lost its answer WHEN the order's page loads, long after THEN it shows the batch booking it (not released as an unconfirmed single booking); once the batch's job has run it shows the booking read back with Get Batch", async () => {
    const shipment = await quoted({ serviceCode: "BLP_GROUND" });
    const ctx = await context();
    const { batches } = await createBatches(ctx, { name: "Lost with the batch", shipmentIds: [shipment.id] });
    const claim = await claimBatchBooking(ctx, batches[0]!.id);
    if (!claim.ok) throw new Error(JSON.stringify(claim));
    const sent = ok(await account.batchBook({ body: { batchId: claim.batch.remoteBatchId! } }));

    const later = await shippingContext(prisma, SHOP, new Date(ctx.now().getTime() + 10 * single.IN_FLIGHT_GRACE_MS));
    // The page only reads: the order stays with its batch's booking.
    expect((await single.loadOrderBooking(later, numeric(shipment))).shipments[0]).toMatchObject({ bookingStatus: "BOOKING" });
    expect((await prisma.batch.findUniqueOrThrow({ where: { id: batches[0]!.id } })).status).toBe("BOOKING");
    await settleBatchWork(later, batches[0]!.id, false);
    const view = await single.loadOrderBooking(later, numeric(shipment));
    const result = sent.results[0]!;
    expect(view.shipments[0]).toMatchObject({ bookingStatus: "BOOKED", booked: { trackingNumber: result.status === "success" ? result.trackingNumber : "" } });
    expect((await prisma.batch.findUniqueOrThrow({ where: { id: batches[0]!.id } })).status).toBe("COMPLETED");
  });
});
