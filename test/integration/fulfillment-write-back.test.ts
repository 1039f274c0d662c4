import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextOf } from "../factories/context";
import { parseGid, toGid } from "../../devstore/gid";
import { appRequest, callRoute, formBody } from "../support/route-call";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { syncOrderMirror } from "../support/mirror-sync";
import { observeAdmin } from "../support/observed-admin";
import { createBookedShipments, shippableFulfillmentOrders, type FulfillmentOrderToShip } from "../factories/booked-shipments";
import { SHOP } from "../support/devstore-harness";
import { countryName } from "../../app/locale/places";
import { formatDateTime } from "../../app/locale/shop-time";
import { parseServiceTimestamp } from "../../app/shipping/context.server";

// The whole write-back on real parts: the Shipping API service (bookings, carrier names, tracking), the local
// admin on the real Admin schema over HTTP at its default throttle, @shopify/shopify-app-remix's
// unauthenticated.admin with an offline session in SQLite, and the app's own database.
const { service, harness, customer } = await startServiceAndAdmin({
  orders: 80,
  env: { SHOPIFY_APP_URL: "https://consign.example" },
  settings: { notifyCustomer: true },
  scope: "read_orders,write_fulfillments",
});
const { default: prisma } = await import("../../app/db/db.server");
const writeBack = await import("../../app/fulfillment/write-back.server");
const { writeBackProgress } = await import("../../app/fulfillment/write-back-progress.server");
const { processServices } = await import("../../app/context.server");
const { loader: trackingPage } = await import("../../app/routes/tracking.$token");
const fulfillmentsPage = await import("../../app/routes/app.fulfillments");
const booking = service.clientFor(customer);

const store = harness.admin.store;
const available = shippableFulfillmentOrders(store);
let nextFulfillmentOrder = 0;
/** Fulfillment orders no other test has used, with at least `minLines` lines. */
function takeFulfillmentOrders(count: number, minLines = 1): FulfillmentOrderToShip[] {
  const taken: FulfillmentOrderToShip[] = [];
  while (taken.length < count) {
    const fo = available[nextFulfillmentOrder++];
    if (!fo) throw new Error("the seeded store has no more shippable fulfillment orders");
    if (fo.lines.length >= minLines) taken.push(fo);
  }
  return taken;
}

async function book(fulfillmentOrders: FulfillmentOrderToShip[]) {
  return createBookedShipments({ db: prisma, shop: SHOP, client: booking, fulfillmentOrders });
}

function numericId(gid: string): number {
  const parsed = parseGid(gid);
  if (!parsed) throw new Error(`not a gid: ${gid}`);
  return parsed.id;
}

/** Fulfillments of the local admin's order that carry this tracking number (cancelled ones too). */
function fulfillmentsWithTracking(orderId: string, trackingNumber: string) {
  return store.listFulfillments(numericId(orderId)).filter((f) => store.listTrackingInfo(f.id).some((t) => t.number === trackingNumber));
}

async function gql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const result = await harness.gql<T>(query, variables);
  if (!result.body.data) throw new Error(JSON.stringify(result.body.errors));
  return result.body.data;
}

async function shipmentRow(id: string) {
  return prisma.shipment.findUniqueOrThrow({ where: { id } });
}

/** The shop's real admin client, noting the name of every Admin operation it sends. */
async function observedAdmin() {
  const { unauthenticated } = await import("../../app/shopify.server");
  const { admin, seen } = observeAdmin((await unauthenticated.admin(SHOP)).admin);
  return { context: { admin, shop: SHOP }, operations: seen.operations };
}

beforeAll(async () => {
  // As in the app, the orders were read into the mirror before they were quoted and booked. The local admin's
  // webhooks go nowhere here, so the mirror goes stale whenever a test changes an order in Shopify.
  const { context } = await observedAdmin();
  await syncOrderMirror(context, prisma);
});
afterAll(async () => {
  await harness.close();
  await service.close();
});

