import { describe, expect, it } from "vitest";
import { ProviderAccount, Service } from "../../shipping-api/contract";
import { buildService } from "../../test/factories/shipping-api";
import { EMPTY_ADDRESS } from "./addresses";
import { checkAgainstCatalog, parseSettingsForm, settingsFormValues, type SettingsFormValues } from "./settings-form";
import { DEFAULT_SETTINGS, type ShippingSettings } from "./settings";

const SENDER = {
  name: "Brooklyn Warehouse",
  company: "Consign Demo Store",
  address1: "55 Water St",
  address2: "Floor 3",
  city: "Brooklyn",
  state: "ny",
  zip: "11201",
  country: "us",
  phone: "+1 718-555-0100",
  email: "owner@consign-demo.example",
};

function form(overrides: Partial<SettingsFormValues> = {}): SettingsFormValues {
  return { ...settingsFormValues(DEFAULT_SETTINGS), sender: SENDER, senderLocationId: "gid://shopify/Location/1", ...overrides };
}

function errorsOf(body: unknown): Record<string, string> {
  const result = parseSettingsForm(body);
  if (result.ok) throw new Error("expected the form to be refused");
  return result.fieldErrors;
}

describe("parseSettingsForm", () => {
  it("GIVEN a complete form THEN it becomes settings: codes upper-cased, the phone as 10 digits, the weight a number, every service quoted", () => {
    const result = parseSettingsForm(form({ packagingWeight: { value: "6.5", unit: "oz" } }));
    expect(result).toEqual({
      ok: true,
      settings: {
        ...DEFAULT_SETTINGS,
        senderLocationId: "gid://shopify/Location/1",
        sender: { ...SENDER, state: "NY", country: "US", phone: "7185550100" },
        packagingWeight: { value: 6.5, unit: "oz" },
      },
    });
  });

  it("GIVEN stored settings THEN the form opens with them and posts them back unchanged", () => {
    const settings: ShippingSettings = {
      ...DEFAULT_SETTINGS,
      sender: { ...SENDER, state: "NY", country: "US", phone: "7185550100" },
      returnAddress: { ...SENDER, name: "Returns desk", state: "NY", country: "US", phone: "7185550199", zip: null, email: undefined },
      boxes: [...DEFAULT_SETTINGS.boxes, { kind: "preset", name: "Flat rate", carrierCode: "parcel", packageTypeCode: "flat_rate_box" }],
      defaultBox: "Flat rate",
      enabledServices: [{ carrierCode: "parcel", serviceCode: "ground" }],
      rateRule: { kind: "preferred", carrierCode: "parcel", maxAmount: "25.00" },
      signatureOptionCode: "adult",
    };
    const { email: _absent, ...returnAddress } = settings.returnAddress!;
    expect(parseSettingsForm(settingsFormValues(settings))).toEqual({ ok: true, settings: { ...settings, returnAddress } });
  });

  it("GIVEN the match-the-customer rule with a ceiling THEN it round-trips through the form", () => {
    const settings: ShippingSettings = {
      ...DEFAULT_SETTINGS,
      sender: { ...SENDER, state: "NY", country: "US", phone: "7185550100" },
      rateRule: { kind: "match", maxAmount: "40.00" },
    };
    const values = settingsFormValues(settings);
    expect(values.rateRule).toEqual({ kind: "match", carrierCode: "", maxAmount: "40.00" });
    expect(parseSettingsForm(values)).toMatchObject({ ok: true, settings: { rateRule: { kind: "match", maxAmount: "40.00" } } });
  });

  it("GIVEN problems in several sections THEN each is reported on its own field, in the paths the page shows them at", () => {
    const errors = errorsOf(
      form({
        sender: { ...SENDER, state: "New York", city: "", phone: "" },
        returnToSender: false,
        returnAddress: { ...EMPTY_ADDRESS, name: "Returns" },
        boxes: [
          { kind: "custom", name: "Small", length: "10", width: "abc", height: "0", dimUnit: "in" },
          { kind: "custom", name: "Small", length: "10", width: "8", height: "4", dimUnit: "in" },
        ],
        defaultBox: "Small",
        packagingWeight: { value: "-1", unit: "oz" },
        quoteAllServices: false,
        enabledServices: [],
        rateRule: { kind: "preferred", carrierCode: "", maxAmount: "" },
      }),
    );
    expect(errors).toMatchObject({
      "sender.state": "Sender address: state or province code must be a two-letter code for US and CA",
      "sender.city": "Sender address: city must not be empty",
      "sender.phone": "Sender address: phone is needed, as carriers print it on the label",
      "returnAddress.address1": "Return address: address must not be empty",
      "returnAddress.country": expect.stringMatching(/^Return address: country code /),
      "boxes[0].width": "Box “Small”: width must be a number, like 12 or 12.5",
      "boxes[0].height": "Box “Small”: height must be more than 0",
      "boxes[1].name": "Box “Small”: another box has this name",
      "packagingWeight.value": "Packaging weight must be a number, 0 or more",
      enabledServices: "Services to quote with: choose at least one service, or quote with every service",
      "rateRule.carrierCode": "Preferred carrier: choose a carrier",
      "rateRule.maxAmount": "Price ceiling must be a number, like 12 or 12.5",
    });
  });

  it.each([
    [
      "a negative box side",
      { boxes: [{ kind: "custom", name: "Box", length: "-5", width: "8", height: "4", dimUnit: "in" }], defaultBox: "Box" },
      "boxes[0].length",
      "Box “Box”: length must be more than 0",
    ],
    [
      "a box side no carrier takes",
      { boxes: [{ kind: "custom", name: "Box", length: "12", width: "900", height: "4", dimUnit: "cm" }], defaultBox: "Box" },
      "boxes[0].width",
      "Box “Box”: width must be at most 305 cm",
    ],
    [
      "a packaging weight of 99,999 lb",
      { packagingWeight: { value: "99999", unit: "lb" } },
      "packagingWeight.value",
      "Packaging weight must be at most 150 lb",
    ],
    ["a packaging weight of 80 kg", { packagingWeight: { value: "80", unit: "kg" } }, "packagingWeight.value", "Packaging weight must be at most 70 kg"],
    [
      "a match-the-customer rule without a ceiling",
      { rateRule: { kind: "match", carrierCode: "", maxAmount: "" } },
      "rateRule.maxAmount",
      "Price ceiling must be a number, like 12 or 12.5",
    ],
    [
      "a match-the-customer rule with a negative ceiling",
      { rateRule: { kind: "match", carrierCode: "", maxAmount: "-5" } },
      "rateRule.maxAmount",
      "Price ceiling must be more than 0",
    ],
    [
      "a blank box name",
      { boxes: [{ kind: "custom", name: " ", length: "1", width: "1", height: "1", dimUnit: "in" }], defaultBox: " " },
      "boxes[0].name",
      "Box 1: name is required",
    ],
    ["a blank sender city", { sender: { ...SENDER, city: "" } }, "sender.city", "Sender address: city must not be empty"],
    ["an unknown label format", { labelFormat: "GIF" }, "labelFormat", "Label format: choose one of the options"],
    ["a missing rule", { rateRule: undefined }, "rateRule", "Preselect for each order is required"],
    [
      "a sender name too long for a label",
      { sender: { ...SENDER, name: "N".repeat(300) } },
      "sender.name",
      "Sender address: name must be at most 255 characters",
    ],
  ] as const)("GIVEN %s THEN the field says so in a merchant's words", (_case, overrides, field, message) => {
    const errors = errorsOf({ ...form(), ...overrides });
    expect(errors[field]).toEqual(message);
    // No message is the validation library's own wording, or names a field by its path.
    for (const text of Object.values(errors)) expect(text).not.toMatch(/expected|Too small|Too big|Invalid (input|option|string)|[a-z]\.[a-z]|\[\d+\]/);
  });

  it("GIVEN returns go to the sender THEN a half-typed return address is kept in the form but not checked or saved", () => {
    const result = parseSettingsForm(form({ returnToSender: true, returnAddress: { ...EMPTY_ADDRESS, name: "draft" } }));
    expect(result.ok && result.settings.returnAddress).toBeNull();
  });

  it("GIVEN problems THEN the message says each by its field's label, never its path", () => {
    const result = parseSettingsForm(form({ sender: { ...SENDER, city: "" }, packagingWeight: { value: "x", unit: "oz" } }));
    expect(result).toMatchObject({
      ok: false,
      message: "Nothing was saved. Packaging weight must be a number, 0 or more; Sender address: city must not be empty. Correct them and save again.",
    });
  });

  it("GIVEN a default box that is not among the boxes THEN it is refused on defaultBox", () => {
    expect(errorsOf(form({ defaultBox: "Gone" }))).toEqual({ defaultBox: "Default box must be one of the boxes" });
  });

  it("GIVEN order tags turned on with names THEN they are saved trimmed; names Shopify cannot keep, or one tag for two facts, are refused on their field in the page's words", () => {
    const tags = { enabled: true, labelBought: " shipped ", delivered: "delivered", exception: "late" };
    const saved = parseSettingsForm(form({ orderTags: tags }));
    expect(saved.ok && saved.settings.orderTags).toEqual({ enabled: true, labelBought: "shipped", delivered: "delivered", exception: "late" });
    expect(errorsOf(form({ orderTags: { ...tags, labelBought: "", delivered: "a,b", exception: "x".repeat(41) } }))).toEqual({
      "orderTags.labelBought": "Tag when the label is bought is required",
      "orderTags.delivered": "Tag when delivered must not contain a comma",
      "orderTags.exception": "Tag while delivery needs attention must be at most 40 characters",
    });
    expect(errorsOf(form({ orderTags: { ...tags, delivered: "Shipped", exception: "SHIPPED " } }))).toEqual({
      "orderTags.delivered": "Tag when delivered must differ from the tag when the label is bought",
      "orderTags.exception": "Tag while delivery needs attention must differ from the tag when the label is bought",
    });
    expect(errorsOf(form({ orderTags: { ...tags, exception: "Delivered" } }))).toEqual({
      "orderTags.exception": "Tag while delivery needs attention must differ from the tag when delivered",
    });
    expect(parseSettingsForm(form())).toMatchObject({ ok: true, settings: { orderTags: DEFAULT_SETTINGS.orderTags } });
  });

  it("GIVEN a body that is not the form THEN the fields it breaks are named", () => {
    expect(errorsOf({ ...form(), labelFormat: "GIF", notifyCustomer: "yes" })).toMatchObject({
      labelFormat: expect.any(String),
      notifyCustomer: expect.any(String),
    });
    expect(Object.keys(errorsOf(null))).toEqual(["(root)"]);
  });
});

