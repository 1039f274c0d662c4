import {
  GraphQLSkipDirective,
  GraphQLIncludeDirective,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  isAbstractType,
  isLeafType,
  isListType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

/**
 * Requested query cost by Shopify's published rules:
 * - scalars and enums cost 0, every object 1;
 * - a connection costs 2 + first|last × (cost of one node); its edges, pageInfo and cursor wrappers cost nothing;
 * - a plain list of objects is multiplied by its `first` argument when it has one, `nodes(ids:)` by the ids given,
 *   otherwise it costs like one object;
 * - interfaces and unions cost the maximum over their possible types;
 * - a mutation field costs 10 (in place of the payload object's 1) plus its selection.
 * The figures the domain notes quote (01a ≈ 17 per order, 01b ≈ 108 per FO, 02 ≈ 8 per item) follow from these.
 */

export const MUTATION_BASE_COST = 10;

export function isConnectionType(type: GraphQLNamedType): type is GraphQLObjectType {
  return isObjectType(type) && type.name.endsWith("Connection") && "pageInfo" in type.getFields();
}

/** Edge and PageInfo wrappers are free: their node is charged through the connection's multiplier. */
export function isFreeWrapper(type: GraphQLNamedType): boolean {
  return type.name === "PageInfo" || (isObjectType(type) && type.name.endsWith("Edge") && "cursor" in type.getFields());
}

interface CostContext {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

function included(node: { directives?: readonly unknown[] } & Parameters<typeof getDirectiveValues>[1], ctx: CostContext): boolean {
  const skip = getDirectiveValues(GraphQLSkipDirective, node, ctx.variables);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node, ctx.variables);
  return include?.if !== false;
}

function typeApplies(ctx: CostContext, condition: string | undefined, concrete: GraphQLObjectType): boolean {
  if (!condition || condition === concrete.name) return true;
  const type = ctx.schema.getType(condition);
  return type !== undefined && isAbstractType(type) && ctx.schema.isSubType(type, concrete);
}

/** The fields a selection set selects on one concrete type, fragments expanded. */
function collectFields(ctx: CostContext, selectionSet: SelectionSetNode, concrete: GraphQLObjectType, out: FieldNode[] = []): FieldNode[] {
  for (const selection of selectionSet.selections) {
    if (!included(selection, ctx)) continue;
    if (selection.kind === Kind.FIELD) out.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (typeApplies(ctx, selection.typeCondition?.name.value, concrete)) collectFields(ctx, selection.selectionSet, concrete, out);
    } else {
      const fragment = ctx.fragments[selection.name.value];
      if (fragment && typeApplies(ctx, fragment.typeCondition.name.value, concrete)) collectFields(ctx, fragment.selectionSet, concrete, out);
    }
  }
  return out;
}

/** Cost of a selection set on a composite type (max over possible types when abstract). */
function selectionCost(ctx: CostContext, selectionSet: SelectionSetNode | undefined, type: GraphQLCompositeType): number {
  if (!selectionSet) return 0;
  const concretes: readonly GraphQLObjectType[] = isAbstractType(type) ? ctx.schema.getPossibleTypes(type) : [type as GraphQLObjectType];
  let max = 0;
  for (const concrete of concretes) {
    const fields = concrete.getFields();
    let sum = 0;
    for (const node of collectFields(ctx, selectionSet, concrete)) {
      const def = fields[node.name.value];
      if (def) sum += fieldCost(ctx, def, node, false);
    }
    max = Math.max(max, sum);
  }
  return max;
}

/** Cost of one node of a connection: what `edges { node }` and `nodes` select, once per item. */
function perNodeCost(ctx: CostContext, connectionNode: FieldNode, connection: GraphQLObjectType): number {
  if (!connectionNode.selectionSet) return 0;
  const fields = connection.getFields();
  let sum = 0;
  for (const node of collectFields(ctx, connectionNode.selectionSet, connection)) {
    const def = fields[node.name.value];
    if (!def) continue;
    if (node.name.value === "edges") {
      const edge = getNamedType(def.type);
      if (!isObjectType(edge) || !node.selectionSet) continue;
      const edgeFields = edge.getFields();
      for (const edgeNode of collectFields(ctx, node.selectionSet, edge)) {
        const edgeDef = edgeFields[edgeNode.name.value];
        if (edgeDef && edgeNode.name.value === "node") sum += objectCost(ctx, edgeDef, edgeNode, 1);
      }
    } else if (node.name.value === "nodes") {
      sum += objectCost(ctx, def, node, 1);
    }
  }
  return sum;
}

function objectCost(ctx: CostContext, def: GraphQLField<unknown, unknown>, node: FieldNode, base: number): number {
  const named = getNamedType(def.type);
  if (isLeafType(named)) return 0;
  return base + selectionCost(ctx, node.selectionSet, named as GraphQLCompositeType);
}

export function fieldCost(ctx: CostContext, def: GraphQLField<unknown, unknown>, node: FieldNode, isMutationRoot: boolean): number {
  const named = getNamedType(def.type);
  if (isLeafType(named) || isFreeWrapper(named)) return 0;
  const args = getArgumentValues(def, node, ctx.variables);
  if (isConnectionType(named)) {
    const size = typeof args.first === "number" ? args.first : typeof args.last === "number" ? args.last : 0;
    return 2 + size * perNodeCost(ctx, node, named);
  }
  const base = isMutationRoot ? MUTATION_BASE_COST : 1;
  const single = objectCost(ctx, def, node, base);
  if (!isListType(getNullableType(def.type))) return single;
  if (typeof args.first === "number") return args.first * single;
  if (Array.isArray(args.ids)) return args.ids.length * single;
  return single;
}

/** Requested cost of the operation (0 for introspection-only selections). */
export function requestedCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): number {
  const ctx: CostContext = { schema, fragments, variables };
  const root = operation.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
  if (!root) return 0;
  const fields = root.getFields();
  let total = 0;
  for (const node of collectFields(ctx, operation.selectionSet, root)) {
    const def = fields[node.name.value];
    if (def) total += fieldCost(ctx, def, node, operation.operation === "mutation");
  }
  return total;
}
