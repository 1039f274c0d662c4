import { describe, expect, it } from "vitest";
import { buildCommercialInvoice, buildDomesticReceiver, buildQuoteShipment, buildUkReceiver } from "../factories/shipping-api";
import { DAY_MS } from "../../service/clock";
import { failed, ok } from "../support/service-harness";
import { type BookIn, openBatch, domesticBooking, pdfPages, startServiceWithCustomers } from "./service-endpoints";

// Single shipments: Book Shipment and Get Shipment Label, Search Shipments, Track Shipment.
const { service, alice, bob } = await startServiceWithCustomers();

describe("Book Shipment", () => {
  it("GIVEN a domestic parcel THEN 201 with a 1Z number, the zone and the new balance, and a PDF label", async () => {
    const balance = (service.db.statement(`SELECT balanceCents FROM Customer WHERE id = ?`).get(alice.customerId) as { balanceCents: number }).balanceCents;
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/shipments`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(domesticBooking()),
      authorization: alice.authorization,
    });
    expect(response.status).toBe(201);
    const body = response.body as {
      bookNumber: string;
      trackingNumber: string;
      prepayBalance: string;
      zone: string;
      labelImageFormat: string;
      labelImage: string;
    };
    expect(body.trackingNumber).toMatch(/^1Z/);
    expect(body.zone).toBe("8");
    expect(Math.round(Number(body.prepayBalance) * 100)).toBeLessThan(balance);
    expect(body.labelImageFormat).toBe("PDF");
    expect(await pdfPages(body.labelImage)).toBe(1);
    expect(ok(await alice.client.bookShipment({ body: domesticBooking() })).bookNumber).not.toBe(body.bookNumber);
  });

  it.each([
    ["MRX", "MRX_2DAY", "MRX_PACKAGE", "ZPL", (text: string) => text.startsWith("^XA") && text.includes("^BC")],
    ["BLP", "BLP_GROUND", "BLP_PACKAGE", "EPL2", (text: string) => /\nB\d+,\d+,0,1,/.test(text)],
    ["NPS", "NPS_PRIORITY", "NPS_PACKAGE", "ZPL", (text: string) => text.includes("^FD>:94001")],
  ] as const)("GIVEN %s with %s THEN a %s label with the barcode command (%s)", async (carrierCode, serviceCode, packageTypeCode, labelImageFormat, check) => {
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/shipments`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(domesticBooking({ carrierCode, serviceCode, packageTypeCode, labelImageFormat })),
      authorization: alice.authorization,
    });
    expect(response.status).toBe(201);
    const body = response.body as { labelImageFormat: string; labelImage: string; bookNumber: string };
    expect(body.labelImageFormat).toBe(labelImageFormat);
    expect(check(Buffer.from(body.labelImage, "base64").toString("latin1"))).toBe(true);
    // The label stays retrievable in the same format.
    const again = await service.fetch(`/restapi/v1/customers/${alice.customerId}/shipments/${body.bookNumber}/label`, { authorization: alice.authorization });
    expect(again).toMatchObject({ status: 200, body: { labelImageFormat, labelImage: body.labelImage } });
  });

  it("GIVEN the typed client WHEN it books THEN the response carries the label, and Get Shipment Label returns it again for this customer only", async () => {
    const booked = ok(await alice.client.bookShipment({ body: domesticBooking({ labelImageFormat: "PDF" }) }));
    expect(booked.labelImageFormat).toBe("PDF");
    expect(await pdfPages(booked.labelImage!)).toBe(1);
    const label = ok(await alice.client.getShipmentLabel({ bookNumber: booked.bookNumber }));
    expect(label).toEqual({ labelImageFormat: "PDF", labelImage: booked.labelImage });
    expect(failed(await bob.client.getShipmentLabel({ bookNumber: booked.bookNumber }))).toMatchObject({ kind: "not_found", status: 404 });
    expect(failed(await alice.client.getShipmentLabel({ bookNumber: "CN0000000000" }))).toMatchObject({ kind: "not_found", status: 404 });
  });

  it("GIVEN a label kept past the retention WHEN Get Shipment Label is asked THEN 422 says it was purged", async () => {
    const booked = ok(await alice.client.bookShipment({ body: domesticBooking() }));
    service.clock.advance(91 * DAY_MS);
    expect(failed(await alice.client.getShipmentLabel({ bookNumber: booked.bookNumber }))).toMatchObject({
      kind: "unprocessable",
      status: 422,
      message: expect.stringMatching(/purged/),
    });
  });

  it("GIVEN PNG THEN the e-commerce carrier returns a PNG and others refuse with 400", async () => {
    const png = await service.fetch(`/restapi/v1/customers/${alice.customerId}/shipments`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(
        domesticBooking({
          carrierCode: "GPC",
          serviceCode: "GPC_ECOM_GROUND",
          packageTypeCode: "GPC_PARCEL",
          labelImageFormat: "PNG",
          dangerousGoodsCode: "ORMD",
          postalEndorsement: "RETURN SERVICE REQUESTED",
        }),
      ),
      authorization: alice.authorization,
    });
    expect(png.status).toBe(201);
    expect(
      Buffer.from((png.body as { labelImage: string }).labelImage, "base64")
        .subarray(1, 4)
        .toString("ascii"),
    ).toBe("PNG");
    expect(failed(await alice.client.bookShipment({ body: domesticBooking({ labelImageFormat: "PNG" }) }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/PNG is not available/),
    });
  });

  it("GIVEN a cost above the balance THEN 402 INSUFFICIENT_FUNDS and nothing is booked, unless approvePrepayRecharge", async () => {
    const poor = await service.createCustomer({ prepaySettings: { minimumBalance: "0", rechargeAmount: "5.00" } });
    const refused = failed(await poor.client.bookShipment({ body: domesticBooking() }));
    expect(refused).toMatchObject({ kind: "insufficient_funds", status: 402 });
    expect(service.db.statement(`SELECT COUNT(*) AS n FROM Shipment WHERE customerId = ?`).get(poor.customerId)).toEqual({ n: 0 });
    const booked = ok(await poor.client.bookShipment({ body: domesticBooking({ approvePrepayRecharge: true }) }));
    expect(Number(booked.prepayBalance)).toBeGreaterThanOrEqual(0);
    const { total } = service.db.statement(`SELECT SUM(amountCents) AS total FROM LedgerEntry WHERE customerId = ?`).get(poor.customerId) as { total: number };
    expect(Math.round(Number(booked.prepayBalance) * 100)).toBe(total);
  });

  it("GIVEN a multi-piece postal shipment THEN one tracking number and cost per piece", async () => {
    const pieces = [1, 2, 3].map((weight) => ({ weight: String(weight), length: "10", width: "8", height: "4", insuranceAmount: null, declaredValue: null }));
    const booked = ok(
      await alice.client.bookShipment({
        body: domesticBooking({ carrierCode: "NPS", serviceCode: "NPS_GROUND_ADVANTAGE", packageTypeCode: "NPS_PACKAGE", pieces }),
      }),
    );
    expect(booked.pieces).toHaveLength(3);
    expect(booked.pieces![0]!.trackingNumber).toBe(booked.trackingNumber);
    for (const piece of booked.pieces!) expect(piece.trackingNumber).toMatch(/^94001\d{17}$/);
    const [found] = ok(await alice.client.searchShipments({ body: { keyword: booked.bookNumber } })).shipments;
    expect(found!.trackingNumbers).toEqual(booked.pieces!.map((piece) => piece.trackingNumber));
    const sum = booked.pieces!.reduce((total, piece) => total + Math.round(Number(piece.shippingCost) * 100), 0);
    expect(sum).toBe(Math.round(Number(found!.totalShippingCost) * 100));
  });

  it("GIVEN an international express shipment with a commercial invoice THEN booked with a 12-digit number", async () => {
    const booked = ok(
      await alice.client.bookShipment({
        body: domesticBooking({
          carrierCode: "MRX",
          serviceCode: "MRX_INTERNATIONAL_PRIORITY",
          packageTypeCode: "MRX_PACKAGE",
          receiver: buildUkReceiver(),
          customsCurrency: "GBP",
          pieces: [{ weight: "2.5", length: "12", width: "9", height: "4", insuranceAmount: "150.00", declaredValue: "52" }],
          commercialInvoice: buildCommercialInvoice(),
          saturdayDelivery: true,
        }),
      }),
    );
    expect(booked.trackingNumber).toMatch(/^\d{12}$/);
    expect(booked.zone).toBe("B");
  });

  it.each([
    ["an unknown service", { serviceCode: "NOPE" }, "INVALID_REQUEST"],
    [
      "a piece over the maximum weight",
      {
        carrierCode: "NPS",
        serviceCode: "NPS_PRIORITY",
        packageTypeCode: "NPS_PACKAGE",
        pieces: [{ weight: "90", length: "10", width: "8", height: "4", insuranceAmount: null, declaredValue: null }],
      },
      "WEIGHT_LIMIT_EXCEEDED",
    ],
    ["dangerous goods on a carrier that takes none", { dangerousGoodsCode: "ORMD" }, "INVALID_REQUEST"],
    ["Saturday delivery on a ground service", { saturdayDelivery: true }, "INVALID_REQUEST"],
    ["a scan-based return label outside the postal return service", { scanBasedReturnLabel: true }, "INVALID_REQUEST"],
    ["a sender without a phone", { sender: { ...buildQuoteShipment().sender, phone: "" } }, "INVALID_REQUEST"],
    ["another provider's account", { providerAccountId: "PA-DOES-NOT-EXIST" }, "INVALID_REQUEST"],
  ] as const)("GIVEN %s THEN 400 %s and nothing is charged", async (_case, overrides, category) => {
    const before = (service.db.statement(`SELECT COUNT(*) AS n FROM LedgerEntry`).get() as { n: number }).n;
    expect(failed(await alice.client.bookShipment({ body: domesticBooking(overrides as Partial<BookIn>) }))).toMatchObject({
      kind: "invalid_request",
      status: 400,
      category,
    });
    expect((service.db.statement(`SELECT COUNT(*) AS n FROM LedgerEntry`).get() as { n: number }).n).toBe(before);
  });
});

