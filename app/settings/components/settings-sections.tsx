import {
  Badge,
  BlockStack,
  Box,
  Button,
  Checkbox,
  ChoiceList,
  FormLayout,
  InlineError,
  InlineStack,
  RadioButton,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { Link } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect, useState } from "react";
import { LabelImageFormat, TermsOfTrade, WeightUnit } from "../../../shipping-api/contract";
import { termsOfTradeOptions } from "../../shipping/terms-of-trade";
import { EMPTY_ADDRESS, type SenderLocation } from "../addresses";
import { presetKey, serviceKey, type Catalog } from "../catalog";
import type { FieldErrors } from "../../field-errors";
import { PackingSlipSize } from "../settings";
import type { BoxInput, SettingsFormValues } from "../settings-form";
import { AddressFields } from "./address-fields";

/** The Settings page's sections. Each edits its part of the form values and shows the errors keyed to it. */

export interface SectionProps {
  values: SettingsFormValues;
  onChange: (next: SettingsFormValues) => void;
  errors: FieldErrors;
}

const TYPED_ADDRESS = "typed";

export function ShipFromSection({ values, onChange, errors, locations }: SectionProps & { locations: readonly SenderLocation[] }) {
  const chosen =
    values.senderLocationId && locations.some((location) => location.id === values.senderLocationId)
      ? values.senderLocationId
      : values.sender
        ? TYPED_ADDRESS
        : "";
  const choose = (id: string) => {
    const location = locations.find((candidate) => candidate.id === id);
    if (location) onChange({ ...values, senderLocationId: location.id, sender: location.sender });
    else if (id === TYPED_ADDRESS) onChange({ ...values, senderLocationId: null, sender: values.sender ?? EMPTY_ADDRESS });
  };
  return (
    <BlockStack gap="300">
      <Select
        label="Ship from"
        name="senderLocationId"
        options={[
          ...(chosen === "" ? [{ label: "Choose a location…", value: "" }] : []),
          ...locations.map((location) => ({ label: `${location.name} — ${location.summary}`, value: location.id })),
          { label: "Another address (type it below)", value: TYPED_ADDRESS },
        ]}
        value={chosen}
        onChange={choose}
        helpText="The sender on your labels. Picking a location fills in its address; you can edit it before saving."
      />
      {values.sender && <AddressFields name="sender" value={values.sender} onChange={(sender) => onChange({ ...values, sender })} errors={errors} />}
      <Checkbox
        label="Returns go to the sender address"
        checked={values.returnToSender}
        onChange={(returnToSender) => onChange({ ...values, returnToSender })}
      />
      {!values.returnToSender && (
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            Return address
          </Text>
          <AddressFields
            name="returnAddress"
            value={values.returnAddress}
            onChange={(returnAddress) => onChange({ ...values, returnAddress })}
            errors={errors}
          />
        </BlockStack>
      )}
    </BlockStack>
  );
}

