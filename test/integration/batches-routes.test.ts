import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Shipment } from "@prisma/client";
import { connectedShopOf } from "../support/connected-shop";
import { appRequest, callRoute, formBody, type RouteAnswer, type RouteHandler } from "../support/route-call";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";

// The batches, booking and shipments routes as the embedded app calls them: a session token the local admin
// signed, the real service, a real SQLite file. The routes are adapters; these tests hold them to their
// contract: bad input is a 4xx naming the field, files come with their content type, and redirects go on.
const { service, harness, customer, close } = await startServiceAndAdmin({ orders: 3 });
const { default: prisma } = await import("../../app/db/db.server");
const newBatch = await import("../../app/routes/app.batches.new");
const batchPage = await import("../../app/routes/app.batches.$id/route");
const batchLabels = await import("../../app/routes/app.batches.$id.labels");
const bookPage = await import("../../app/routes/app.orders.$id.book/route");
const shipmentsPage = await import("../../app/routes/app.shipments");
const { bookBatch } = await import("../../app/booking/batch-booking.server");
const { batchWorkSettled } = await import("../../app/booking/batch-work-job");
const { processJobSender, shippingContext } = await import("../factories/context");

const connected = await connectedShopOf({ service, db: prisma, shop: SHOP, credentials: customer });
let shipments: Shipment[];

beforeAll(async () => {
  shipments = await connected.quoted({ count: 4, serviceCode: "BLP_GROUND" });
});
afterAll(close);

async function post(handler: RouteHandler, path: string, fields: Record<string, string | string[]>, params: Record<string, string> = {}): Promise<RouteAnswer> {
  return callRoute(handler, await appRequest(harness.admin, path, formBody(fields)), params);
}

async function get(handler: RouteHandler, path: string, params: Record<string, string> = {}): Promise<RouteAnswer> {
  return callRoute(handler, await appRequest(harness.admin, path), params);
}

describe("/app/batches/new", () => {
  it("GIVEN no orders WHEN posted THEN 400 naming shipmentIds; GIVEN a blank name THEN 400 naming name", async () => {
    expect(await post(newBatch.action, "/app/batches/new", { name: "Monday" })).toMatchObject({
      status: 400,
      body: { ok: false, message: "Choose at least one order", fieldErrors: { shipmentIds: "Choose at least one order" } },
    });
    expect(await post(newBatch.action, "/app/batches/new", { name: "  ", shipmentIds: [shipments[0]!.id] })).toMatchObject({
      status: 400,
      body: {
        ok: false,
        message: "Give the batch a name, for example “Monday pickup”",
        fieldErrors: { name: "Give the batch a name, for example “Monday pickup”" },
      },
    });
  });

  it("GIVEN the rates page's post (orders, no name) THEN those orders come back preselected to be named", async () => {
    const answer = await post(newBatch.action, "/app/batches/new", { shipmentIds: [shipments[0]!.id, shipments[1]!.id], runId: "run-1" });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ kind: "preselected" });
    expect((answer.body as { candidates: Array<{ shipmentId: string }> }).candidates.map((row) => row.shipmentId).sort()).toEqual(
      [shipments[0]!.id, shipments[1]!.id].sort(),
    );
  });

  it("GIVEN the rates page's Create batch (its run, one shipment left out) THEN the run's other ready shipments are read on the server and come back preselected; GIVEN a run with none THEN 400 naming shipmentIds", async () => {
    const run = await prisma.quoteRun.create({
      data: { shop: SHOP, status: "COMPLETED", orderIds: JSON.stringify(shipments.map((shipment) => shipment.orderId)), startedAt: new Date() },
    });
    await prisma.shipment.updateMany({ where: { id: { in: shipments.map((shipment) => shipment.id) } }, data: { runId: run.id } });
    const answer = await post(newBatch.action, "/app/batches/new", { runId: run.id, excludedShipmentIds: [shipments[0]!.id] });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ kind: "preselected" });
    expect((answer.body as { candidates: Array<{ shipmentId: string }> }).candidates.map((row) => row.shipmentId).sort()).toEqual(
      shipments
        .slice(1)
        .map((shipment) => shipment.id)
        .sort(),
    );
    expect(await post(newBatch.action, "/app/batches/new", { runId: "no-such-run" })).toMatchObject({
      status: 400,
      body: { ok: false, fieldErrors: { shipmentIds: "Choose at least one order" } },
    });
  });

  it("GIVEN a name and orders THEN the batch is recorded, its creation queued, and the page goes to it at once; the page shows it being created until its job has created it on the service", async () => {
    const answer = await post(newBatch.action, "/app/batches/new", { name: "Routes", "shipmentIds[]": [shipments[0]!.id, shipments[1]!.id] });
    const batch = await prisma.batch.findFirstOrThrow({ where: { shop: SHOP, name: "Routes" } });
    expect(answer.status).toBe(302);
    expect(new URL(answer.headers.get("location") ?? "", "http://localhost:3000").pathname).toBe(`/app/batches/${batch.id}`);
    const shown = await get(batchPage.loader, `/app/batches/${batch.id}`, { id: batch.id });
    expect(["CREATING", "OPEN"]).toContain((shown.body as { view: { batch: { status: string } } }).view.batch.status);
    await batchWorkSettled({ shop: SHOP, now: () => new Date(), jobs: processJobSender }, batch.id, false);
    const opened = await get(batchPage.loader, `/app/batches/${batch.id}`, { id: batch.id });
    expect(opened.body).toMatchObject({ view: { batch: { status: "OPEN", remoteBatchId: expect.any(Number) } } });
  });
});

