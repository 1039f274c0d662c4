import { describe, expect, it } from "vitest";
import { BarcodeInputError, CODE_B, CODE_C, PATTERNS, START_B, START_C, STOP, barsOf, checksumOf, encodeCode128 } from "./code128";

const widths = (pattern: string) => [...pattern].map(Number);

describe("Code 128 symbol table", () => {
  it("has 107 symbols: 11 modules each, the stop 13", () => {
    expect(PATTERNS).toHaveLength(107);
    PATTERNS.forEach((pattern, value) => {
      expect(widths(pattern).reduce((a, b) => a + b, 0)).toBe(value === STOP ? 13 : 11);
    });
  });

  it("has an even number of bar modules in every symbol (the symbology's parity rule) and no duplicates", () => {
    for (const pattern of PATTERNS) {
      const bars = widths(pattern).filter((_, index) => index % 2 === 0);
      expect(bars.reduce((a, b) => a + b, 0) % 2).toBe(0);
    }
    expect(new Set(PATTERNS).size).toBe(107);
  });

  it.each([
    [0, "212222"], // space " " in set B, "00" in set C
    [33, "111323"], // "A" in set B
    [99, "113141"], // Code C
    [100, "114131"], // Code B
    [103, "211412"], // Start A
    [104, "211214"], // Start B
    [105, "211232"], // Start C
    [106, "2331112"], // Stop with its termination bar
  ])("symbol %i is %s (ISO/IEC 15417 table)", (value, pattern) => {
    expect(PATTERNS[value]).toBe(pattern);
  });
});

describe("encodeCode128", () => {
  it("packs an even run of digits in set C: 1234 → Start C, 12, 34, checksum 82, Stop", () => {
    // (105 + 12×1 + 34×2) mod 103 = 185 mod 103 = 82
    expect(encodeCode128("1234")).toEqual([START_C, 12, 34, 82, STOP]);
  });

  it("encodes text in set B: Wikipedia → checksum 88", () => {
    // 104 + 55 + 2·73 + 3·75 + 4·73 + 5·80 + 6·69 + 7·68 + 8·73 + 9·65 = 3281; 3281 mod 103 = 88
    expect(encodeCode128("Wikipedia")).toEqual([START_B, 55, 73, 75, 73, 80, 69, 68, 73, 65, 88, STOP]);
  });

  it("starts an odd digit run in B and switches to C for the rest", () => {
    const values = encodeCode128("12345");
    expect(values.slice(0, 5)).toEqual([START_B, 17, CODE_C, 23, 45]);
    expect(values.at(-2)).toBe(checksumOf(values.slice(0, -2)));
  });

  it("switches a 1Z number's long digit run into C and back is not needed at the end", () => {
    const values = encodeCode128("1ZSVPIIC0538639223");
    expect(values[0]).toBe(START_B);
    expect(values).toContain(CODE_C);
    expect(values).not.toContain(CODE_B);
    expect(values.slice(-7, -2)).toEqual([5, 38, 63, 92, 23]);
  });

  it("switches C → B when letters follow a leading digit run", () => {
    const values = encodeCode128("123456AB");
    expect(values.slice(0, 6)).toEqual([START_C, 12, 34, 56, CODE_B, 33]);
  });

  it("refuses characters outside printable ASCII and empty input", () => {
    expect(() => encodeCode128("é")).toThrow(BarcodeInputError);
    expect(() => encodeCode128("")).toThrow(BarcodeInputError);
  });

  it("round-trips: reading the bars back gives the symbols", () => {
    const values = encodeCode128("9400123456789012345678");
    const { bars, modules } = barsOf(values);
    expect(modules).toBe(11 * (values.length - 1) + 13);
    // Rebuild element widths from bar positions, then look each 6-element run up in the table.
    const elements: number[] = [];
    bars.forEach((bar, index) => {
      elements.push(bar.width);
      const next = bars[index + 1];
      if (next) elements.push(next.x - (bar.x + bar.width));
    });
    const decoded: number[] = [];
    for (let offset = 0; offset + 6 <= elements.length; offset += 6) {
      const pattern = elements.slice(offset, offset + 6).join("");
      decoded.push(offset + 7 === elements.length ? STOP : PATTERNS.indexOf(pattern));
    }
    expect(decoded).toEqual(values);
  });
});
