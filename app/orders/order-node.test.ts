import { describe, expect, it } from "vitest";
import { MIRRORED_TEXT_LIMITS, giftMessageOf, mirroredAttributes } from "./order-node";

describe("an order's note attributes", () => {
  it.each([
    ["Gift message", "Happy birthday!"],
    ["gift_message", "Happy birthday!"],
    ["Gift Note", "Happy birthday!"],
    ["Geschenknachricht", "Alles Gute!"],
  ])('GIVEN an attribute named "%s" THEN it is the gift message', (key, value) => {
    expect(
      giftMessageOf([
        { key: "gift_wrap", value: "yes" },
        { key, value },
      ]),
    ).toBe(value);
  });

  it("GIVEN attributes that name no gift message THEN there is none", () => {
    expect(
      giftMessageOf([
        { key: "gift_wrap", value: "yes" },
        { key: "Delivery date", value: "Friday" },
      ]),
    ).toBeNull();
  });

  it("GIVEN empty values, too many attributes and overlong text THEN the mirror keeps those with a value, within its bounds, whole characters", () => {
    const many = Array.from({ length: 80 }, (_, index) => ({ key: `k${index}`, value: "v" }));
    expect(mirroredAttributes([{ key: "Gift message", value: null }, { key: " ", value: "x" }, ...many])).toHaveLength(MIRRORED_TEXT_LIMITS.attributes);
    const [long] = mirroredAttributes([{ key: "Gift message", value: "山".repeat(MIRRORED_TEXT_LIMITS.value + 10) }]);
    expect([...long!.value]).toHaveLength(MIRRORED_TEXT_LIMITS.value);
  });
});
