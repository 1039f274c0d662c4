import { GraphQLError } from "graphql";

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  reverse?: boolean | null;
}

export interface PageContext {
  /** Bulk operations read whole connections: first/last are neither required nor capped. */
  bulk: boolean;
}

export const MAX_PAGE_SIZE = 250;

/** Shopify-style opaque cursor: base64 of {"last_id":…,"last_value":…}. */
export function encodeCursor(id: number, value: string | number = id): string {
  return Buffer.from(JSON.stringify({ last_id: id, last_value: String(value) })).toString("base64");
}

export function decodeCursor(cursor: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64").toString("utf8")) as { last_id?: unknown };
    if (typeof parsed.last_id === "number") return parsed.last_id;
  } catch {
    // fall through to the Shopify-shaped error
  }
  throw new GraphQLError(`Invalid cursor for current pagination sort.`, { extensions: { code: "BAD_REQUEST" } });
}

/** Checks Shopify's connection arguments: one of first/last is required (outside bulk), at most 250. */
export function checkPageArgs(args: ConnectionArgs, ctx: PageContext): void {
  if (ctx.bulk) return;
  if (args.first == null && args.last == null) throw new GraphQLError("you must provide one of first or last");
  for (const key of ["first", "last"] as const) {
    const n = args[key];
    if (n != null && (n < 0 || n > MAX_PAGE_SIZE)) {
      throw new GraphQLError(`The '${key}' argument must be between 0 and ${MAX_PAGE_SIZE}.`, { extensions: { code: "BAD_REQUEST" } });
    }
  }
}

/**
 * Cursor pagination over an already sorted list of rows (Relay semantics as Shopify implements them):
 * `reverse` flips the order, after/before cut by cursor, first/last take from either end.
 */
export function paginate<T extends { id: number }>(
  sorted: readonly T[],
  args: ConnectionArgs,
  ctx: PageContext,
  toNode: (row: T) => unknown,
  valueOf: (row: T) => string | number = (row) => row.id,
): Record<string, unknown> {
  checkPageArgs(args, ctx);
  const all = args.reverse ? [...sorted].reverse() : [...sorted];
  const index = new Map(all.map((row, i) => [row.id, i]));
  let start = 0;
  let end = all.length;
  if (args.after) {
    const i = index.get(decodeCursor(args.after));
    if (i === undefined) throw new GraphQLError("Invalid cursor for current pagination sort.");
    start = i + 1;
  }
  if (args.before) {
    const i = index.get(decodeCursor(args.before));
    if (i === undefined) throw new GraphQLError("Invalid cursor for current pagination sort.");
    end = Math.min(end, i);
  }
  if (args.first != null) end = Math.min(end, start + args.first);
  if (args.last != null) start = Math.max(start, end - args.last);
  const page = start < end ? all.slice(start, end) : [];
  const edges = page.map((row) => ({ cursor: encodeCursor(row.id, valueOf(row)), node: toNode(row) }));
  return {
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage: end < all.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}
