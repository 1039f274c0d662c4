import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  buildBookedShipment,
  buildCreateCustomer,
  buildCustomerAddress,
  buildPackageType,
  buildService,
  buildTrackingEvent,
} from "../../test/factories/shipping-api";
import { type RejectionRow, itAcceptsEach, itRejectsEach } from "../../test/support/contract-rows";
import {
  BookedShipment,
  CreateCustomerRequest,
  CreateCustomerResponse,
  EventStatus,
  ListProviderAccountsResponse,
  ListServicesResponse,
  SearchShipmentsRequest,
  SearchShipmentsResponse,
  Service,
  TrackingResponse,
} from "../contract";

// Search Shipments, List Services, Track Shipment, List Provider Accounts and Create Customer.

const oneServiceResponse = (service: z.input<typeof Service>) => ({ services: [service] });

const recordRules: RejectionRow[] = [
  ["an empty search keyword", SearchShipmentsRequest, { keyword: " " }, "keyword"],
  ["more than 100 search results", SearchShipmentsResponse, { shipments: Array.from({ length: 101 }, () => buildBookedShipment()) }, "shipments"],
  [
    "a search result without any reference",
    SearchShipmentsResponse,
    { shipments: [buildBookedShipment({ shipperReference: undefined })] },
    "shipments[0].shipmentReference",
  ],
  ["a search result weighed in ounces", SearchShipmentsResponse, { shipments: [buildBookedShipment({ weightUnit: "oz" as "lb" })] }, "shipments[0].weightUnit"],
  [
    "a scan-based label's charge time that is not a timestamp",
    SearchShipmentsResponse,
    { shipments: [buildBookedShipment({ scanBasedReturnLabel: true, chargedAt: "2026-11-28T10:00:00Z" })] },
    "shipments[0].chargedAt",
  ],
  [
    "a search result with a bad receiver state",
    SearchShipmentsResponse,
    { shipments: [buildBookedShipment({ receiver: { ...buildBookedShipment().receiver, state: "N.Y." } })] },
    "shipments[0].receiver.state",
  ],
  [
    "a service with both country lists",
    ListServicesResponse,
    oneServiceResponse(buildService({ unsupportedCountries: ["CU"] })),
    "services[0].supportedCountries",
  ],
  [
    "a service with neither country list",
    ListServicesResponse,
    oneServiceResponse(buildService({ supportedCountries: null })),
    "services[0].supportedCountries",
  ],
  [
    "a custom package type with a dim unit",
    ListServicesResponse,
    oneServiceResponse(buildService({ packageTypes: [buildPackageType({ dimUnit: "in" })] })),
    "services[0].packageTypes[0].dimUnit",
  ],
  [
    "an envelope with a preset length",
    ListServicesResponse,
    oneServiceResponse(buildService({ packageTypes: [buildPackageType({ dimType: "envelope", presetLength: "12" })] })),
    "services[0].packageTypes[0].presetLength",
  ],
  [
    "a max weight per piece sent as a number",
    ListServicesResponse,
    oneServiceResponse(buildService({ packageTypes: [buildPackageType({ maxWeightPerPiece: 150 as unknown as string })] })),
    "services[0].packageTypes[0].maxWeightPerPiece",
  ],
  [
    "the corrected spelling Delivery Arranged",
    TrackingResponse,
    [buildTrackingEvent({ eventStatus: "Delivery Arranged" as "Delivery Arragned" })],
    "[0].eventStatus",
  ],
  ["a tracking time with a T separator", TrackingResponse, [buildTrackingEvent(), buildTrackingEvent({ eventTime: "2026-11-24T06:41:10" })], "[1].eventTime"],
  ["a tracking response wrapped in an object", TrackingResponse, { events: [buildTrackingEvent()] }, "(root)"],
  [
    "unmasked non-string account fields",
    ListProviderAccountsResponse,
    { providerAccounts: [{ id: "pa_1", providerCode: "x", accountFields: { port: 443 } }] },
    "providerAccounts[0].accountFields.port",
  ],
  ["a malformed customer email", CreateCustomerRequest, buildCreateCustomer({ email: "owner at shop" }), "email"],
  ["a two-character franchise id", CreateCustomerRequest, buildCreateCustomer({ franchiseId: "SF" }), "franchiseId"],
  ["a four-character franchise id", CreateCustomerRequest, buildCreateCustomer({ franchiseId: "SF12" }), "franchiseId"],
  ["an unknown industry", CreateCustomerRequest, buildCreateCustomer({ industry: "crypto" as "other" }), "industry"],
  [
    "a mailing address without phone",
    CreateCustomerRequest,
    buildCreateCustomer({ mailingAddress: buildCustomerAddress({ phone: undefined }) }),
    "mailingAddress.phone",
  ],
  [
    "a billing address with a null zip",
    CreateCustomerRequest,
    buildCreateCustomer({ billingAddress: buildCustomerAddress({ zip: null as unknown as string }) }),
    "billingAddress.zip",
  ],
  [
    "a billing address with a bad state",
    CreateCustomerRequest,
    buildCreateCustomer({ billingAddress: buildCustomerAddress({ state: "Calif" }) }),
    "billingAddress.state",
  ],
  [
    "a non-decimal minimum balance",
    CreateCustomerRequest,
    buildCreateCustomer({ prepaySettings: { minimumBalance: "fifty", rechargeAmount: "1" } }),
    "prepaySettings.minimumBalance",
  ],
  [
    "a missing recharge amount",
    CreateCustomerRequest,
    buildCreateCustomer({ prepaySettings: { minimumBalance: "50" } as never }),
    "prepaySettings.rechargeAmount",
  ],
  ["no profile code", CreateCustomerRequest, buildCreateCustomer({ profileCode: "" }), "profileCode"],
];

