import { describe, expect, it } from "vitest";
import { DAY_MS } from "../../service/clock";
import { scanBasedLabelUsed } from "../../service/tracking";
import { buildReturnBooking, buildUkReceiver } from "../factories/shipping-api";
import { ok, type TestCustomer } from "../support/service-harness";
import { shipment, startServiceWithCustomers } from "./service-endpoints";

// Inbound services (their country lists are sender countries) and scan-based return labels, charged only when
// first scanned (service/README.md, "Returns").
const { service, alice } = await startServiceWithCustomers();

const balanceOf = (customer: TestCustomer) =>
  (service.db.statement(`SELECT balanceCents FROM Customer WHERE id = ?`).get(customer.customerId) as { balanceCents: number }).balanceCents;

function charges(customer: TestCustomer, bookNumber: string) {
  return service.db
    .statement(`SELECT kind, amountCents, createdAt FROM LedgerEntry WHERE customerId = ? AND reference = ? ORDER BY id`)
    .all(customer.customerId, bookNumber) as { kind: string; amountCents: number; createdAt: string }[];
}

async function searchRecord(customer: TestCustomer, bookNumber: string) {
  const found = ok(await customer.client.searchShipments({ body: { keyword: bookNumber } }));
  return found.shipments.find((shipment) => shipment.bookNumber === bookNumber);
}

/** Books scan-based return labels until it has one the customer will use and one they never will. */
async function usedAndUnusedLabels() {
  const labels: { bookNumber: string; trackingNumber: string; used: boolean }[] = [];
  while (!labels.some((label) => label.used) || !labels.some((label) => !label.used)) {
    const booked = ok(await alice.client.bookShipment({ body: buildReturnBooking() }));
    labels.push({ ...booked, used: scanBasedLabelUsed(booked.trackingNumber) });
    if (labels.length > 30) throw new Error("30 labels and not both kinds: the used/unused split is broken");
  }
  return { used: labels.find((label) => label.used)!, unused: labels.find((label) => !label.used)! };
}

describe("inbound services: the country lists are sender countries", () => {
  it("GIVEN an international import service WHEN quoted from the UK, from the US or from an embargoed country THEN it quotes the UK sender and refuses the others naming the sender's country", async () => {
    const quote = (sender: ReturnType<typeof buildUkReceiver>, receiver = buildReturnBooking().receiver) =>
      alice.client.batchQuote({
        body: { shipments: [shipment({ carrierCode: "MRX", serviceCode: "MRX_INTERNATIONAL_IMPORT", packageTypeCode: "MRX_PACKAGE", sender, receiver })] },
      });
    const fromUk = ok(await quote(buildUkReceiver())).results[0]!;
    expect(fromUk).toMatchObject({ status: "success", quotes: [{ serviceCode: "MRX_INTERNATIONAL_IMPORT" }] });
    const fromCuba = ok(await quote(buildUkReceiver({ country: "CU", zip: "10400", city: "Havana" }))).results[0]!;
    expect(fromCuba).toMatchObject({ status: "error", errorCategory: "COUNTRY_NOT_SUPPORTED", error: expect.stringContaining("does not pick up in CU") });
    const toUk = ok(await quote(buildReturnBooking().receiver, buildUkReceiver())).results[0]!;
    expect(toUk).toMatchObject({ status: "error", errorCategory: "COUNTRY_NOT_SUPPORTED", error: expect.stringContaining("delivers to US only") });
  });

  it("GIVEN a domestic return service WHEN booked from a UK sender THEN Book Shipment refuses it 400 COUNTRY_NOT_SUPPORTED and charges nothing; from a US sender it is priced like the quote", async () => {
    const before = balanceOf(alice);
    const refused = await alice.client.bookShipment({ body: buildReturnBooking({ sender: buildUkReceiver(), scanBasedReturnLabel: false }) });
    expect(refused).toMatchObject({
      ok: false,
      error: { status: 400, category: "COUNTRY_NOT_SUPPORTED", message: expect.stringContaining("does not pick up in GB") },
    });
    expect(balanceOf(alice)).toBe(before);

    const request = buildReturnBooking({ scanBasedReturnLabel: false });
    const quoted = ok(await alice.client.batchQuote({ body: { shipments: [{ ...request, shipmentReference: request.shipmentReference ?? "" }] } })).results[0]!;
    if (quoted.status !== "success") throw new Error(quoted.error);
    const booked = ok(await alice.client.bookShipment({ body: request }));
    const record = await searchRecord(alice, booked.bookNumber);
    expect(record?.totalShippingCost).toBe(quoted.quotes[0]!.totalAmount);
    expect(charges(alice, booked.bookNumber)).toMatchObject([{ kind: "charge", amountCents: -Math.round(Number(quoted.quotes[0]!.totalAmount) * 100) }]);
  });
});

