/** A piece of SQL: text as written, or a value the database's client binds. */
export type SqlPiece = string | { value: unknown };

/** A value to bind, as a piece of SQL. */
export const bound = (value: unknown): SqlPiece => ({ value });

/** `(a, b, c)` of bound values. */
export function boundList(values: readonly unknown[]): SqlPiece[] {
  return ["(", ...values.flatMap((value, index) => [index === 0 ? "" : ", ", bound(value)]), ")"];
}

/**
 * SQL text and values as a tagged template's arguments, which every generated client's `$executeRaw` and
 * `$queryRaw` bind: each database's client binds the values itself (Dates and booleans as it stores them).
 */
export function sqlTemplate(pieces: readonly SqlPiece[]): [TemplateStringsArray, ...unknown[]] {
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