describe("Shipping API contract, search, services, tracking, accounts and customers: documented shapes", () => {
  itAcceptsEach([
    ["a search request", SearchShipmentsRequest, { keyword: "Blake" }],
    ["a create customer request", CreateCustomerRequest, buildCreateCustomer()],
    [
      "a create customer request with only required fields",
      CreateCustomerRequest,
      {
        profileCode: "Default",
        email: "a@b.test",
        password: "pw",
        mailingAddress: buildCustomerAddress(),
        billingAddress: buildCustomerAddress(),
        prepaySettings: { minimumBalance: 0, rechargeAmount: "100" },
      },
    ],
    [
      "search results with both reference spellings",
      SearchShipmentsResponse,
      { shipments: [buildBookedShipment(), buildBookedShipment({ shipperReference: undefined, shipmentReference: "#7" })] },
    ],
    [
      "services with supported and unsupported country lists",
      ListServicesResponse,
      {
        services: [
          buildService(),
          buildService({
            serviceCode: "intl",
            supportedCountries: null,
            unsupportedCountries: ["CU", "KP"],
            supportedDangerousGoodCodes: "UN3481",
            supportedDangerousGoodsCodes: undefined,
          }),
        ],
      },
    ],
    [
      "tracking events (a bare array), every event status",
      TrackingResponse,
      EventStatus.options.map((eventStatus) => buildTrackingEvent({ eventStatus, serviceArea: "" })),
    ],
    ["an empty tracking history", TrackingResponse, []],
    [
      "provider accounts with masked fields",
      ListProviderAccountsResponse,
      {
        providerAccounts: [
          { id: "pa_1", providerCode: "express", accountFields: { accountNumber: "****6789", key: "****", password: "****", meterNumber: "****" } },
          { id: "pa_2", providerCode: "parcel", accountFields: { accountNumber: "****1234", userId: "n***d", password: "****", accessLicenceNumber: "****" } },
        ],
      },
    ],
    ["a create customer response", CreateCustomerResponse, { customerId: "cus_123" }],
  ]);
});

describe("Shipping API contract, search, services, tracking, accounts and customers: rules", () => {
  itRejectsEach(recordRules);
});

describe("Shipping API contract, search, services, tracking, accounts and customers: canonical output", () => {
  it("GIVEN a search result with shipperReference WHEN parsed THEN it is exposed as shipmentReference only", () => {
    const parsed = BookedShipment.parse(buildBookedShipment({ shipperReference: "#1042" }));
    expect(parsed.shipmentReference).toBe("#1042");
    expect(parsed).not.toHaveProperty("shipperReference");
  });

  it("GIVEN both reference spellings WHEN parsed THEN shipmentReference wins", () => {
    const parsed = BookedShipment.parse(buildBookedShipment({ shipmentReference: "A", shipperReference: "B" }));
    expect(parsed.shipmentReference).toBe("A");
  });

  it.each<[string, Partial<z.input<typeof Service>>, string | null]>([
    ["the example spelling", { supportedDangerousGoodsCodes: "UN3481" }, "UN3481"],
    ["the field-table spelling", { supportedDangerousGoodsCodes: undefined, supportedDangerousGoodCodes: "UN3091" }, "UN3091"],
    ["neither spelling", { supportedDangerousGoodsCodes: undefined }, null],
  ])("GIVEN a service with %s WHEN parsed THEN supportedDangerousGoodsCodes carries the codes", (_name, overrides, codes) => {
    const parsed = Service.parse(buildService(overrides));
    expect(parsed.supportedDangerousGoodsCodes).toBe(codes);
    expect(parsed).not.toHaveProperty("supportedDangerousGoodCodes");
  });
});