describe("scan-based return labels", () => {
  it("GIVEN scan-based labels WHEN booked THEN nothing is charged; WHEN the customer's parcel is first scanned THEN the ledger is charged at that scan and Track shows the journey to the shop; a label never scanned is never charged", async () => {
    const before = balanceOf(alice);
    const { used, unused } = await usedAndUnusedLabels();
    expect(balanceOf(alice)).toBe(before);
    for (const label of [used, unused]) {
      expect(charges(alice, label.bookNumber)).toEqual([]);
      expect(await searchRecord(alice, label.bookNumber)).toMatchObject({ scanBasedReturnLabel: true, chargedAt: null, serviceCode: "NPS_GROUND_RETURN" });
      expect(ok(await alice.client.trackShipment({ bookNumber: label.bookNumber }))).toEqual([]);
    }

    service.clock.advance(12 * DAY_MS);
    const journey = ok(await alice.client.trackShipment({ bookNumber: used.bookNumber })).reverse();
    expect(journey[0]).toMatchObject({ eventStatus: "In Transit", serviceArea: "NEW YORK, NY" });
    expect(journey.at(-1)).toMatchObject({ eventStatus: "Delivered", serviceArea: "SAN FRANCISCO, CA" });
    expect(journey.some((event) => event.eventStatus === "Info Received")).toBe(false);
    const record = await searchRecord(alice, used.bookNumber);
    expect(record).toMatchObject({ scanBasedReturnLabel: true, chargedAt: journey[0]!.eventTime });
    const [charge] = charges(alice, used.bookNumber);
    expect(charge).toMatchObject({ kind: "charge", amountCents: -Math.round(Number(record!.totalShippingCost) * 100) });
    expect(new Date(charge!.createdAt).toISOString().replace("T", " ").slice(0, 19)).toBe(journey[0]!.eventTime);
    expect(balanceOf(alice)).toBe(before + charge!.amountCents);

    // Reading again charges nothing twice; the unused label stays silent and free months later.
    service.clock.advance(90 * DAY_MS);
    expect(ok(await alice.client.trackShipment({ bookNumber: unused.bookNumber }))).toEqual([]);
    expect(await searchRecord(alice, unused.bookNumber)).toMatchObject({ chargedAt: null });
    expect(charges(alice, used.bookNumber)).toHaveLength(1);
    expect(charges(alice, unused.bookNumber)).toEqual([]);
  });

  it("GIVEN an unscanned scan-based label WHEN voided in the portal THEN 0.00 is credited and it is never charged, even past the day it would have been scanned", async () => {
    const { used } = await usedAndUnusedLabels();
    const before = balanceOf(alice);
    const voided = await service.fetch(`/portal/customers/${alice.customerId}/shipments/${used.bookNumber}/void`, {
      method: "POST",
      authorization: alice.authorization,
    });
    expect(voided).toMatchObject({ status: 200, body: { creditedAmount: "0.00", prepayBalance: (before / 100).toFixed(2) } });
    service.clock.advance(12 * DAY_MS);
    expect(ok(await alice.client.trackShipment({ bookNumber: used.bookNumber }))).toEqual([]);
    expect(charges(alice, used.bookNumber)).toMatchObject([{ kind: "refund", amountCents: 0 }]);
  });

  it("GIVEN scanBasedReturnLabel on an outbound service THEN Book Shipment refuses it 400 naming the service", async () => {
    const refused = await alice.client.bookShipment({
      body: buildReturnBooking({ carrierCode: "BLP", serviceCode: "BLP_GROUND", packageTypeCode: "BLP_PACKAGE" }),
    });
    expect(refused).toMatchObject({ ok: false, error: { status: 400, category: "INVALID_REQUEST", message: expect.stringContaining("BLP_GROUND") } });
  });
});