function uniqueName(base: string, boxes: readonly BoxInput[]): string {
  const taken = new Set(boxes.map((box) => box.name));
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base} ${n}`;
    if (!taken.has(name)) return name;
  }
}

export function BoxesSection({ values, onChange, errors, catalog }: SectionProps & { catalog: Catalog | null }) {
  const [presetToAdd, setPresetToAdd] = useState("");
  const presets = catalog?.presetPackages ?? [];
  const setBox = (index: number, box: BoxInput) => {
    const boxes = values.boxes.map((existing, at) => (at === index ? box : existing));
    // The default follows its box when the box is renamed.
    const defaultBox = values.boxes[index]?.name === values.defaultBox ? box.name : values.defaultBox;
    onChange({ ...values, boxes, defaultBox });
  };
  const remove = (index: number) => {
    const boxes = values.boxes.filter((_, at) => at !== index);
    const defaultBox = values.boxes[index]?.name === values.defaultBox ? (boxes[0]?.name ?? "") : values.defaultBox;
    onChange({ ...values, boxes, defaultBox });
  };
  const addCustom = () =>
    onChange({
      ...values,
      boxes: [...values.boxes, { kind: "custom", name: uniqueName("Custom box", values.boxes), length: "", width: "", height: "", dimUnit: "in" }],
    });
  const addPreset = () => {
    const preset = presets.find((candidate) => presetKey(candidate) === presetToAdd);
    if (!preset) return;
    const name = uniqueName(`${preset.carrierLabel} ${preset.packageTypeLabel}`, values.boxes);
    onChange({ ...values, boxes: [...values.boxes, { kind: "preset", name, carrierCode: preset.carrierCode, packageTypeCode: preset.packageTypeCode }] });
  };

  return (
    <BlockStack gap="400">
      {values.boxes.map((box, index) => {
        const at = `boxes[${index}]`;
        const preset = box.kind === "preset" ? presets.find((candidate) => presetKey(candidate) === presetKey(box)) : null;
        return (
          <Box key={index} padding="300" borderWidth="025" borderColor="border" borderRadius="200">
            <BlockStack gap="200">
              <InlineStack align="space-between" blockAlign="center">
                <RadioButton
                  label="Default box"
                  name="defaultBox"
                  checked={values.defaultBox === box.name}
                  onChange={() => onChange({ ...values, defaultBox: box.name })}
                />
                <Button
                  variant="plain"
                  tone="critical"
                  disabled={values.boxes.length === 1}
                  onClick={() => remove(index)}
                  accessibilityLabel={`Remove ${box.name}`}
                >
                  Remove
                </Button>
              </InlineStack>
              <TextField label="Name" autoComplete="off" value={box.name} onChange={(name) => setBox(index, { ...box, name })} error={errors[`${at}.name`]} />
              {box.kind === "custom" ? (
                <FormLayout.Group condensed>
                  {(["length", "width", "height"] as const).map((side) => (
                    <TextField
                      key={side}
                      label={side[0]!.toUpperCase() + side.slice(1)}
                      inputMode="decimal"
                      autoComplete="off"
                      value={box[side]}
                      onChange={(next) => setBox(index, { ...box, [side]: next })}
                      error={errors[`${at}.${side}`]}
                    />
                  ))}
                  <Select
                    label="Unit"
                    options={["in", "cm"]}
                    value={box.dimUnit}
                    onChange={(dimUnit) => setBox(index, { ...box, dimUnit: dimUnit === "cm" ? "cm" : "in" })}
                  />
                </FormLayout.Group>
              ) : (
                <Text as="p" tone="subdued">
                  Carrier package:{" "}
                  {preset ? `${preset.carrierLabel} ${preset.packageTypeLabel}, ${preset.dimensions}` : `${box.carrierCode} ${box.packageTypeCode}`}
                </Text>
              )}
              {box.kind === "preset" && <InlineError message={errors[`${at}.packageTypeCode`] ?? ""} fieldID={`${at}.packageTypeCode`} />}
            </BlockStack>
          </Box>
        );
      })}
      <InlineError message={errors.defaultBox ?? errors.boxes ?? ""} fieldID="defaultBox" />
      <InlineStack gap="300" blockAlign="end">
        <Button onClick={addCustom}>Add custom box</Button>
        {presets.length > 0 && (
          <>
            <Select
              label="Carrier package"
              labelInline
              options={[
                { label: "Choose…", value: "" },
                ...presets.map((preset) => ({ label: `${preset.carrierLabel} ${preset.packageTypeLabel} (${preset.dimensions})`, value: presetKey(preset) })),
              ]}
              value={presetToAdd}
              onChange={setPresetToAdd}
            />
            <Button onClick={addPreset} disabled={presetToAdd === ""}>
              Add carrier package
            </Button>
          </>
        )}
      </InlineStack>
      <FormLayout.Group condensed>
        <TextField
          label="Packaging weight"
          helpText="Added to every package: box, fill and tape."
          inputMode="decimal"
          autoComplete="off"
          value={values.packagingWeight.value}
          onChange={(value) => onChange({ ...values, packagingWeight: { ...values.packagingWeight, value } })}
          error={errors["packagingWeight.value"]}
        />
        <Select
          label="Unit"
          options={WeightUnit.options}
          value={values.packagingWeight.unit}
          onChange={(unit) => onChange({ ...values, packagingWeight: { ...values.packagingWeight, unit: WeightUnit.parse(unit) } })}
        />
      </FormLayout.Group>
    </BlockStack>
  );
}

export function ServicesSection({ values, onChange, errors, catalog }: SectionProps & { catalog: Catalog | null }) {
  const enabled = new Set(values.enabledServices.map(serviceKey));
  const toggle = (key: { carrierCode: string; serviceCode: string }, on: boolean) => {
    const rest = values.enabledServices.filter((existing) => serviceKey(existing) !== serviceKey(key));
    onChange({ ...values, enabledServices: on ? [...rest, { carrierCode: key.carrierCode, serviceCode: key.serviceCode }] : rest });
  };
  return (
    <BlockStack gap="300">
      <ChoiceList
        title="Quote with"
        selected={[values.quoteAllServices ? "all" : "chosen"]}
        onChange={([choice]) => onChange({ ...values, quoteAllServices: choice === "all" })}
        choices={[
          { label: "Every service my account offers, including new ones", value: "all" },
          { label: "Only the services I choose", value: "chosen" },
        ]}
      />
      {catalog ? (
        <BlockStack gap="100">
          {catalog.services.map((service) => (
            <InlineStack key={serviceKey(service)} gap="200" blockAlign="center">
              <Checkbox
                label={`${service.carrierLabel} ${service.serviceLabel}`}
                disabled={service.inbound || values.quoteAllServices}
                checked={!service.inbound && (values.quoteAllServices || enabled.has(serviceKey(service)))}
                onChange={(on) => toggle(service, on)}
              />
              {/* Where it ships stays readable while the box is greyed out ("every service" chosen): not the box's help text. */}
              <Text as="span" tone="subdued">
                {service.countries}
              </Text>
              {service.inbound && <Badge>Return service: not quoted for orders</Badge>}
            </InlineStack>
          ))}
        </BlockStack>
      ) : (
        <Text as="p" tone="subdued">
          {values.enabledServices.length > 0 ? `Saved choice: ${values.enabledServices.map(serviceKey).join(", ")}. ` : ""}
          The services cannot be listed while the Shipping API does not answer.
        </Text>
      )}
      <InlineError message={errors.enabledServices ?? ""} fieldID="enabledServices" />
      <Select
        label="Provider account"
        helpText="The carrier account labels are booked and billed on."
        options={[
          { label: "None: book on the Shipping API's own carrier accounts", value: "" },
          ...(catalog?.providerAccounts ?? []).map((account) => ({ label: account.label, value: account.id })),
          ...(values.providerAccountId && !catalog?.providerAccounts.some((account) => account.id === values.providerAccountId)
            ? [{ label: values.providerAccountId, value: values.providerAccountId }]
            : []),
        ]}
        value={values.providerAccountId ?? ""}
        onChange={(id) => onChange({ ...values, providerAccountId: id === "" ? null : id })}
        error={errors.providerAccountId}
      />
    </BlockStack>
  );
}

/** `currency`: what the account's rates come in (null before the first quote); the ceiling is compared with rate totals in it. */
export function RatesSection({ values, onChange, errors, catalog, currency }: SectionProps & { catalog: Catalog | null; currency: string | null }) {
  const ceilingIn = currency ? ` Rates come in ${currency}.` : " In the currency your rates come in.";
  const rule = values.rateRule;
  const carriers = catalog?.carriers ?? [];
  return (
    <BlockStack gap="300">
      <Text as="p" tone="subdued">
        This is the shop-wide rule, used for every order no <Link to="/app/rules">shipping rule</Link> picks for (rules by destination, weight, value, tags,
        products or the customer&rsquo;s choice). Boxes and customs defaults per product are in <Link to="/app/presets">product presets</Link>.
      </Text>
      <ChoiceList
        title="Preselect for each order"
        selected={[rule.kind]}
        onChange={([kind]) =>
          onChange({ ...values, rateRule: { ...rule, kind: kind === "fastest" || kind === "preferred" || kind === "match" ? kind : "cheapest" } })
        }
        choices={[
          { label: "The cheapest rate", value: "cheapest" },
          { label: "The fastest rate", value: "fastest" },
          { label: "A preferred carrier, up to a price", value: "preferred" },
          {
            label: "Match the customer's choice, up to a price",
            value: "match",
            helpText: "The service nearest in speed to the shipping the customer paid for at checkout (Priority, Express, 2nd Day…).",
          },
        ]}
      />
      {rule.kind === "match" && (
        <TextField
          label="Price ceiling"
          helpText={`Services above this total are not considered; when every rate is above it, the cheapest is picked.${ceilingIn}`}
          inputMode="decimal"
          suffix={currency ?? undefined}
          autoComplete="off"
          value={rule.maxAmount}
          onChange={(maxAmount) => onChange({ ...values, rateRule: { ...rule, maxAmount } })}
          error={errors["rateRule.maxAmount"]}
        />
      )}
      {rule.kind === "preferred" && (
        <FormLayout.Group>
          <Select
            label="Preferred carrier"
            options={[
              { label: "Choose…", value: "" },
              ...carriers.map((carrier) => ({ label: carrier.carrierLabel, value: carrier.carrierCode })),
              ...(rule.carrierCode && !carriers.some((carrier) => carrier.carrierCode === rule.carrierCode)
                ? [{ label: rule.carrierCode, value: rule.carrierCode }]
                : []),
            ]}
            value={rule.carrierCode}
            onChange={(carrierCode) => onChange({ ...values, rateRule: { ...rule, carrierCode } })}
            error={errors["rateRule.carrierCode"]}
          />
          <TextField
            label="Up to"
            helpText={`Above this total the cheapest rate is picked instead.${ceilingIn}`}
            inputMode="decimal"
            suffix={currency ?? undefined}
            autoComplete="off"
            value={rule.maxAmount}
            onChange={(maxAmount) => onChange({ ...values, rateRule: { ...rule, maxAmount } })}
            error={errors["rateRule.maxAmount"]}
          />
        </FormLayout.Group>
      )}
    </BlockStack>
  );
}

/** How a return label's service is picked (docs/decisions/041); the carriers offered are those with a return service. */
export function ReturnsSection({ values, onChange, errors, catalog }: SectionProps & { catalog: Catalog | null }) {
  const rule = values.returnRule;
  const returnCarriers = new Map((catalog?.services ?? []).filter((service) => service.inbound).map((service) => [service.carrierCode, service.carrierLabel]));
  return (
    <BlockStack gap="300">
      <ChoiceList
        title="Return labels"
        selected={[rule.kind]}
        error={errors["returnRule.kind"]}
        onChange={([kind]) => onChange({ ...values, returnRule: { ...rule, kind: kind === "preferred" || kind === "scan-based" ? kind : "cheapest" } })}
        choices={[
          { label: "The cheapest return service", value: "cheapest" },
          {
            label: "Scan-based where offered",
            value: "scan-based",
            helpText: "A scan-based label costs nothing until the carrier first scans it, so a label the customer never uses costs nothing.",
          },
          { label: "A preferred carrier", value: "preferred", helpText: "Its cheapest return service; the cheapest of all when it has none for the parcel." },
        ]}
      />
      {rule.kind === "preferred" && (
        <Select
          label="Preferred carrier for returns"
          options={[
            { label: "Choose…", value: "" },
            ...[...returnCarriers].map(([carrierCode, carrierLabel]) => ({ label: carrierLabel, value: carrierCode })),
            ...(rule.carrierCode && !returnCarriers.has(rule.carrierCode) ? [{ label: rule.carrierCode, value: rule.carrierCode }] : []),
          ]}
          value={rule.carrierCode}
          onChange={(carrierCode) => onChange({ ...values, returnRule: { ...rule, carrierCode } })}
          error={errors["returnRule.carrierCode"]}
        />
      )}
      <Checkbox
        label="Put a return label in the box"
        checked={values.returnLabelInBox}
        onChange={(returnLabelInBox) => onChange({ ...values, returnLabelInBox })}
        helpText="Each order you book also gets a scan-based return label, printed right after its shipping label, where a scan-based return service picks up in the customer's country. It costs nothing unless the customer sends the parcel back."
      />
    </BlockStack>
  );
}

export function DefaultsSection({ values, onChange, errors, catalog }: SectionProps & { catalog: Catalog | null }) {
  const signatures = catalog?.signatureOptions ?? [];
  const code = values.signatureOptionCode;
  return (
    <FormLayout>
      <FormLayout.Group>
        <Select
          label="Label format"
          options={LabelImageFormat.options}
          value={values.labelFormat}
          onChange={(format) => onChange({ ...values, labelFormat: LabelImageFormat.parse(format) })}
          helpText="ZPL, EPL2 and PNG are for thermal printers; not every carrier offers them."
        />
        <Select
          label="Packing slip paper"
          options={[
            { label: "4×6 in (label printer)", value: "4x6" },
            { label: "Letter", value: "letter" },
            { label: "A4", value: "a4" },
          ]}
          value={values.packingSlipSize}
          onChange={(size) => onChange({ ...values, packingSlipSize: PackingSlipSize.parse(size) })}
          helpText="4×6 slips print with the labels on the label printer, one after each label."
        />
        <Select
          label="Signature"
          options={[
            { label: "No signature", value: "" },
            ...signatures.map((option) => ({ label: option.label, value: option.code })),
            ...(code && !signatures.some((option) => option.code === code) ? [{ label: code, value: code }] : []),
          ]}
          value={code ?? ""}
          onChange={(next) => onChange({ ...values, signatureOptionCode: next === "" ? null : next })}
          error={errors.signatureOptionCode}
        />
      </FormLayout.Group>
      <Checkbox
        label="Notify the customer when an order is fulfilled"
        checked={values.notifyCustomer}
        onChange={(notifyCustomer) => onChange({ ...values, notifyCustomer })}
      />
      <Checkbox label="Insure each package for the value of its items" checked={values.insure} onChange={(insure) => onChange({ ...values, insure })} />
      <FormLayout.Group>
        <Select
          label="Delivery addresses are"
          options={[
            { label: "Residential unless there is a company", value: "auto" },
            { label: "Always residential", value: "residential" },
            { label: "Always commercial", value: "commercial" },
          ]}
          value={values.residential}
          onChange={(residential) =>
            onChange({ ...values, residential: residential === "residential" ? "residential" : residential === "commercial" ? "commercial" : "auto" })
          }
        />
        <Select
          label="Terms of trade (international)"
          options={termsOfTradeOptions(TermsOfTrade.options)}
          value={values.termsOfTrade}
          onChange={(terms) => onChange({ ...values, termsOfTrade: TermsOfTrade.parse(terms) })}
        />
      </FormLayout.Group>
      <TextField
        label="Sender VAT or tax id"
        helpText="Printed on commercial invoices for international shipments."
        autoComplete="off"
        value={values.senderVatTaxId}
        onChange={(senderVatTaxId) => onChange({ ...values, senderVatTaxId })}
        error={errors.senderVatTaxId}
      />
    </FormLayout>
  );
}

/** The optional scope writing tags on orders needs (shopify.app.toml's optional_scopes; docs/decisions/043). */
const EDIT_ORDERS = "write_orders";

/** What the page says when Consign may not edit orders: tags stay off (or are not written), why, and what to do. */
export const ORDER_ACCESS_DECLINED =
  "Order tags stay off: you did not allow Consign to edit orders in Shopify. To tag orders, tick this again and choose Allow when Shopify asks.";
const ORDER_ACCESS_REVOKED =
  "Consign may no longer edit orders in Shopify, so no tags are written. Untick this, tick it again and choose Allow when Shopify asks.";
const ORDER_ACCESS_UNASKED = "Shopify could not ask for permission to edit orders, so tags stay off. Reload this page and tick this again.";

/**
 * Tags on Shopify orders (off by default). Ticking the box asks the merchant to let Consign edit orders (App
 * Bridge's scopes.request for the optional write_orders) unless Shopify already allows it; declined, the box stays
 * unticked and the page says why. Saved on, with the permission gone since, the page says so on load.
 */
export function OrderTagsSection({ values, onChange, errors }: SectionProps) {
  const shopify = useAppBridge();
  const tags = values.orderTags;
  const [asking, setAsking] = useState(false);
  const [access, setAccess] = useState<string | null>(null);
  const set = (change: Partial<typeof tags>) => onChange({ ...values, orderTags: { ...tags, ...change } });

  const enabledOnLoad = tags.enabled;
  useEffect(() => {
    if (!enabledOnLoad) return;
    let current = true;
    shopify.scopes.query().then(
      ({ granted }) => current && !granted.includes(EDIT_ORDERS) && setAccess(ORDER_ACCESS_REVOKED),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [enabledOnLoad, shopify]);

  const turn = async (on: boolean) => {
    setAccess(null);
    if (!on) return set({ enabled: false });
    setAsking(true);
    try {
      const { granted } = await shopify.scopes.query();
      if (!granted.includes(EDIT_ORDERS)) {
        const answer = await shopify.scopes.request([EDIT_ORDERS]);
        if (answer.result !== "granted-all") return setAccess(ORDER_ACCESS_DECLINED);
      }
      set({ enabled: true });
    } catch {
      setAccess(ORDER_ACCESS_UNASKED);
    } finally {
      setAsking(false);
    }
  };

  return (
    <BlockStack gap="300">
      <Checkbox
        label="Tag orders in Shopify"
        helpText="Consign adds each tag below to the order when it happens, and takes the attention tag off once the parcel moves on. Consign needs your permission to edit orders: Shopify asks you when you tick this."
        checked={tags.enabled}
        disabled={asking}
        onChange={(on) => void turn(on)}
        error={access ?? errors["orderTags.enabled"]}
      />
      <FormLayout>
        <TextField
          label="Tag when the label is bought"
          autoComplete="off"
          value={tags.labelBought}
          onChange={(labelBought) => set({ labelBought })}
          error={errors["orderTags.labelBought"]}
        />
        <TextField
          label="Tag when delivered"
          autoComplete="off"
          value={tags.delivered}
          onChange={(delivered) => set({ delivered })}
          error={errors["orderTags.delivered"]}
        />
        <TextField
          label="Tag while delivery needs attention"
          helpText="Taken off when the carrier's next scan shows the parcel moving again, or when it is delivered."
          autoComplete="off"
          value={tags.exception}
          onChange={(exception) => set({ exception })}
          error={errors["orderTags.exception"]}
        />
      </FormLayout>
    </BlockStack>
  );
}
