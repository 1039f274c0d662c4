import {
  getNamedType,
  Kind,
  parse,
  print,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type DefinitionNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import type { Store } from "../store/store.js";
import { isConnectionType } from "../graphql/cost.js";
import { adminSchema } from "../graphql/schema.js";
import type { GraphqlResponseBody, GraphqlRequest } from "../graphql/executor.js";

/** Runs a query in bulk mode (no first/last needed, no cost limit). Injected to avoid a module cycle with the executor. */
export type BulkExecutor = (request: GraphqlRequest) => Promise<GraphqlResponseBody>;

export const MAX_CONCURRENT_BULK_QUERIES = 5;
const MAX_CONNECTIONS = 5;
const MAX_DEPTH = 2;

type JsonObject = Record<string, unknown>;

/**
 * The query with every fragment spread replaced by the fragment's fields (as an inline fragment on its type),
 * so the rules below count connections, depth and ids where the fragments are used. Runs on a validated
 * document: every spread names a fragment, and fragments do not spread each other in a cycle.
 */
function inlineFragments(document: DocumentNode): DocumentNode {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const inline = (selectionSet: SelectionSetNode): SelectionSetNode =>
    visit(selectionSet, {
      FragmentSpread(spread) {
        const fragment = fragments.get(spread.name.value);
        if (!fragment) return undefined;
        return {
          kind: Kind.INLINE_FRAGMENT,
          typeCondition: fragment.typeCondition,
          directives: spread.directives,
          selectionSet: inline(fragment.selectionSet),
        };
      },
    });
  return {
    ...document,
    definitions: document.definitions.flatMap((definition): DefinitionNode[] => {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) return [];
      return definition.kind === Kind.OPERATION_DEFINITION ? [{ ...definition, selectionSet: inline(definition.selectionSet) }] : [definition];
    }),
  };
}

/** Whether a selection selects `id`, directly or through inline fragments (fragments the query spread). */
function selectsId(selectionSet: SelectionSetNode | undefined): boolean {
  return !!selectionSet?.selections.some(
    (selection) =>
      (selection.kind === Kind.FIELD && selection.name.value === "id") || (selection.kind === Kind.INLINE_FRAGMENT && selectsId(selection.selectionSet)),
  );
}

/**
 * Checks Shopify's bulk query rules: a query, 1–5 connections, nested at most 2 deep, parents of nested
 * connections select id. Fragments count where they are spread, as Shopify counts them.
 */
export function checkBulkQuery(query: string): string | null {
  let parsed: DocumentNode;
  try {
    parsed = parse(query);
  } catch (error) {
    return `Invalid bulk query: ${(error as Error).message}`;
  }
  const schema = adminSchema();
  const errors = validate(schema, parsed);
  if (errors.length > 0) return `Invalid bulk query: ${errors.map((e) => e.message).join("; ")}`;
  const document = inlineFragments(parsed);
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1 || operations[0]?.kind !== Kind.OPERATION_DEFINITION || operations[0].operation !== "query") {
    return "Bulk queries must contain exactly one query operation.";
  }
  const rootFields = operations[0].selectionSet.selections.filter((s) => s.kind === Kind.FIELD);
  if (rootFields.some((f) => f.name.value === "node" || f.name.value === "nodes")) {
    return "Bulk queries cannot contain a top level `node` or `nodes` field.";
  }
  const typeInfo = new TypeInfo(schema);
  let connections = 0;
  let depth = 0;
  let problem: string | null = null;
  const connectionFields = new Set<ASTNode>();
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: {
        enter(node, _key, _parent, _path, ancestors) {
          const type = typeInfo.getType();
          if (!type || !isConnectionType(getNamedType(type))) return;
          connectionFields.add(node);
          connections++;
          depth++;
          if (depth > MAX_DEPTH) problem ??= `Bulk queries cannot contain connections with a nesting depth greater than ${MAX_DEPTH}.`;
          if (depth > 1) {
            const parentField = [...ancestors].reverse().find((a) => !Array.isArray(a) && (a as ASTNode).kind === Kind.FIELD) as FieldNode | undefined;
            if (!selectsId(parentField?.selectionSet))
              problem ??= `The parent 'node' field for a nested connection must select the 'id' field. Connection field: '${node.name.value}'.`;
          }
        },
        leave(node) {
          if (connectionFields.has(node)) depth--;
        },
      },
    }),
  );
  if (connections === 0) return "Bulk queries must contain at least one connection.";
  if (connections > MAX_CONNECTIONS) return `Bulk queries cannot contain more than ${MAX_CONNECTIONS} connections.`;
  return problem;
}

function connectionNodes(value: unknown): JsonObject[] | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const obj = value as JsonObject;
  const keys = Object.keys(obj);
  if (keys.length === 0 || !keys.every((k) => k === "edges" || k === "nodes" || k === "pageInfo")) return null;
  if (Array.isArray(obj.nodes)) return obj.nodes as JsonObject[];
  if (Array.isArray(obj.edges)) return (obj.edges as { node?: JsonObject }[]).map((e) => e.node).filter((n): n is JsonObject => !!n);
  return null;
}

