import type Database from "better-sqlite3";
import { GraphQLError } from "graphql";
import { toShopifyDateTime } from "../clock.js";
import { parseGid } from "../gid.js";

/**
 * Shopify's search syntax for `orders(query:)`: terms joined by implicit AND, `OR`, `AND`, `NOT` / leading `-`,
 * parentheses, `field:value` with `field:>value` comparisons, quoted values and free text.
 * Fields: name, id, status, fulfillment_status, financial_status, tag, tag_not, delivery_method, created_at,
 * updated_at, processed_at, sku, email, test. Unknown fields are ignored with a warning, as Shopify does.
 */

export type SearchNode =
  { kind: "and" | "or"; parts: SearchNode[] } | { kind: "not"; part: SearchNode } | { kind: "term"; field: string | null; op: Comparator; value: string };

type Comparator = ":" | ">" | ">=" | "<" | "<=";

export interface SearchWarning {
  field: string;
  message: string;
}

function tokenize(query: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < query.length) {
    const ch = query[i] as string;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === "(" || ch === ")") {
      tokens.push(ch);
      i++;
      continue;
    }
    let token = "";
    while (i < query.length && !/[\s()]/.test(query[i] as string)) {
      if (query[i] === '"' || query[i] === "'") {
        const quote = query[i] as string;
        const close = query.indexOf(quote, i + 1);
        const end = close === -1 ? query.length : close;
        token += query.slice(i, end + 1);
        i = end + 1;
      } else {
        token += query[i];
        i++;
      }
    }
    tokens.push(token);
  }
  return tokens;
}