describe("fulfillment write-back against the local admin", () => {
  it("GIVEN booked shipments for four carriers WHEN written back THEN each order has one fulfillment with its lines, tracking and notify flag", async () => {
    const fulfillmentOrders = takeFulfillmentOrders(4);
    const shipments = await book(fulfillmentOrders);

    await writeBack.startWriteBack(processServices.context(SHOP));

    for (const [index, shipment] of shipments.entries()) {
      const row = await shipmentRow(shipment.id);
      expect(row).toMatchObject({ fulfillmentStatus: "FULFILLED", fulfillmentError: null });
      expect(row.fulfilledAt).toBeInstanceOf(Date);
      const [fulfillment, ...more] = fulfillmentsWithTracking(shipment.orderId, shipment.trackingNumber!);
      expect(more).toEqual([]);
      expect(toGid("Fulfillment", fulfillment!.id)).toBe(row.fulfillmentId);
      expect(fulfillment!.notify_customer).toBe(1);

      // The lines and quantities the shipment holds, from its fulfillment order, nothing else.
      const fulfilled = store.listFulfillmentLineItems(fulfillment!.id).map((line) => ({
        fulfillmentOrderLineItemId: toGid("FulfillmentOrderLineItem", line.fulfillment_order_line_item_id),
        quantity: line.quantity,
      }));
      expect(fulfilled).toEqual(fulfillmentOrders[index]!.lines.map(({ fulfillmentOrderLineItemId, quantity }) => ({ fulfillmentOrderLineItemId, quantity })));

      // Our carriers are not Shopify's: their label is the company and the link is the app's tracking page.
      const [tracking] = store.listTrackingInfo(fulfillment!.id);
      const label = { NPS: "National Postal Service", BLP: "Brownline Parcel", MRX: "Meridian Express", GPC: "Globe Parcel Consolidators" }[
        shipment.carrierCode!
      ];
      expect(tracking).toMatchObject({ company: label, number: shipment.trackingNumber });
      expect(tracking!.url).toMatch(new RegExp(`^https://consign\\.example/tracking/${shipment.id}\\.[A-Za-z0-9_-]{22}$`));
    }
    expect(await writeBackProgress(processServices.context(SHOP))).toMatchObject({ remaining: 0, running: false });
  });

  it("GIVEN a fulfillment's tracking link WHEN opened THEN the public page shows the parcel's events from Track Shipment", async () => {
    const [shipment] = await book(takeFulfillmentOrders(1));
    await writeBack.startWriteBack(processServices.context(SHOP));
    const [fulfillment] = fulfillmentsWithTracking(shipment!.orderId, shipment!.trackingNumber!);
    const url = new URL(store.listTrackingInfo(fulfillment!.id)[0]!.url!);
    const token = decodeURIComponent(url.pathname.split("/").pop()!);

    const response = await trackingPage({ request: new Request(url), params: { token }, context: {} });
    expect(response.status).toBe(200);
    const page = await response.json();
    const events = await booking.trackShipment({ bookNumber: shipment!.bookNumber! });
    expect(events.ok).toBe(true);
    const carrier = { NPS: "National Postal Service", BLP: "Brownline Parcel", MRX: "Meridian Express", GPC: "Globe Parcel Consolidators" }[
      shipment!.carrierCode!
    ];
    expect(page).toEqual({
      kind: "found",
      orderName: shipment!.orderName,
      trackingNumber: shipment!.trackingNumber,
      carrier,
      events: events.ok
        ? events.value.map(({ event, eventStatus, eventTime, serviceAreaCountry }) => ({
            event,
            eventStatus,
            // In the shop's kept zone (none kept here: UTC) and the one format, not the service's "2026-11-27 09:10:00".
            at: formatDateTime(parseServiceTimestamp(eventTime), "UTC"),
            // The place in words: the country by name, no state or country code left ("MEMPHIS, Tennessee, United States").
            place: expect.stringMatching(new RegExp(`(^|, )${countryName(serviceAreaCountry)}$`)),
          }))
        : [],
    });
    expect((page as { events: Array<{ place: string }> }).events.map((event) => event.place).join("; ")).not.toMatch(/\b[A-Z]{2}(,|;|$)/);
    for (const { at } of (page as { events: Array<{ at: string }> }).events) expect(at).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/);

    const forged = await trackingPage({ request: new Request(url), params: { token: `${shipment!.id}.AAAAAAAAAAAAAAAAAAAAAA` }, context: {} });
    expect(forged.status).toBe(404);
  });

  it("GIVEN the worker runs again, and a fulfillment created but not recorded THEN nothing is created twice", async () => {
    const [first, second] = await book(takeFulfillmentOrders(2));
    await writeBack.startWriteBack(processServices.context(SHOP));
    const fulfillmentId = (await shipmentRow(first!.id)).fulfillmentId;
    const created = store.countRows("fulfillments");

    // Running again with nothing queued changes nothing.
    await writeBack.startWriteBack(processServices.context(SHOP));
    expect(store.countRows("fulfillments")).toBe(created);

    // As if the process died between fulfillmentCreate and recording its answer.
    await prisma.shipment.update({ where: { id: first!.id }, data: { fulfillmentStatus: "CREATING", fulfillmentId: null, fulfilledAt: null } });
    await prisma.shipment.update({ where: { id: second!.id }, data: { fulfillmentStatus: "PENDING", fulfillmentId: null, fulfilledAt: null } });
    await writeBack.resumeWriteBack(processServices);

    expect(store.countRows("fulfillments")).toBe(created);
    expect(await shipmentRow(first!.id)).toMatchObject({ fulfillmentStatus: "FULFILLED", fulfillmentId });
    expect(fulfillmentsWithTracking(second!.orderId, second!.trackingNumber!)).toHaveLength(1);
  });

  it("GIVEN the fulfillment order went on hold after booking WHEN written back THEN it fails saying so, and Retry after the release fulfils it", async () => {
    const [shipment] = await book(takeFulfillmentOrders(1));
    const hold = await gql<{ fulfillmentOrderHold: { fulfillmentHold: { id: string } | null; userErrors: unknown[] } }>(
      `mutation($id: ID!) { fulfillmentOrderHold(id: $id, fulfillmentHold: { reason: INCORRECT_ADDRESS, reasonNotes: "Customer is checking the zip" }) { fulfillmentHold { id } userErrors { message } } }`,
      { id: shipment!.fulfillmentOrderId },
    );
    expect(hold.fulfillmentOrderHold.userErrors).toEqual([]);

    await writeBack.startWriteBack(processServices.context(SHOP));
    const failed = await shipmentRow(shipment!.id);
    expect(failed.fulfillmentStatus).toBe("FAILED");
    expect(failed.fulfillmentError).toBe(
      `${shipment!.orderName} is on hold in Shopify (incorrect address: “Customer is checking the zip”), so the fulfillment with tracking ${shipment!.trackingNumber} was not created. Release the hold in Shopify, then choose Retry.`,
    );
    expect(fulfillmentsWithTracking(shipment!.orderId, shipment!.trackingNumber!)).toEqual([]);
    const progress = await writeBackProgress(processServices.context(SHOP));
    expect(progress.items[0]).toMatchObject({ shipmentId: shipment!.id, status: "FAILED", message: failed.fulfillmentError });

    await gql(`mutation($id: ID!, $holdIds: [ID!]) { fulfillmentOrderReleaseHold(id: $id, holdIds: $holdIds) { userErrors { message } } }`, {
      id: shipment!.fulfillmentOrderId,
      holdIds: [hold.fulfillmentOrderHold.fulfillmentHold!.id],
    });
    expect(await writeBack.retryWriteBack(processServices.context(SHOP), [shipment!.id])).toEqual({ queued: 1 });
    await writeBack.startWriteBack(processServices.context(SHOP));
    expect(await shipmentRow(shipment!.id)).toMatchObject({ fulfillmentStatus: "FULFILLED", fulfillmentError: null });
    expect(fulfillmentsWithTracking(shipment!.orderId, shipment!.trackingNumber!)).toHaveLength(1);
  });

  it("GIVEN the shipment's units were moved to another location (a new fulfillment order) THEN the fulfillment follows them there", async () => {
    const [fo] = takeFulfillmentOrders(1, 2);
    // The shipment holds the first line only; that line moves, the rest stays behind.
    const shipmentOnly = { ...fo!, lines: [fo!.lines[0]!] };
    const [shipment] = await book([shipmentOnly]);
    const oakland = store.listLocations().find((location) => location.name === "Oakland Studio" && location.is_fulfillment_service === 0);
    const currentLocation = store.getFulfillmentOrder(numericId(fo!.fulfillmentOrderId))!.assigned_location_id;
    const destination =
      oakland && oakland.id !== currentLocation ? oakland : store.listLocations().find((l) => l.id !== currentLocation && l.is_fulfillment_service === 0)!;
    const moved = await gql<{ fulfillmentOrderMove: { movedFulfillmentOrder: { id: string } | null; userErrors: unknown[] } }>(
      `mutation($id: ID!, $to: ID!, $items: [FulfillmentOrderLineItemInput!]) {
        fulfillmentOrderMove(id: $id, newLocationId: $to, fulfillmentOrderLineItems: $items) { movedFulfillmentOrder { id } userErrors { message } }
      }`,
      {
        id: fo!.fulfillmentOrderId,
        to: toGid("Location", destination.id),
        items: [{ id: fo!.lines[0]!.fulfillmentOrderLineItemId, quantity: fo!.lines[0]!.quantity }],
      },
    );
    const movedId = moved.fulfillmentOrderMove.movedFulfillmentOrder!.id;
    expect(movedId).not.toBe(fo!.fulfillmentOrderId);

    await writeBack.startWriteBack(processServices.context(SHOP));
    const row = await shipmentRow(shipment!.id);
    expect(row).toMatchObject({ fulfillmentStatus: "FULFILLED", fulfillmentOrderId: movedId });
    const [fulfillment] = fulfillmentsWithTracking(shipment!.orderId, shipment!.trackingNumber!);
    const lines = store.listFulfillmentLineItems(fulfillment!.id);
    expect(
      lines.map((line) => ({
        fo: toGid("FulfillmentOrder", line.fulfillment_order_id),
        lineItem: toGid("LineItem", line.line_item_id),
        quantity: line.quantity,
      })),
    ).toEqual([{ fo: movedId, lineItem: fo!.lines[0]!.lineItemId, quantity: fo!.lines[0]!.quantity }]);
    // What stayed behind is untouched.
    const left = store.listFoLineItems(numericId(fo!.fulfillmentOrderId)).find((line) => toGid("LineItem", line.line_item_id) === fo!.lines[1]!.lineItemId);
    expect(left?.remaining_quantity).toBe(fo!.lines[1]!.quantity);
  });

  it("GIVEN half of the shipment's units moved elsewhere THEN nothing is created and the message says to fulfil by hand", async () => {
    const [fo] = takeFulfillmentOrders(1, 2);
    const [shipment] = await book([fo!]);
    const currentLocation = store.getFulfillmentOrder(numericId(fo!.fulfillmentOrderId))!.assigned_location_id;
    const destination = store.listLocations().find((l) => l.id !== currentLocation && l.is_fulfillment_service === 0)!;
    await gql(
      `mutation($id: ID!, $to: ID!, $items: [FulfillmentOrderLineItemInput!]) { fulfillmentOrderMove(id: $id, newLocationId: $to, fulfillmentOrderLineItems: $items) { userErrors { message } } }`,
      {
        id: fo!.fulfillmentOrderId,
        to: toGid("Location", destination.id),
        items: [{ id: fo!.lines[0]!.fulfillmentOrderLineItemId, quantity: fo!.lines[0]!.quantity }],
      },
    );

    await writeBack.startWriteBack(processServices.context(SHOP));
    const row = await shipmentRow(shipment!.id);
    expect(row.fulfillmentStatus).toBe("FAILED");
    expect(row.fulfillmentError).toMatch(
      new RegExp(
        `^The items of ${shipment!.orderName} in this shipment \\(.+\\) were moved, split or partly fulfilled in Shopify since the label was booked.*with tracking ${shipment!.trackingNumber}`,
      ),
    );
    expect(fulfillmentsWithTracking(shipment!.orderId, shipment!.trackingNumber!)).toEqual([]);
  });

  it("GIVEN the units were fulfilled in Shopify without the tracking number (fulfillment order closed) THEN nothing new is created", async () => {
    const [fo] = takeFulfillmentOrders(1);
    const [shipment] = await book([fo!]);
    const manual = await gql<{ fulfillmentCreate: { userErrors: unknown[] } }>(
      `mutation($fulfillment: FulfillmentInput!) { fulfillmentCreate(fulfillment: $fulfillment) { userErrors { message } } }`,
      { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo!.fulfillmentOrderId }] } },
    );
    expect(manual.fulfillmentCreate.userErrors).toEqual([]);
    const before = store.countRows("fulfillments");

    await writeBack.startWriteBack(processServices.context(SHOP));
    const row = await shipmentRow(shipment!.id);
    expect(row.fulfillmentStatus).toBe("FAILED");
    expect(row.fulfillmentError).toMatch(
      new RegExp(
        `were already fulfilled in Shopify without tracking ${shipment!.trackingNumber}, so nothing new was created\\. If that fulfillment is this parcel, add tracking`,
      ),
    );
    expect(store.countRows("fulfillments")).toBe(before);
  });

  it("GIVEN the order was cancelled after booking THEN nothing is fulfilled and the message says what to do with the unused label (no void: the Shipping API has none)", async () => {
    const [fo] = takeFulfillmentOrders(1);
    const [shipment] = await book([fo!]);
    const cancelled = await gql<{ orderCancel: { userErrors: unknown[] } }>(
      `mutation($id: ID!) { orderCancel(orderId: $id, reason: CUSTOMER, refund: false, restock: true, notifyCustomer: false) { userErrors { message } } }`,
      { id: fo!.orderId },
    );
    expect(cancelled.orderCancel.userErrors).toEqual([]);

    await writeBack.startWriteBack(processServices.context(SHOP));
    expect(await shipmentRow(shipment!.id)).toMatchObject({
      fulfillmentStatus: "FAILED",
      fulfillmentError: `${shipment!.orderName} was cancelled in Shopify after its label was booked, so nothing was fulfilled. If the parcel has not shipped, keep the parcel back and ask your shipping account's support whether the unused label (tracking ${shipment!.trackingNumber}) can be refunded; Consign cannot cancel a label once it is bought.`,
    });
    expect(fulfillmentsWithTracking(shipment!.orderId, shipment!.trackingNumber!)).toEqual([]);
  });

  it("GIVEN notifications turned off in Settings THEN the fulfillment is created without notifying the customer", async () => {
    const { loadSettings, saveSettings } = await import("../../app/settings/account.server");
    const settings = await loadSettings({ db: prisma, shop: SHOP });
    await saveSettings({ db: prisma, shop: SHOP }, { ...settings, notifyCustomer: false });
    try {
      const [shipment] = await book(takeFulfillmentOrders(1));
      await writeBack.startWriteBack(processServices.context(SHOP));
      const [fulfillment] = fulfillmentsWithTracking(shipment!.orderId, shipment!.trackingNumber!);
      expect(fulfillment!.notify_customer).toBe(0);
    } finally {
      await saveSettings({ db: prisma, shop: SHOP }, settings);
    }
  });

  it("GIVEN a failed write-back WHEN the Fulfillments page is opened and Retry is posted THEN the page shows why and the retry fulfils it", async () => {
    const [shipment] = await book(takeFulfillmentOrders(1));
    const hold = await gql<{ fulfillmentOrderHold: { fulfillmentHold: { id: string } | null } }>(
      `mutation($id: ID!) { fulfillmentOrderHold(id: $id, fulfillmentHold: { reason: AWAITING_PAYMENT }) { fulfillmentHold { id } } }`,
      { id: shipment!.fulfillmentOrderId },
    );
    await writeBack.startWriteBack(processServices.context(SHOP));

    const page = await callRoute(fulfillmentsPage.loader, await appRequest(harness.admin, "/app/fulfillments"));
    expect(page.status).toBe(200);
    const body = page.body as Awaited<ReturnType<typeof writeBackProgress>>;
    expect(body).toMatchObject({ remaining: 0, running: false });
    expect(body.failed).toBeGreaterThanOrEqual(1);
    expect(body.items.find((item) => item.shipmentId === shipment!.id)).toMatchObject({
      status: "FAILED",
      orderName: shipment!.orderName,
      message: expect.stringMatching(/is on hold in Shopify \(awaiting payment\).*Release the hold in Shopify, then choose Retry\./),
    });

    const refused = await callRoute(fulfillmentsPage.action, await appRequest(harness.admin, "/app/fulfillments", formBody({ intent: "void" })));
    expect(refused).toMatchObject({ status: 400, body: { error: "Intent must be retry" } });

    await gql(`mutation($id: ID!, $holdIds: [ID!]) { fulfillmentOrderReleaseHold(id: $id, holdIds: $holdIds) { userErrors { message } } }`, {
      id: shipment!.fulfillmentOrderId,
      holdIds: [hold.fulfillmentOrderHold.fulfillmentHold!.id],
    });
    const retried = await callRoute(
      fulfillmentsPage.action,
      await appRequest(harness.admin, "/app/fulfillments", formBody({ intent: "retry", shipmentId: shipment!.id })),
    );
    expect(retried).toMatchObject({ status: 200, body: { queued: 1 } });
    await writeBack.startWriteBack(processServices.context(SHOP));
    expect(await shipmentRow(shipment!.id)).toMatchObject({ fulfillmentStatus: "FULFILLED", fulfillmentError: null });
  });

  it("GIVEN shipments queued with no job sent (booked by another process) WHEN the Fulfillments page is opened THEN it only shows them queued; their job fulfils them", async () => {
    const shipments = await book(takeFulfillmentOrders(2));
    const page = await callRoute(fulfillmentsPage.loader, await appRequest(harness.admin, "/app/fulfillments"));
    expect(page.body).toMatchObject({ queued: 2, remaining: 2, running: false });
    const untouched = await prisma.shipment.findMany({ where: { id: { in: shipments.map((s) => s.id) } } });
    expect(untouched.map((row) => row.fulfillmentStatus)).toEqual(["PENDING", "PENDING"]);

    await writeBack.startWriteBack(processServices.context(SHOP));
    const rows = await prisma.shipment.findMany({ where: { id: { in: shipments.map((s) => s.id) } } });
    expect(rows.map((row) => row.fulfillmentStatus)).toEqual(["FULFILLED", "FULFILLED"]);
  });

  it("GIVEN Shopify's answer to fulfillmentCreate is lost on the way back THEN the retry finds the fulfillment by its tracking number and links it", async () => {
    const { unauthenticated } = await import("../../app/shopify.server");
    const { HttpRequestError } = await import("@shopify/shopify-api");
    const { admin } = await unauthenticated.admin(SHOP);
    let lost = 0;
    // The real client; only the first fulfillmentCreate's answer never arrives (the request itself went through).
    const flaky: typeof admin = {
      ...admin,
      graphql: async (document, options) => {
        const response = await admin.graphql(document, options);
        if (String(document).includes("CreateShipmentFulfillment") && lost++ === 0) throw new HttpRequestError("socket hang up");
        return response;
      },
    };
    const [shipment] = await book(takeFulfillmentOrders(1));
    const waits: number[] = [];

    const summary = await writeBack.writeBack(contextOf({ admin: flaky, shop: SHOP }, prisma), {
      sleep: async (ms) => void waits.push(ms),
      retryDelaysMs: [250],
    });

    expect(summary).toEqual({ fulfilled: 1, failed: 0 });
    expect(waits).toEqual([250]);
    expect(lost).toBe(1);
    const [fulfillment, ...duplicates] = fulfillmentsWithTracking(shipment!.orderId, shipment!.trackingNumber!);
    expect(duplicates).toEqual([]);
    expect(await shipmentRow(shipment!.id)).toMatchObject({ fulfillmentStatus: "FULFILLED", fulfillmentId: toGid("Fulfillment", fulfillment!.id) });
  });

  it("GIVEN a shipment never sent to Shopify that the mirror holds open THEN fulfillmentCreate is the only Admin call", async () => {
    const [shipment] = await book(takeFulfillmentOrders(1));
    const { context, operations } = await observedAdmin();

    expect(await writeBack.writeBack(contextOf(context, prisma))).toEqual({ fulfilled: 1, failed: 0 });

    expect(operations).toEqual(["CreateShipmentFulfillment"]);
    const [fulfillment, ...duplicates] = fulfillmentsWithTracking(shipment!.orderId, shipment!.trackingNumber!);
    expect(duplicates).toEqual([]);
    expect(await shipmentRow(shipment!.id)).toMatchObject({
      fulfillmentStatus: "FULFILLED",
      fulfillmentAttempts: 1,
      fulfillmentId: toGid("Fulfillment", fulfillment!.id),
    });
  });

  it("GIVEN the mirror is stale (the order went on hold in Shopify since) THEN Shopify's refusal is read back, the hold is reported and nothing is sent again", async () => {
    const [shipment] = await book(takeFulfillmentOrders(1));
    await gql(`mutation($id: ID!) { fulfillmentOrderHold(id: $id, fulfillmentHold: { reason: INVENTORY_OUT_OF_STOCK }) { userErrors { message } } }`, {
      id: shipment!.fulfillmentOrderId,
    });
    const { context, operations } = await observedAdmin();

    expect(await writeBack.writeBack(contextOf(context, prisma))).toEqual({ fulfilled: 0, failed: 1 });

    expect(operations).toEqual(["CreateShipmentFulfillment", "FulfillmentWriteBackState"]);
    expect(await shipmentRow(shipment!.id)).toMatchObject({
      fulfillmentStatus: "FAILED",
      fulfillmentAttempts: 1,
      fulfillmentError: `${shipment!.orderName} is on hold in Shopify (inventory out of stock), so the fulfillment with tracking ${shipment!.trackingNumber} was not created. Release the hold in Shopify, then choose Retry.`,
    });
    expect(fulfillmentsWithTracking(shipment!.orderId, shipment!.trackingNumber!)).toEqual([]);
  });

  it("GIVEN the mirror knows of the hold (its webhook arrived) THEN Shopify is read first and no create is sent", async () => {
    const mirror = await import("../../app/orders/mirror.server");
    const [shipment] = await book(takeFulfillmentOrders(1));
    await gql(`mutation($id: ID!) { fulfillmentOrderHold(id: $id, fulfillmentHold: { reason: AWAITING_PAYMENT }) { userErrors { message } } }`, {
      id: shipment!.fulfillmentOrderId,
    });
    const { context, operations } = await observedAdmin();
    await mirror.refreshOrder(contextOf(context, prisma), shipment!.orderId);
    operations.length = 0;

    expect(await writeBack.writeBack(contextOf(context, prisma))).toEqual({ fulfilled: 0, failed: 1 });

    expect(operations).toEqual(["FulfillmentWriteBackState"]);
    expect(await shipmentRow(shipment!.id)).toMatchObject({
      fulfillmentStatus: "FAILED",
      fulfillmentAttempts: 0,
      fulfillmentError: expect.stringMatching(/is on hold in Shopify \(awaiting payment\)/),
    });
  });

  it("GIVEN a retried shipment whose earlier create went out and was lost THEN it is looked for before anything is created, however sure the mirror is", async () => {
    const [shipment] = await book(takeFulfillmentOrders(1));
    await writeBack.writeBack(contextOf((await observedAdmin()).context, prisma));
    const { fulfillmentId } = await shipmentRow(shipment!.id);
    // As after "Shopify did not answer" and Retry: queued again, the fulfillment exists, the row does not know it.
    await prisma.shipment.update({ where: { id: shipment!.id }, data: { fulfillmentStatus: "PENDING", fulfillmentId: null, fulfilledAt: null } });
    const { context, operations } = await observedAdmin();

    expect(await writeBack.writeBack(contextOf(context, prisma))).toEqual({ fulfilled: 1, failed: 0 });

    expect(operations).toEqual(["FulfillmentWriteBackState"]);
    expect(await shipmentRow(shipment!.id)).toMatchObject({ fulfillmentStatus: "FULFILLED", fulfillmentId, fulfillmentAttempts: 1 });
    expect(fulfillmentsWithTracking(shipment!.orderId, shipment!.trackingNumber!)).toHaveLength(1);
  });
});
