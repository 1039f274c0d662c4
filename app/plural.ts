/** "1 shipment", "3 shipments": a count with its noun, made plural with an s. */
export function plural(count: number | bigint, word: string): string {
  return `${count} ${word}${Number(count) === 1 ? "" : "s"}`;
}
