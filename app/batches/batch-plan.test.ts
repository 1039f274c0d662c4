import { describe, expect, it } from "vitest";
import { BatchName, planBatches } from "./batch-plan";

describe("planBatches", () => {
  it("GIVEN up to 500 items THEN one batch with the plain name", () => {
    const plan = planBatches(
      "Monday pickup",
      Array.from({ length: 500 }, (_, index) => index),
    );
    expect(plan).toHaveLength(1);
    expect(plan[0]).toMatchObject({ name: "Monday pickup", part: 1, parts: 1 });
    expect(plan[0]!.items).toHaveLength(500);
  });

  it("GIVEN 1,201 items THEN three parts of 500, 500 and 201, numbered, in the given order", () => {
    const items = Array.from({ length: 1201 }, (_, index) => index);
    const plan = planBatches("Monday pickup", items);
    expect(plan.map((part) => [part.name, part.items.length])).toEqual([
      ["Monday pickup (1/3)", 500],
      ["Monday pickup (2/3)", 500],
      ["Monday pickup (3/3)", 201],
    ]);
    expect(plan.flatMap((part) => part.items)).toEqual(items);
  });

  it("GIVEN nothing THEN no batch", () => {
    expect(planBatches("Empty", [])).toEqual([]);
  });

  it("GIVEN a limit that is not a positive integer THEN it refuses", () => {
    expect(() => planBatches("x", [1], 0)).toThrow(/positive integer/);
  });
});

describe("BatchName", () => {
  it.each([
    ["  Monday pickup  ", { success: true, data: "Monday pickup" }],
    ["   ", { success: false }],
    ["x".repeat(240), { success: false }],
    ["x".repeat(239), { success: true }],
  ])("GIVEN %j THEN %j", (input, expected) => {
    expect(BatchName.safeParse(input)).toMatchObject(expected);
  });

  it("GIVEN the longest allowed name split in many parts THEN every part name fits the service's 255 characters", () => {
    const name = BatchName.parse("y".repeat(239));
    const plan = planBatches(
      name,
      Array.from({ length: 12 * 500 }, (_, index) => index),
    );
    expect(Math.max(...plan.map((part) => part.name.length))).toBeLessThanOrEqual(255);
  });
});
