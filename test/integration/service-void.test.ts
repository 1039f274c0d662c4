import { describe, expect, it } from "vitest";
import { DAY_MS } from "../../service/clock";
import { VoidShipmentResponse } from "../../service/http/portal";
import { endpointList } from "../../shipping-api/contract";
import { ok, type TestCustomer } from "../support/service-harness";
import { domesticBooking, startServiceWithCustomers } from "./service-endpoints";

// The provider's portal void (service/http/portal.ts): outside the Shipping API, seen through Search and Track.
const { service, alice, bob } = await startServiceWithCustomers();

const voidPath = (customer: TestCustomer, bookNumber: string) => `/portal/customers/${customer.customerId}/shipments/${encodeURIComponent(bookNumber)}/void`;

function voidLabel(customer: TestCustomer, bookNumber: string, authorization = customer.authorization) {
  return service.fetch(voidPath(customer, bookNumber), { method: "POST", authorization });
}

function ledger(customer: TestCustomer, bookNumber: string) {
  return service.db
    .statement(`SELECT kind, amountCents, balanceAfterCents FROM LedgerEntry WHERE customerId = ? AND reference = ? ORDER BY id`)
    .all(customer.customerId, bookNumber) as { kind: string; amountCents: number; balanceAfterCents: number }[];
}

const balanceOf = (customer: TestCustomer) =>
  (service.db.statement(`SELECT balanceCents FROM Customer WHERE id = ?`).get(customer.customerId) as { balanceCents: number }).balanceCents;

async function searchRecord(customer: TestCustomer, bookNumber: string) {
  const found = ok(await customer.client.searchShipments({ body: { keyword: bookNumber } }));
  return found.shipments.find((shipment) => shipment.bookNumber === bookNumber);
}

describe("Void (the provider's portal)", () => {
  it("GIVEN a label the carrier has not scanned WHEN voided THEN its charge is credited back once, Search says voided and Track stays frozen at the void", async () => {
    const booked = ok(await alice.client.bookShipment({ body: domesticBooking() }));
    service.clock.advance(30 * 60_000); // Info Received is visible; the parcel is not picked up yet
    const [charge] = ledger(alice, booked.bookNumber);
    expect(charge).toMatchObject({ kind: "charge" });
    const before = balanceOf(alice);

    const voided = await voidLabel(alice, booked.bookNumber);
    expect(voided.status).toBe(200);
    expect(VoidShipmentResponse.parse(voided.body)).toEqual({
      bookNumber: booked.bookNumber,
      voided: true,
      voidedAt: "2026-11-23 15:30:00",
      creditedAmount: (-charge!.amountCents / 100).toFixed(2),
      prepayBalance: ((before - charge!.amountCents) / 100).toFixed(2),
    });
    expect(ledger(alice, booked.bookNumber)).toEqual([
      charge,
      { kind: "refund", amountCents: -charge!.amountCents, balanceAfterCents: before - charge!.amountCents },
    ]);
    expect(balanceOf(alice)).toBe(before - charge!.amountCents);
    expect(await searchRecord(alice, booked.bookNumber)).toMatchObject({ bookNumber: booked.bookNumber, voided: true });

    // A voided label never moves: weeks later Track still ends at the void.
    const atVoid = ok(await alice.client.trackShipment({ bookNumber: booked.bookNumber }));
    expect(atVoid.map((event) => event.eventStatus)).toEqual(["Info Received"]);
    service.clock.advance(20 * DAY_MS);
    expect(ok(await alice.client.trackShipment({ bookNumber: booked.bookNumber }))).toEqual(atVoid);

    // Voiding it again answers the first void and credits nothing more.
    const again = await voidLabel(alice, booked.bookNumber);
    expect(again).toMatchObject({ status: 200, body: { ...(voided.body as object), prepayBalance: (balanceOf(alice) / 100).toFixed(2) } });
    expect(ledger(alice, booked.bookNumber)).toHaveLength(2);
    expect(balanceOf(alice)).toBe(before - charge!.amountCents);
  });

  it("GIVEN a label voided before the carrier's first event THEN Track answers no event at all", async () => {
    const booked = ok(await alice.client.bookShipment({ body: domesticBooking() }));
    expect((await voidLabel(alice, booked.bookNumber)).status).toBe(200);
    service.clock.advance(3 * DAY_MS);
    expect(ok(await alice.client.trackShipment({ bookNumber: booked.bookNumber }))).toEqual([]);
  });

  it("GIVEN a parcel the carrier has picked up THEN the void is refused with 422, and nothing changes", async () => {
    const booked = ok(await alice.client.bookShipment({ body: domesticBooking() }));
    service.clock.advance(2 * DAY_MS);
    const before = balanceOf(alice);
    const refused = await voidLabel(alice, booked.bookNumber);
    expect(refused).toMatchObject({
      status: 422,
      body: { errorCategory: "UNPROCESSABLE", error: expect.stringMatching(/carrier has the parcel \(In Transit at .*cannot be voided/) },
    });
    expect(ledger(alice, booked.bookNumber).map((entry) => entry.kind)).toEqual(["charge"]);
    expect(balanceOf(alice)).toBe(before);
    expect(await searchRecord(alice, booked.bookNumber)).toMatchObject({ voided: false });
  });

  it("GIVEN an unknown or another customer's book number THEN 404, and the other customer's label stays as it was", async () => {
    const bobs = ok(await bob.client.bookShipment({ body: domesticBooking() }));
    expect(await voidLabel(alice, "CN0000000000")).toMatchObject({ status: 404, body: { errorCategory: "NOT_FOUND" } });
    expect(await voidLabel(alice, bobs.bookNumber)).toMatchObject({ status: 404, body: { errorCategory: "NOT_FOUND" } });
    expect(await searchRecord(bob, bobs.bookNumber)).toMatchObject({ voided: false });
  });

  it("GIVEN no, wrong or another customer's credentials THEN 401 or 403 and nothing is voided", async () => {
    const booked = ok(await alice.client.bookShipment({ body: domesticBooking() }));
    const none = await service.fetch(voidPath(alice, booked.bookNumber), { method: "POST" });
    expect(none).toMatchObject({ status: 401, body: { errorCategory: "UNAUTHORIZED" } });
    expect(none.headers.get("www-authenticate")).toMatch(/^Basic/);
    const wrong = `Basic ${Buffer.from(`${alice.email}:not-the-password`).toString("base64")}`;
    expect(await voidLabel(alice, booked.bookNumber, wrong)).toMatchObject({ status: 401 });
    expect(await voidLabel(alice, booked.bookNumber, bob.authorization)).toMatchObject({ status: 403, body: { errorCategory: "FORBIDDEN" } });
    expect(await searchRecord(alice, booked.bookNumber)).toMatchObject({ voided: false });
  });

  it("GIVEN another method on the void's path THEN 405 naming POST; the route is not part of the Shipping API", async () => {
    const booked = ok(await alice.client.bookShipment({ body: domesticBooking() }));
    const get = await service.fetch(voidPath(alice, booked.bookNumber), { authorization: alice.authorization });
    expect(get).toMatchObject({ status: 405, body: { errorCategory: "METHOD_NOT_ALLOWED" } });
    expect(get.headers.get("allow")).toBe("POST");
    expect(endpointList.some((endpoint) => endpoint.path.includes("void"))).toBe(false);
  });
});
