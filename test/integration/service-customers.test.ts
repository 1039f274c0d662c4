import { describe, expect, it } from "vitest";
import { buildCreateCustomer } from "../factories/shipping-api";
import { createSecretBox } from "../../service/secrets";
import { PARTNER_KEY, SECRETS_KEY, failed, ok } from "../support/service-harness";
import { domesticBooking, startServiceWithCustomers } from "./service-endpoints";

// Create Customer (the partner's endpoint) and List Services.
const { service, alice } = await startServiceWithCustomers();

describe("Create Customer", () => {
  it("GIVEN a valid request THEN 201 with a customerId that can log in, a prepay balance of rechargeAmount, and masked provider accounts", async () => {
    const customer = await service.createCustomer({ prepaySettings: { minimumBalance: "25.00", rechargeAmount: "300.00" } });
    const row = service.db.statement(`SELECT balanceCents FROM Customer WHERE id = ?`).get(customer.customerId) as { balanceCents: number };
    expect(row.balanceCents).toBe(30_000);
    const accounts = ok(await customer.client.listProviderAccounts()).providerAccounts;
    expect(accounts.map((account) => account.providerCode).sort()).toEqual(["brownline", "globeparcel", "meridian", "nps"]);
    const box = createSecretBox(SECRETS_KEY);
    const sealedRows = service.db.statement(`SELECT id, sealedFields FROM ProviderAccount WHERE customerId = ?`).all(customer.customerId) as {
      id: string;
      sealedFields: string;
    }[];
    for (const account of accounts) {
      const sealed = sealedRows.find((entry) => entry.id === account.id)!;
      const secrets = box.open<Record<string, string>>(sealed.sealedFields);
      expect(Object.keys(account.accountFields).sort()).toEqual(Object.keys(secrets).sort());
      for (const [field, value] of Object.entries(secrets)) {
        // Encrypted at rest, masked on the wire: the plain value appears in neither.
        expect(sealed.sealedFields).not.toContain(value);
        expect(account.accountFields[field]).not.toBe(value);
        expect(account.accountFields[field]).toMatch(/^\*+[0-9a-f]{0,4}$/);
      }
    }
  });

  it("GIVEN an email that is taken (any case) THEN 409 and nothing is created", async () => {
    const before = (service.db.statement(`SELECT COUNT(*) AS n FROM Customer`).get() as { n: number }).n;
    const error = failed(await service.partner.createCustomer({ body: buildCreateCustomer({ email: alice.email.toUpperCase(), password: "x" }) }));
    expect(error).toMatchObject({ kind: "conflict", status: 409, category: "CONFLICT" });
    expect((service.db.statement(`SELECT COUNT(*) AS n FROM Customer`).get() as { n: number }).n).toBe(before);
  });

  it.each([
    ["an unknown industry", { industry: "mining" }, /industry/],
    ["a franchiseId that is not three characters", { franchiseId: "ABCD" }, /franchiseId/],
    [
      "an incomplete mailing address",
      { mailingAddress: { name: "X", company: "", address1: "", address2: "", city: "Y", state: "CA", zip: "94105", country: "US", phone: "4155550100" } },
      /mailingAddress\.address1/,
    ],
    ["a zero recharge amount", { prepaySettings: { minimumBalance: "10", rechargeAmount: "0" } }, /rechargeAmount/],
    ["an absurd minimum balance", { prepaySettings: { minimumBalance: 1e300, rechargeAmount: "10" } }, /minimumBalance/],
    ["an invalid email", { email: "not-an-email" }, /email/],
  ])("GIVEN %s THEN 400 naming the field", async (_case, overrides, field) => {
    const body = { ...buildCreateCustomer({ email: `fresh-${Math.random()}@consign.test` }), ...overrides };
    const response = await service.fetch("/restapi/v1/customers", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      authorization: `Bearer ${PARTNER_KEY}`,
    });
    expect(response).toMatchObject({ status: 400, body: { errorCategory: "INVALID_REQUEST" } });
    expect((response.body as { error: string }).error).toMatch(field);
  });
});

describe("List Services", () => {
  it("lists four carriers of every kind, inbound and international services, and every package dimType", async () => {
    const { services } = ok(await alice.client.listServices());
    expect(new Set(services.map((entry) => entry.carrierCode))).toEqual(new Set(["NPS", "BLP", "MRX", "GPC"]));
    expect(services.length).toBeGreaterThanOrEqual(12);
    expect(services.some((entry) => entry.inbound)).toBe(true);
    expect(services.some((entry) => entry.unsupportedCountries?.includes("US"))).toBe(true);
    const packageTypes = services.flatMap((entry) => entry.packageTypes);
    expect(new Set(packageTypes.map((type) => type.dimType))).toEqual(new Set(["preset", "envelope", "custom"]));
    for (const type of packageTypes.filter((entry) => entry.dimType === "preset")) {
      expect(type.dimUnit).not.toBeNull();
      expect(Number(type.presetLength)).toBeGreaterThan(0);
    }
    for (const entry of services) expect((entry.supportedCountries === null) !== (entry.unsupportedCountries === null)).toBe(true);
    expect(services.some((entry) => entry.signatureOptions.length > 0)).toBe(true);
    expect(services.some((entry) => entry.supportedDangerousGoodsCodes)).toBe(true);
  });

  it("GIVEN Saturday delivery WHEN a service says it takes it THEN Book Shipment accepts it there and refuses it where the service says not", async () => {
    const { services } = ok(await alice.client.listServices());
    const saturday = services.filter((entry) => entry.saturdayDelivery === true).map((entry) => entry.serviceCode);
    expect(saturday.sort()).toEqual(["BLP_NEXT_DAY_AIR", "MRX_INTERNATIONAL_PRIORITY", "MRX_PRIORITY_OVERNIGHT"]);
    expect(services.every((entry) => typeof entry.saturdayDelivery === "boolean")).toBe(true);
    const booked = ok(await alice.client.bookShipment({ body: domesticBooking({ serviceCode: "BLP_NEXT_DAY_AIR", saturdayDelivery: true }) }));
    const [record] = ok(await alice.client.searchShipments({ body: { keyword: booked.bookNumber } })).shipments;
    expect(record!.serviceCode).toBe("BLP_NEXT_DAY_AIR");
    expect(failed(await alice.client.bookShipment({ body: domesticBooking({ serviceCode: "BLP_GROUND", saturdayDelivery: true }) }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/Saturday/),
    });
  });
});
