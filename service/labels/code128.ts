/**
 * Code 128 (ISO/IEC 15417), encoded here rather than through a library so labels stay small (bars are
 * plain rectangles) and the symbology is under test. Code set C packs digit pairs; code set B carries
 * printable ASCII. Runs of at least four digits (six in the middle of text) switch to C.
 */

/** Bar/space module widths of symbol values 0–106 (106 = stop, with its 2-module termination bar). */
export const PATTERNS: readonly string[] = [
  "212222",
  "222122",
  "222221",
  "121223",
  "121322",
  "131222",
  "122213",
  "122312",
  "132212",
  "221213",
  "221312",
  "231212",
  "112232",
  "122132",
  "122231",
  "113222",
  "123122",
  "123221",
  "223211",
  "221132",
  "221231",
  "213212",
  "223112",
  "312131",
  "311222",
  "321122",
  "321221",
  "312212",
  "322112",
  "322211",
  "212123",
  "212321",
  "232121",
  "111323",
  "131123",
  "131321",
  "112313",
  "132113",
  "132311",
  "211313",
  "231113",
  "231311",
  "112133",
  "112331",
  "132131",
  "113123",
  "113321",
  "133121",
  "313121",
  "211331",
  "231131",
  "213113",
  "213311",
  "213131",
  "311123",
  "311321",
  "331121",
  "312113",
  "312311",
  "332111",
  "314111",
  "221411",
  "431111",
  "111224",
  "111422",
  "121124",
  "121421",
  "141122",
  "141221",
  "112214",
  "112412",
  "122114",
  "122411",
  "142112",
  "142211",
  "241211",
  "221114",
  "413111",
  "241112",
  "134111",
  "111242",
  "121142",
  "121241",
  "114212",
  "124112",
  "124211",
  "411212",
  "421112",
  "421211",
  "212141",
  "214121",
  "412121",
  "111143",
  "111341",
  "131141",
  "114113",
  "114311",
  "411113",
  "411311",
  "113141",
  "114131",
  "311141",
  "411131",
  "211412",
  "211214",
  "211232",
  "2331112",
];

export const START_B = 104;
export const START_C = 105;
export const CODE_B = 100;
export const CODE_C = 99;
export const STOP = 106;

export class BarcodeInputError extends Error {}

function digitRunLength(text: string, from: number): number {
  let end = from;
  while (end < text.length && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
  return end - from;
}

/** Symbol values: start, data (with code-set switches), checksum, stop. */
export function encodeCode128(text: string): number[] {
  if (text.length === 0) throw new BarcodeInputError("Code 128 needs at least one character");
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code < 32 || code > 126) throw new BarcodeInputError(`Code 128 set B cannot encode ${JSON.stringify(char)}`);
  }
  const values: number[] = [];
  let set: "B" | "C";
  const leadingDigits = digitRunLength(text, 0);
  if (leadingDigits === text.length ? leadingDigits >= 2 && leadingDigits % 2 === 0 : leadingDigits >= 4) {
    set = "C";
    values.push(START_C);
  } else {
    set = "B";
    values.push(START_B);
  }
  let i = 0;
  while (i < text.length) {
    const run = digitRunLength(text, i);
    if (set === "C") {
      if (run >= 2) {
        values.push(Number(text.slice(i, i + 2)));
        i += 2;
        continue;
      }
      values.push(CODE_B);
      set = "B";
    }
    const atEnd = i + run === text.length;
    // Switching costs one symbol and saves one per digit pair: worth it from 4 digits at the end, 6 inside.
    if (run >= (atEnd ? 4 : 6)) {
      if (run % 2 === 1) {
        values.push(text.charCodeAt(i) - 32);
        i++;
      }
      values.push(CODE_C);
      set = "C";
      continue;
    }
    values.push(text.charCodeAt(i) - 32);
    i++;
  }
  values.push(checksumOf(values));
  values.push(STOP);
  return values;
}

/** Modulo-103 checksum: start value plus each following value times its position. */
export function checksumOf(valuesFromStart: readonly number[]): number {
  let sum = valuesFromStart[0] ?? 0;
  for (let position = 1; position < valuesFromStart.length; position++) sum += valuesFromStart[position]! * position;
  return sum % 103;
}

export interface Bar {
  /** Offset from the left edge, in modules. */
  x: number;
  width: number;
}

/** The bars (dark elements) of a symbol sequence, with the total width in modules. */
export function barsOf(values: readonly number[]): { bars: Bar[]; modules: number } {
  const bars: Bar[] = [];
  let x = 0;
  for (const value of values) {
    const pattern = PATTERNS[value];
    if (!pattern) throw new BarcodeInputError(`No Code 128 symbol ${value}`);
    for (let element = 0; element < pattern.length; element++) {
      const width = pattern.charCodeAt(element) - 48;
      if (element % 2 === 0) bars.push({ x, width });
      x += width;
    }
  }
  return { bars, modules: x };
}
