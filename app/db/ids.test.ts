import { describe, expect, it } from "vitest";
import { timeOrderedId } from "./ids";

describe("timeOrderedId", () => {
  it("GIVEN ids made at later milliseconds THEN they sort in time order, are UUIDs of version 7 and never repeat", () => {
    const ids = [timeOrderedId(1_764_300_000_000), timeOrderedId(1_764_300_000_001), timeOrderedId(1_764_300_060_000)];
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids[0]!.slice(0, 13)).toBe("019ac879-8b00");
    const many = new Set(Array.from({ length: 10_000 }, () => timeOrderedId(1_764_300_000_000)));
    expect(many.size).toBe(10_000);
  });
});