const unquote = (v: string): string => (/^(["']).*\1$/s.test(v) && v.length >= 2 ? v.slice(1, -1) : v);

function parseTerm(token: string): SearchNode {
  const m = /^([a-z_]+):(>=|<=|>|<)?(.*)$/s.exec(token);
  if (m && m[1]) return { kind: "term", field: m[1], op: (m[2] as Comparator | undefined) ?? ":", value: unquote(m[3] ?? "") };
  return { kind: "term", field: null, op: ":", value: unquote(token) };
}

export function parseSearch(query: string): SearchNode {
  const tokens = tokenize(query);
  let pos = 0;
  const peek = () => tokens[pos];
  const parseOr = (): SearchNode => {
    const parts = [parseAnd()];
    while (peek() === "OR") {
      pos++;
      parts.push(parseAnd());
    }
    return parts.length === 1 ? (parts[0] as SearchNode) : { kind: "or", parts };
  };
  const parseAnd = (): SearchNode => {
    const parts: SearchNode[] = [];
    while (pos < tokens.length && peek() !== ")" && peek() !== "OR") {
      if (peek() === "AND") {
        pos++;
        continue;
      }
      parts.push(parseUnary());
    }
    return parts.length === 1 ? (parts[0] as SearchNode) : { kind: "and", parts };
  };
  const parseUnary = (): SearchNode => {
    const token = tokens[pos++] as string;
    if (token === "NOT") return { kind: "not", part: parseUnary() };
    if (token === "(") {
      const inner = parseOr();
      if (peek() === ")") pos++;
      return inner;
    }
    if (token.startsWith("-") && token.length > 1) return { kind: "not", part: parseTerm(token.slice(1)) };
    return parseTerm(token);
  };
  const tree = parseOr();
  while (pos < tokens.length) {
    // a stray ")" — skip it and keep reading, as a forgiving search box would
    pos++;
    const rest = parseOr();
    return { kind: "and", parts: [tree, rest] };
  }
  return tree;
}

const FULFILLMENT_STATUS: Record<string, string[]> = {
  shipped: ["FULFILLED"],
  fulfilled: ["FULFILLED"],
  unshipped: ["UNFULFILLED"],
  partial: ["PARTIALLY_FULFILLED"],
  unfulfilled: ["UNFULFILLED", "PARTIALLY_FULFILLED", "ON_HOLD", "IN_PROGRESS", "SCHEDULED", "PENDING_FULFILLMENT", "OPEN"],
  on_hold: ["ON_HOLD"],
  scheduled: ["SCHEDULED"],
  in_progress: ["IN_PROGRESS"],
  request_declined: ["REQUEST_DECLINED"],
  restocked: ["RESTOCKED"],
};

const DELIVERY_METHOD: Record<string, string> = {
  shipping: "SHIPPING",
  "pick-up": "PICK_UP",
  pickup: "PICK_UP",
  pick_up: "PICK_UP",
  local: "LOCAL",
  "local-delivery": "LOCAL",
  retail: "RETAIL",
  "pickup-point": "PICKUP_POINT",
  pickup_point: "PICKUP_POINT",
  none: "NONE",
};

const SQL_OP: Record<Exclude<Comparator, ":">, string> = { ">": ">", ">=": ">=", "<": "<", "<=": "<=" };

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Normalises a date or timestamp to the stored form (UTC, second precision). A bare date means its first second. */
function toStoredTime(value: string): string {
  const date = DATE_ONLY.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  if (Number.isNaN(date.getTime())) throw new GraphQLError(`Invalid date '${value}' in search query.`, { extensions: { code: "BAD_REQUEST" } });
  return toShopifyDateTime(date);
}

/** `field:2026-11-20` (a bare date, no comparator) matches that whole UTC day: from its first second to the next day's. */
function wholeDay(op: Comparator, value: string): { start: string; end: string } | null {
  if (op !== ":" || !DATE_ONLY.test(value)) return null;
  const start = toStoredTime(value);
  return { start, end: toShopifyDateTime(Date.parse(start) + 86_400_000) };
}

function timeCondition(column: string, op: Comparator, value: string, params: unknown[]): string {
  const day = wholeDay(op, value);
  if (day) {
    params.push(day.start, day.end);
    return `(${column} >= ? AND ${column} < ?)`;
  }
  params.push(toStoredTime(value));
  return `${column} ${op === ":" ? "=" : SQL_OP[op]} ?`;
}

function termSql(term: Extract<SearchNode, { kind: "term" }>, params: unknown[], warnings: SearchWarning[]): string {
  const value = term.value;
  const lower = value.toLowerCase();
  switch (term.field) {
    case null: {
      const like = `%${value}%`;
      params.push(like, like, like, like, like, like);
      return `(o.name LIKE ? OR COALESCE(o.email, '') LIKE ?
        OR (COALESCE(json_extract(o.shipping_address_json, '$.firstName'), '') || ' ' || COALESCE(json_extract(o.shipping_address_json, '$.lastName'), '')) LIKE ?
        OR COALESCE(json_extract(o.shipping_address_json, '$.company'), '') LIKE ?
        OR COALESCE(o.note, '') LIKE ?
        OR EXISTS (SELECT 1 FROM line_items li WHERE li.order_id = o.id AND (COALESCE(li.sku, '') || ' ' || li.title) LIKE ?))`;
    }
    case "name": {
      const number = Number(value.replace(/^#/, ""));
      params.push(value.startsWith("#") ? value : `#${value}`, Number.isFinite(number) ? number : -1);
      return "(o.name = ? OR o.number = ?)";
    }
    case "id": {
      const id = parseGid(value)?.id ?? Number(value);
      params.push(Number.isFinite(id) ? id : -1);
      return `o.id ${term.op === ":" ? "=" : SQL_OP[term.op]} ?`;
    }
    case "status":
      switch (lower) {
        case "open":
          return "(o.closed = 0 AND o.cancelled_at IS NULL)";
        case "closed":
          return "o.closed = 1";
        case "cancelled":
          return "o.cancelled_at IS NOT NULL";
        case "not_closed":
          return "o.closed = 0";
        case "any":
          return "1 = 1";
        default:
          warnings.push({ field: "status", message: `Invalid value '${value}' for status.` });
          return "1 = 1";
      }
    case "fulfillment_status": {
      if (lower === "any") return "1 = 1";
      const statuses = FULFILLMENT_STATUS[lower];
      if (!statuses) {
        warnings.push({ field: "fulfillment_status", message: `Invalid value '${value}' for fulfillment_status.` });
        return "1 = 1";
      }
      params.push(...statuses);
      return `o.display_fulfillment_status IN (${statuses.map(() => "?").join(", ")})`;
    }
    case "financial_status":
      // Every order in the local admin is paid.
      return lower === "paid" || lower === "any" ? "1 = 1" : "1 = 0";
    case "tag":
    case "tag_not": {
      params.push(value);
      const sql = "EXISTS (SELECT 1 FROM json_each(o.tags_json) t WHERE lower(t.value) = lower(?))";
      return term.field === "tag" ? sql : `NOT ${sql}`;
    }
    case "delivery_method": {
      const method = DELIVERY_METHOD[lower];
      if (!method) {
        warnings.push({ field: "delivery_method", message: `Invalid value '${value}' for delivery_method.` });
        return "1 = 1";
      }
      params.push(method);
      return "EXISTS (SELECT 1 FROM fulfillment_orders fo WHERE fo.order_id = o.id AND fo.delivery_method_type = ?)";
    }
    case "created_at":
    case "updated_at":
    case "processed_at":
      return timeCondition(`o.${term.field}`, term.op, value, params);
    case "sku":
      params.push(value);
      return "EXISTS (SELECT 1 FROM line_items li WHERE li.order_id = o.id AND lower(li.sku) = lower(?))";
    case "email":
      params.push(value);
      return "lower(o.email) = lower(?)";
    case "test":
      return lower === "true" ? "o.test = 1" : "o.test = 0";
    default:
      warnings.push({ field: term.field, message: "Invalid search field for this query." });
      return "1 = 1";
  }
}

function nodeSql(node: SearchNode, params: unknown[], warnings: SearchWarning[]): string {
  switch (node.kind) {
    case "term":
      return termSql(node, params, warnings);
    case "not":
      return `NOT (${nodeSql(node.part, params, warnings)})`;
    case "and":
    case "or":
      return node.parts.length === 0 ? "1 = 1" : `(${node.parts.map((p) => nodeSql(p, params, warnings)).join(node.kind === "and" ? " AND " : " OR ")})`;
  }
}

const SORT_SQL: Record<string, string> = {
  CREATED_AT: "o.created_at",
  PROCESSED_AT: "o.processed_at",
  UPDATED_AT: "o.updated_at",
  ID: "o.id",
  RELEVANCE: "o.id",
  ORDER_NUMBER: "o.number",
  PO_NUMBER: "o.id",
  FINANCIAL_STATUS: "o.id",
  FULFILLMENT_STATUS: "o.display_fulfillment_status",
  TOTAL_PRICE: "(SELECT COALESCE(SUM(CAST(li.price AS REAL) * li.quantity), 0) FROM line_items li WHERE li.order_id = o.id)",
  CURRENT_TOTAL_PRICE: "(SELECT COALESCE(SUM(CAST(li.price AS REAL) * li.quantity), 0) FROM line_items li WHERE li.order_id = o.id)",
  TOTAL_ITEMS_QUANTITY: "(SELECT COALESCE(SUM(li.quantity), 0) FROM line_items li WHERE li.order_id = o.id)",
  CUSTOMER_NAME: "lower(COALESCE(json_extract(o.shipping_address_json, '$.lastName'), ''))",
  DESTINATION: "COALESCE(json_extract(o.shipping_address_json, '$.countryCode'), '')",
};

export interface OrderSearchResult {
  rows: { id: number; sort_value: string | number }[];
  warnings: SearchWarning[];
}

/** Every matching order id with its sort value, sorted ascending by (sort key, id); pagination slices this list. */
export function searchOrders(db: Database.Database, query: string | null | undefined, sortKey: string): OrderSearchResult {
  const params: unknown[] = [];
  const warnings: SearchWarning[] = [];
  const where = query && query.trim() ? nodeSql(parseSearch(query), params, warnings) : "1 = 1";
  const sort = SORT_SQL[sortKey] ?? "o.id";
  const rows = db.prepare(`SELECT o.id AS id, ${sort} AS sort_value FROM orders o WHERE ${where} ORDER BY ${sort}, o.id`).all(...params) as {
    id: number;
    sort_value: string | number;
  }[];
  return { rows, warnings };
}

/**
 * `Order.fulfillments(query:)`, which filters on `created_at` and `updated_at` only (the same search syntax):
 * whether a record with these stored timestamps matches. Terms on other fields are ignored, as Shopify does.
 */
export function matchesTimeSearch(query: string | null | undefined, times: Readonly<Record<"created_at" | "updated_at", string>>): boolean {
  if (!query?.trim()) return true;
  const matches = (node: SearchNode): boolean => {
    switch (node.kind) {
      case "and":
        return node.parts.every(matches);
      case "or":
        return node.parts.some(matches);
      case "not":
        return !matches(node.part);
      case "term": {
        const stored = node.field === "created_at" || node.field === "updated_at" ? times[node.field] : undefined;
        if (stored === undefined) return true;
        const day = wholeDay(node.op, node.value);
        if (day) return stored >= day.start && stored < day.end;
        const bound = toStoredTime(node.value);
        // Stored times are UTC ISO strings of one length, so they compare as strings.
        switch (node.op) {
          case ":":
            return stored === bound;
          case ">":
            return stored > bound;
          case ">=":
            return stored >= bound;
          case "<":
            return stored < bound;
          case "<=":
            return stored <= bound;
        }
      }
    }
  };
  return matches(parseSearch(query));
}