/** Shopify's JSONL layout: one line per object; connection children follow their parent with `__parentId`. */
export function flattenBulkResult(data: JsonObject): { lines: JsonObject[]; roots: number } {
  const lines: JsonObject[] = [];
  let roots = 0;
  const emit = (node: JsonObject, parentId: unknown) => {
    const own: JsonObject = {};
    const children: JsonObject[][] = [];
    for (const [key, value] of Object.entries(node)) {
      const nodes = connectionNodes(value);
      if (nodes) children.push(nodes);
      else own[key] = value;
    }
    if (parentId !== undefined) own.__parentId = parentId;
    lines.push(own);
    for (const list of children) for (const child of list) emit(child, node.id);
  };
  for (const value of Object.values(data)) {
    const nodes = connectionNodes(value);
    if (!nodes) continue;
    for (const node of nodes) {
      roots++;
      emit(node, undefined);
    }
  }
  return { lines, roots };
}

/** Root objects a bulk query reads per page: what the local admin holds of an export at once. */
const BULK_PAGE_SIZE = 1_000;

/**
 * A bulk query whose one root field is a connection, read a page at a time: the field with `first` and `after`
 * (the previous page's end) and its `pageInfo`, as Shopify's own bulk operations walk a connection. Null for any
 * other query, which runs whole.
 */
function pagedBulkQuery(query: string): { page(after: string | null): string; next(data: JsonObject): string | null } | null {
  const document = parse(query);
  const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  const roots = operation?.selectionSet.selections ?? [];
  const root = roots[0];
  if (roots.length !== 1 || root?.kind !== Kind.FIELD) return null;
  const type = adminSchema().getQueryType()?.getFields()[root.name.value]?.type;
  if (!type || !isConnectionType(getNamedType(type))) return null;
  const key = root.alias?.value ?? root.name.value;
  const PageInfo = "pageInfo { hasNextPage endCursor }";
  const pageInfo = parse(`{ ${PageInfo} }`).definitions[0];
  return {
    page(after) {
      const paged = visit(document, {
        Field(field) {
          if (field !== root) return undefined;
          const argument = (name: string, value: ValueNode) => ({ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: name }, value }) as const;
          const kept = (field.arguments ?? []).filter((arg) => arg.name.value !== "first" && arg.name.value !== "after");
          return {
            ...field,
            arguments: [
              ...kept,
              argument("first", { kind: Kind.INT, value: String(BULK_PAGE_SIZE) }),
              ...(after ? [argument("after", { kind: Kind.STRING, value: after })] : []),
            ],
            selectionSet: {
              ...field.selectionSet!,
              selections: [...field.selectionSet!.selections, ...(pageInfo?.kind === Kind.OPERATION_DEFINITION ? pageInfo.selectionSet.selections : [])],
            },
          };
        },
      });
      return print(paged);
    },
    next(data) {
      const info = (data[key] as { pageInfo?: { hasNextPage?: boolean; endCursor?: string | null } } | undefined)?.pageInfo;
      return info?.hasNextPage && info.endCursor ? info.endCursor : null;
    },
  };
}

/**
 * Bulk query operations: CREATED on submit, RUNNING while the query executes in the background a page at a time,
 * COMPLETED with the JSONL stored in the database in parts (served at /bulk-operations/:id/result.jsonl), or FAILED.
 */
export class BulkOperations {
  private running = new Set<Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly executeBulk: BulkExecutor,
  ) {}

  start(query: string): { id: number } | { userError: string; code: string } {
    const problem = checkBulkQuery(query);
    if (problem) return { userError: problem, code: "INVALID" };
    if (this.store.runningBulkOperations() >= MAX_CONCURRENT_BULK_QUERIES) {
      return {
        userError: `A maximum of ${MAX_CONCURRENT_BULK_QUERIES} bulk query operations can run at the same time for this app and shop.`,
        code: "LIMIT_REACHED",
      };
    }
    const id = this.store.insertBulkOperation(query);
    const job = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.run(id, query));
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
    return { id };
  }

  private async run(id: number, query: string): Promise<void> {
    this.store.updateBulkOperation(id, { status: "RUNNING" });
    const failed = () => this.store.updateBulkOperation(id, { status: "FAILED", error_code: "INTERNAL_SERVER_ERROR", completed_at: this.store.now() });
    try {
      const pages = pagedBulkQuery(query);
      let after: string | null = null;
      const counts = { objects: 0, roots: 0, bytes: 0 };
      for (let part = 0; ; part++) {
        const result = await this.executeBulk({ query: pages ? pages.page(after) : query });
        if (result.errors?.length || !result.data) return failed();
        const { lines, roots } = flattenBulkResult(result.data);
        const jsonl = lines.map((line) => `${JSON.stringify(line)}\n`).join("");
        if (jsonl) this.store.appendBulkOperationResult(id, part, jsonl);
        counts.objects += lines.length;
        counts.roots += roots;
        counts.bytes += Buffer.byteLength(jsonl);
        // Shopify's objectCount grows while the operation runs.
        this.store.updateBulkOperation(id, { object_count: counts.objects, root_object_count: counts.roots });
        after = pages?.next(result.data) ?? null;
        if (after === null) break;
        // Pages come one after another with the event loop free between them: the admin answers meanwhile.
        await new Promise((resolve) => setImmediate(resolve));
      }
      this.store.updateBulkOperation(id, { status: "COMPLETED", completed_at: this.store.now(), file_size: counts.bytes });
    } catch {
      failed();
    }
  }

  /** Resolves when no bulk operation is running (for tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
