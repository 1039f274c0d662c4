import { describe, expect, it } from "vitest";
import { keptAnswers } from "./kept";

describe("keptAnswers", () => {
  it("GIVEN the same key again THEN the kept answer is returned without computing it again, a false one included", () => {
    const computed: string[] = [];
    const isEven = keptAnswers(
      10,
      (value: number) => String(value),
      (value: number) => {
        computed.push(String(value));
        return value % 2 === 0;
      },
    );
    expect([isEven(1), isEven(2), isEven(1), isEven(2)]).toEqual([false, true, false, true]);
    expect(computed).toEqual(["1", "2"]);
  });

  it("GIVEN the limit reached THEN every kept answer is forgotten, and the next ones kept again", () => {
    const computed: number[] = [];
    const double = keptAnswers(
      2,
      (value: number) => String(value),
      (value: number) => {
        computed.push(value);
        return value * 2;
      },
    );
    for (const value of [1, 2, 3, 1, 3]) double(value);
    // 1 and 2 kept; 3 forgets both and is kept alone; 1 is computed again and kept beside 3; 3 is still kept.
    expect(computed).toEqual([1, 2, 3, 1]);
  });
});