describe("Search Shipments", () => {
  it("finds by name, company, phone, email, tracking number, book number, order number and reference, case-insensitively", async () => {
    const customer = await service.createCustomer();
    const booked = ok(
      await customer.client.bookShipment({
        body: domesticBooking({
          receiver: buildDomesticReceiver({ name: "Quentin Zephyr", company: "Zephyr Looms", email: "quentin@zephyr.test", phone: "6465550123" }),
          orderNumber: "ORD-7781",
          shipmentReference: "REF-ALPHA",
        }),
      }),
    );
    for (const keyword of [
      "quentin",
      "ZEPHYR LOOMS",
      "6465550123",
      "quentin@zephyr.test",
      booked.trackingNumber.toLowerCase(),
      booked.bookNumber,
      "ord-7781",
      "ref-alpha",
    ]) {
      const { shipments } = ok(await customer.client.searchShipments({ body: { keyword } }));
      expect(shipments.map((entry) => entry.bookNumber)).toEqual([booked.bookNumber]);
    }
    const [found] = ok(await customer.client.searchShipments({ body: { keyword: "quentin" } })).shipments;
    expect(found).toMatchObject({
      carrierCode: "BLP",
      serviceCode: "BLP_GROUND",
      voided: false,
      shipmentReference: "REF-ALPHA",
      orderIds: ["ORD-7781"],
      weightUnit: "lb",
      residential: false,
    });
    expect(ok(await customer.client.searchShipments({ body: { keyword: "nobody-by-this-name" } })).shipments).toEqual([]);
  });

  it("returns the newest first and at most 100", async () => {
    const customer = await service.createCustomer({ prepaySettings: { minimumBalance: "100", rechargeAmount: "5000" } });
    const { batchId } = await openBatch(customer, 101);
    const booked = ok(await customer.client.batchBook({ body: { batchId } }));
    const { shipments } = ok(await customer.client.searchShipments({ body: { keyword: "jordan blake" } }));
    expect(shipments).toHaveLength(100);
    const last = booked.results.at(-1)!;
    expect(shipments[0]!.bookNumber).toBe(last.status === "success" ? last.bookNumber : "");
  });

  it("GIVEN a blank keyword THEN 400", async () => {
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/searchShipments`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ keyword: "  " }),
      authorization: alice.authorization,
    });
    expect(response).toMatchObject({ status: 400, body: { errorCategory: "INVALID_REQUEST" } });
  });
});

describe("Track Shipment", () => {
  it("reveals events as the service clock advances, most recent first, ending Delivered", async () => {
    const booked = ok(await alice.client.bookShipment({ body: domesticBooking() }));
    expect(ok(await alice.client.trackShipment({ bookNumber: booked.bookNumber }))).toEqual([]);
    service.clock.advance(30 * 60_000);
    expect(ok(await alice.client.trackShipment({ bookNumber: booked.bookNumber })).map((event) => event.eventStatus)).toEqual(["Info Received"]);
    service.clock.advance(2 * DAY_MS);
    const midway = ok(await alice.client.trackShipment({ bookNumber: booked.bookNumber }));
    expect(midway[0]!.eventStatus).toBe("In Transit");
    service.clock.advance(20 * DAY_MS);
    const done = ok(await alice.client.trackShipment({ bookNumber: booked.bookNumber }));
    expect(done[0]).toMatchObject({ eventStatus: "Delivered", trackingNumber: booked.trackingNumber, carrier: "BLP", serviceAreaCountry: "US" });
    expect(done.at(-1)!.eventStatus).toBe("Info Received");
    expect(done.map((event) => event.eventTime)).toEqual([...done.map((event) => event.eventTime)].sort().reverse());
    expect(done.every((event) => event.ancillaryReasonDescription === null)).toBe(true);
  });

  it("GIVEN an unknown book number THEN 404", async () => {
    expect(failed(await alice.client.trackShipment({ bookNumber: "CN0000000000" })).kind).toBe("not_found");
  });
});
