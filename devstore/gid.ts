import { GraphQLError } from "graphql";

/** Shopify global ids: `gid://shopify/Order/1001`. */
export function toGid(type: string, id: number | bigint): string {
  return `gid://shopify/${type}/${id}`;
}

export interface ParsedGid {
  type: string;
  id: number;
}

const GID = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)(\?.*)?$/;

export function parseGid(gid: string): ParsedGid | null {
  const m = GID.exec(gid);
  if (!m || !m[1] || !m[2]) return null;
  return { type: m[1], id: Number(m[2]) };
}

/** Like Shopify: a malformed global id is a top-level error. */
export function parseGidOrThrow(gid: string): ParsedGid {
  const parsed = parseGid(gid);
  if (!parsed) throw new GraphQLError(`Invalid global id '${gid}'`, { extensions: { code: "INVALID_GLOBAL_ID" } });
  return parsed;
}

/** The id of a global id of `expectedType`; a well-formed one of another type finds nothing (null), like Shopify. */
export function requireGid(gid: string, expectedType: string): number | null {
  const parsed = parseGidOrThrow(gid);
  return parsed.type === expectedType ? parsed.id : null;
}
