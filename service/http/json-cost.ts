import { MAX_DESCRIPTION_LENGTH } from "../../shipping-api/contract";
import { jsonCostProblem as scan } from "../../lib/json-cost";

/**
 * What a JSON body may cost to parse. No field of the contract takes a string longer than
 * {@link MAX_DESCRIPTION_LENGTH} characters or nests deeper than a few levels, but `JSON.parse` would build a
 * multi-megabyte string or hundreds of thousands of nested arrays before any schema could refuse them, and the
 * garbage raises the service's memory for minutes. So the body's text is scanned first (one pass, no
 * allocation, lib/json-cost.ts) and such a body is refused as a whole (docs/decisions/009).
 */

/** Deepest nesting of arrays and objects accepted; a Batch Quote body is 7 levels deep. */
export const MAX_JSON_DEPTH = 32;
/** Longest string literal accepted, in characters of the JSON text (escapes included: `\u00e9` is six). */
export const MAX_JSON_STRING_CHARS = 8 * MAX_DESCRIPTION_LENGTH;

/** Why the JSON body is too costly for the service to parse, naming the field near it; null when it is not. */
export function jsonCostProblem(text: string): string | null {
  return scan(text, { maxDepth: MAX_JSON_DEPTH, maxStringChars: MAX_JSON_STRING_CHARS, stringNote: `no field takes more than ${MAX_DESCRIPTION_LENGTH}` });
}
