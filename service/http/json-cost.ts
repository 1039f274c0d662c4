import { MAX_DESCRIPTION_LENGTH } from "../../shipping-api/contract";

/**
 * What a JSON body may cost to parse. No field of the contract takes a string longer than
 * {@link MAX_DESCRIPTION_LENGTH} characters or nests deeper than a few levels, but `JSON.parse` would build a
 * multi-megabyte string or hundreds of thousands of nested arrays before any schema could refuse them, and the
 * garbage raises the service's memory for minutes. So the body's text is scanned first (one pass, no
 * allocation) and such a body is refused as a whole (docs/decisions/009).
 */

/** Deepest nesting of arrays and objects accepted; a Batch Quote body is 7 levels deep. */
export const MAX_JSON_DEPTH = 32;
/** Longest string literal accepted, in characters of the JSON text (escapes included: `\u00e9` is six). */
export const MAX_JSON_STRING_CHARS = 8 * MAX_DESCRIPTION_LENGTH;

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const OPEN_ARRAY = 91;
const OPEN_OBJECT = 123;
const CLOSE_ARRAY = 93;
const CLOSE_OBJECT = 125;
/** Keys longer than this are not kept for the message. */
const KEY_FOR_MESSAGE = 100;

/** Why the JSON text is too costly to parse, naming the field near it; null when it is not. */
export function jsonCostProblem(text: string): string | null {
  let depth = 0;
  let stringStart = -1;
  let lastString = "";
  let key = "";
  const near = () => (key ? ` (in "${key}")` : "");
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (stringStart >= 0) {
      if (index - stringStart > MAX_JSON_STRING_CHARS + 1) {
        return `The body has a string longer than ${MAX_JSON_STRING_CHARS} characters${near()}; no field takes more than ${MAX_DESCRIPTION_LENGTH}`;
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
      if (depth > MAX_JSON_DEPTH) return `The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels${near()}`;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth -= 1;
  }
  return null;
}