describe("checkAgainstCatalog", () => {
  const services = [buildService(), buildService({ serviceCode: "return", serviceLabel: "Return", inbound: true })].map((service) => Service.parse(service));
  const providerAccounts = [ProviderAccount.parse({ id: "PA1", providerCode: "parcelco", accountFields: {} })];

  it("GIVEN choices the account offers THEN there is nothing to report", () => {
    const settings: ShippingSettings = {
      ...DEFAULT_SETTINGS,
      boxes: [{ kind: "preset", name: "Flat", carrierCode: "parcel", packageTypeCode: "flat_rate_box" }],
      defaultBox: "Flat",
      enabledServices: [{ carrierCode: "parcel", serviceCode: "ground" }],
      providerAccountId: "PA1",
      signatureOptionCode: "adult",
      rateRule: { kind: "preferred", carrierCode: "parcel", maxAmount: "20" },
    };
    expect(checkAgainstCatalog(settings, { services, providerAccounts })).toEqual({});
  });

  it("GIVEN a return service, an unknown package, account, signature and carrier THEN each is reported on its field", () => {
    const settings: ShippingSettings = {
      ...DEFAULT_SETTINGS,
      boxes: [
        { kind: "preset", name: "Flat", carrierCode: "parcel", packageTypeCode: "package" },
        { kind: "custom", name: "Own", length: "1", width: "1", height: "1", dimUnit: "cm" },
      ],
      defaultBox: "Own",
      enabledServices: [{ carrierCode: "parcel", serviceCode: "return" }],
      providerAccountId: "PA9",
      signatureOptionCode: "wet-ink",
      rateRule: { kind: "preferred", carrierCode: "zeppelin", maxAmount: "20" },
    };
    expect(checkAgainstCatalog(settings, { services, providerAccounts })).toEqual({
      enabledServices: "not offered for orders by your account: Parcel Co Return",
      "boxes[0].packageTypeCode": "is not one Parcel Co offers (“package”)",
      providerAccountId: "is not one of your account's provider accounts",
      signatureOptionCode: "no service of your account offers this signature option",
      "rateRule.carrierCode": "is not a carrier of your account",
    });
  });
});
