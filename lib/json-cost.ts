/**
 * What a JSON text may cost to parse. `JSON.parse` builds a multi-megabyte string or hundreds of thousands of
 * nested arrays before any schema can refuse them (and deep nesting overflows the stack of whatever walks the
 * result next), so a body from outside is scanned first, one pass without allocating, and refused as a whole
 * when it nests deeper or holds a longer string than its reader takes (docs/decisions/009). The Shipping API
 * service scans every JSON body (service/http/json-cost.ts), the app every webhook body.
 */

export interface JsonCostLimits {
  /** Deepest nesting of arrays and objects accepted. */
  maxDepth: number;
  /** Longest string literal accepted, in characters of the JSON text (escapes included: `\u00e9` is six). */
  maxStringChars: number;
  /** What the refusal of a long string adds (why no field takes it). */
  stringNote?: string;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const OPEN_ARRAY = 91;
const OPEN_OBJECT = 123;
const CLOSE_ARRAY = 93;
const CLOSE_OBJECT = 125;
/** Keys longer than this are not kept for the message. */
const KEY_FOR_MESSAGE = 100;

/** Why the JSON text is too costly to parse under `limits`, naming the field near it; null when it is not. */
export function jsonCostProblem(text: string, limits: JsonCostLimits): string | null {
  const { maxDepth, maxStringChars } = limits;
  let depth = 0;
  let stringStart = -1;
  let lastString = "";
  let key = "";
  const near = () => (key ? ` (in "${key}")` : "");
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (stringStart >= 0) {
      if (index - stringStart > maxStringChars + 1) {
        return `The body has a string longer than ${maxStringChars} characters${near()}${limits.stringNote ? `; ${limits.stringNote}` : ""}`;
      }
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) {
        lastString = index - stringStart - 1 <= KEY_FOR_MESSAGE ? text.slice(stringStart + 1, index) : "";
        stringStart = -1;
      }
      continue;
    }
    if (code === QUOTE) stringStart = index;
    else if (code === COLON) key = lastString;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth += 1;
      if (depth > maxDepth) return `The body nests arrays and objects deeper than ${maxDepth} levels${near()}`;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth -= 1;
  }
  return null;
}
