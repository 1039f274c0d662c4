/**
 * `compute` with its answers kept by `keyOf(...args)`: for a pure function called again and again on the same few
 * inputs in a hot loop (a quote run checks thousands of addresses and compares thousands of rates). At most `limit`
 * answers are kept; reaching it forgets them all, so the memory never grows past it.
 */
export function keptAnswers<Args extends unknown[], Value>(
  limit: number,
  keyOf: (...args: Args) => string,
  compute: (...args: Args) => Value,
): (...args: Args) => Value {
  const kept = new Map<string, Value>();
  return (...args) => {
    const key = keyOf(...args);
    if (kept.has(key)) return kept.get(key)!;
    const value = compute(...args);
    if (kept.size >= limit) kept.clear();
    kept.set(key, value);
    return value;
  };
}