describe("/app/batches/:id and its labels", () => {
  it("GIVEN an unknown intent THEN 400 naming it; GIVEN an unknown batch THEN 404", async () => {
    const batch = await prisma.batch.findFirstOrThrow({ where: { shop: SHOP, name: "Routes" } });
    const answer = await post(batchPage.action, `/app/batches/${batch.id}`, { intent: "explode" }, { id: batch.id });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ ok: false, message: expect.stringMatching(/^Intent: /) });
    expect(await get(batchPage.loader, "/app/batches/nope", { id: "nope" })).toMatchObject({
      status: 404,
      body: "There is no batch nope in this shop. It may have been deleted.",
    });
  });

  it("GIVEN an open batch THEN its labels answer 422 in words; GIVEN it booked THEN a PDF with a page per order", async () => {
    const batch = await prisma.batch.findFirstOrThrow({ where: { shop: SHOP, name: "Routes" } });
    expect(await get(batchLabels.loader, `/app/batches/${batch.id}/labels`, { id: batch.id })).toMatchObject({
      status: 422,
      body: "Labels can be printed once the batch is booked.",
    });
    expect(await bookBatch(await shippingContext(prisma, SHOP, service.clock.now()), batch.id)).toMatchObject({ ok: true, booked: 2 });

    const request = await appRequest(harness.admin, `/app/batches/${batch.id}/labels`);
    const response = (await batchLabels.loader({ request, params: { id: batch.id }, context: {} })) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="routes-labels.pdf"');
    expect((await PDFDocument.load(await response.arrayBuffer())).getPageCount()).toBe(2);
  });
});

describe("/app/orders/:id/book", () => {
  it("GIVEN an order id that is not a number THEN 400 saying so", async () => {
    expect(await get(bookPage.loader, "/app/orders/abc/book", { id: "abc" })).toMatchObject({ status: 400, body: expect.stringMatching(/must be a number/) });
  });

  it("GIVEN an insurance amount that is not money THEN 400 with the field's message and nothing booked", async () => {
    const shipment = shipments[2]!;
    const number = shipment.orderId.split("/").pop()!;
    const answer = await post(
      bookPage.action,
      `/app/orders/${number}/book`,
      { shipmentId: shipment.id, quoteId: String(shipment.selectedQuoteId), labelFormat: "PDF", insuranceAmount: "a lot" },
      { id: number },
    );
    expect(answer).toMatchObject({ status: 400, body: { ok: false, fieldErrors: { insuranceAmount: "Insurance: enter an amount like 25.00" } } });
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).bookingStatus).toBe("NONE");
  });
});

describe("/app/shipments", () => {
  it("GIVEN a blank search THEN the page says what to type; GIVEN a booked order's name THEN its booking", async () => {
    expect(await get(shipmentsPage.loader, "/app/shipments?q=%20")).toMatchObject({
      status: 200,
      body: { mode: "search", problem: "Type an order number, a name, a tracking number or a book number" },
    });
    const booked = await prisma.shipment.findFirstOrThrow({ where: { shop: SHOP, bookingStatus: "BOOKED" } });
    const answer = await get(shipmentsPage.loader, `/app/shipments?q=${encodeURIComponent(booked.orderName)}`);
    expect(answer.body).toMatchObject({ mode: "search", problem: null, rows: [{ bookNumber: booked.bookNumber, trackingNumber: booked.trackingNumber }] });
  });

  it("GIVEN no search THEN the tracking dashboard with a count per filter; an unknown filter shows all; a bad intent is a 400 naming it", async () => {
    const fulfilled = await prisma.shipment.count({ where: { shop: SHOP, fulfillmentStatus: "FULFILLED" } });
    const answer = await get(shipmentsPage.loader, "/app/shipments?status=nonsense");
    expect(answer).toMatchObject({ status: 200, body: { mode: "dashboard", filter: "all", running: false } });
    const body = answer.body as { counts: Record<string, number>; rows: unknown[] };
    expect(Object.keys(body.counts).sort()).toEqual(["all", "attention", "delivered", "in_transit", "label_created", "out_for_delivery", "stale"]);
    expect(body.counts.all).toBe(fulfilled);
    expect(body.rows).toHaveLength(Math.min(fulfilled, 100));
    expect(await post(shipmentsPage.action, "/app/shipments", { intent: "refresh-everything" })).toMatchObject({
      status: 400,
      body: { error: "Intent must be check" },
    });
  });
});
