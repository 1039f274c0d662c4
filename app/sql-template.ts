/**
 * SQL text and values as a tagged template's arguments, which every generated client's `$executeRaw` and
 * `$queryRaw` bind: each database's client binds the values itself (Dates and booleans as it stores them).
 * A piece is SQL text, or `{ value }` for a bound value.
 */
export function sqlTemplate(pieces: ReadonlyArray<string | { value: unknown }>): [TemplateStringsArray, ...unknown[]] {
  const strings = [""];
  const values: unknown[] = [];
  for (const piece of pieces) {
    if (typeof piece === "string") strings[strings.length - 1] += piece;
    else {
      values.push(piece.value);
      strings.push("");
    }
  }
  return [Object.assign(strings, { raw: [...strings] }), ...values];
}
