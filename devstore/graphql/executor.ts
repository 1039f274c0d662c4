import {
  execute,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  isLeafType,
  isListType,
  Kind,
  parse,
  validate,
  visit,
  type ASTNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLFieldResolver,
  type GraphQLTypeResolver,
} from "graphql";
import type { Store } from "../store/store.js";
import { isConnectionType, isFreeWrapper, MUTATION_BASE_COST, requestedCost } from "./cost.js";
import { mutationRoot, queryRoot } from "./root.js";
import { adminSchema } from "./schema.js";
import { DEFAULT_THROTTLE, type CostBucket } from "./throttle.js";
import type { ResolverContext, View } from "./views.js";

export interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

export interface ExecuteOptions {
  store: Store;
  origin: string;
  startBulkOperation: ResolverContext["startBulkOperation"];
  /** Bulk mode: connections need no first/last, no cost limit, no throttling. */
  bulk?: boolean;
  bucket?: CostBucket;
  maxQueryCost?: number;
  /** The scopes of the access token the request came with; fields that need another are refused (ACCESS_DENIED). */
  grantedScopes: ReadonlySet<string>;
}

export interface ShopifyError {
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

export interface GraphqlResponseBody {
  data?: Record<string, unknown> | null;
  errors?: ShopifyError[];
  extensions?: Record<string, unknown>;
}

const DOCS_RATE_LIMITS = "https://shopify.dev/api/usage/rate-limits";

interface CostTally {
  actual: number;
}

/**
 * Field resolver for every type: a view property answers the field (functions are called with args and context);
 * anything else is an explicit "not supported" error, never a silent null. It also tallies the actual cost of
 * what was returned, by the same rules as the requested cost.
 */
function strictResolver(tally: CostTally): GraphQLFieldResolver<unknown, ResolverContext> {
  return (source, args, ctx, info) => {
    if (source === null || typeof source !== "object" || !Object.prototype.hasOwnProperty.call(source, info.fieldName)) {
      throw new GraphQLError(`Field '${info.fieldName}' on type '${info.parentType.name}' is not supported by the local admin`, {
        extensions: { code: "NOT_SUPPORTED_BY_LOCAL_ADMIN" },
      });
    }
    const raw = (source as View)[info.fieldName];
    const value = typeof raw === "function" ? (raw as (a: unknown, c: ResolverContext) => unknown)(args, ctx) : raw;
    const result = value === undefined ? null : value;
    const named = getNamedType(info.returnType);
    if (info.parentType === info.schema.getMutationType()) tally.actual += MUTATION_BASE_COST;
    else if (isConnectionType(named)) tally.actual += 2;
    else if (!isLeafType(named) && !isFreeWrapper(named) && result !== null) {
      tally.actual += isListType(getNullableType(info.returnType)) && Array.isArray(result) ? result.filter((v) => v != null).length : 1;
    }
    return result;
  };
}

const typeResolver: GraphQLTypeResolver<unknown, ResolverContext> = (value) =>
  value && typeof value === "object" && "__typename" in value ? String((value as { __typename: unknown }).__typename) : undefined;

/** The response path Shopify reports for a validation error: operation, then field names down to the node. */
function astPath(document: DocumentNode, target: ASTNode): string[] | undefined {
  const stack: string[] = [];
  let found: string[] | undefined;
  visit(document, {
    enter(node) {
      if (found) return false;
      if (node.kind === Kind.OPERATION_DEFINITION) stack.push(node.name ? `${node.operation} ${node.name.value}` : node.operation);
      else if (node.kind === Kind.FRAGMENT_DEFINITION) stack.push(`fragment ${node.name.value}`);
      else if (node.kind === Kind.FIELD) stack.push(node.alias?.value ?? node.name.value);
      else if (node.kind === Kind.INLINE_FRAGMENT) stack.push(`... on ${node.typeCondition?.name.value ?? ""}`.trim());
      if (node === target) found = [...stack];
      return undefined;
    },
    leave(node) {
      if ([Kind.OPERATION_DEFINITION, Kind.FRAGMENT_DEFINITION, Kind.FIELD, Kind.INLINE_FRAGMENT].includes(node.kind as never)) stack.pop();
    },
  });
  return found;
}

const VALIDATION_CODES: [RegExp, string][] = [
  [/^Unknown argument "/, "argumentNotAccepted"],
  [/argument ".*" of type ".*" is required/, "missingRequiredArguments"],
  [/^Variable "\$.*" is never used/, "variableNotUsed"],
  [/^Variable "\$.*" is not defined/, "undefinedVariable"],
  [/^Unknown type "/, "undefinedType"],
  [/must have a selection of subfields/, "selectionMismatch"],
  [/must not have a selection since type/, "selectionMismatch"],
  [/^Unknown fragment "/, "undefinedFragment"],
  [/cannot be spread here/, "fragmentSpreadTypeMismatch"],
  [/^Expected value of type|cannot represent/, "argumentLiteralsIncompatible"],
];

/** graphql-js validation errors in Shopify's shape (unknown field → "Field 'x' doesn't exist on type 'Y'", undefinedField). */
function shopifyValidationError(document: DocumentNode, error: GraphQLError): ShopifyError {
  const locations = error.locations?.map((l) => ({ line: l.line, column: l.column }));
  const node = error.nodes?.[0];
  const path = node ? astPath(document, node) : undefined;
  const unknownField = /^Cannot query field "([^"]+)" on type "([^"]+)"\./.exec(error.message);
  if (unknownField) {
    const [, fieldName, typeName] = unknownField;
    return {
      message: `Field '${fieldName}' doesn't exist on type '${typeName}'`,
      locations,
      path,
      extensions: { code: "undefinedField", typeName, fieldName },
    };
  }
  const code = VALIDATION_CODES.find(([re]) => re.test(error.message))?.[1] ?? "validationFailed";
  return { message: error.message, locations, path, extensions: { code } };
}

function toShopifyError(error: GraphQLError): ShopifyError {
  const json = error.toJSON();
  return {
    message: json.message,
    ...(json.locations ? { locations: json.locations.map((l) => ({ line: l.line, column: l.column })) } : {}),
    ...(json.path ? { path: [...json.path] } : {}),
    ...(json.extensions && Object.keys(json.extensions).length > 0 ? { extensions: { ...json.extensions } } : {}),
  };
}

type CheckedDocument = { document: DocumentNode; validationErrors: readonly GraphQLError[] } | { parseError: GraphQLError };

/**
 * Documents already parsed and validated against the schema, by their text. An app sends the same few documents
 * over and over, and validating one against the Admin schema's thousands of types is most of what answering it
 * costs (graphql-js lists every type name for each document). Only valid documents are kept, at most
 * CHECKED_DOCUMENTS_KEPT of them; the oldest is dropped first.
 */
const checkedDocuments = new Map<string, CheckedDocument>();
const CHECKED_DOCUMENTS_KEPT = 500;

function checkedDocument(query: string): CheckedDocument {
  const kept = checkedDocuments.get(query);
  if (kept) return kept;
  let checked: CheckedDocument;
  try {
    const document = parse(query);
    checked = { document, validationErrors: validate(adminSchema(), document) };
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    checked = { parseError: error };
  }
  if ("document" in checked && checked.validationErrors.length === 0) {
    if (checkedDocuments.size >= CHECKED_DOCUMENTS_KEPT) checkedDocuments.delete(checkedDocuments.keys().next().value!);
    checkedDocuments.set(query, checked);
  }
  return checked;
}

/** Executes one Admin GraphQL request against the real schema: validation, cost, throttling, execution, cost refund. */
export async function executeAdminGraphql(request: GraphqlRequest, options: ExecuteOptions): Promise<GraphqlResponseBody> {
  const schema = adminSchema();
  const bucket = options.bulk ? undefined : options.bucket;
  const costExtension = (requested: number, actual: number | null) =>
    bucket ? { cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: bucket.status() } } : {};

  const checked = checkedDocument(request.query);
  if ("parseError" in checked) {
    return { errors: [{ ...toShopifyError(checked.parseError), extensions: { code: "PARSE_ERROR" } }], extensions: costExtension(0, 0) };
  }
  const { document, validationErrors } = checked;
  if (validationErrors.length > 0) {
    return { errors: validationErrors.map((e) => shopifyValidationError(document, e)), extensions: costExtension(0, 0) };
  }
  const operation = getOperationAST(document, request.operationName ?? undefined);
  if (!operation) {
    const message = request.operationName ? `No operation named "${request.operationName}"` : "An operation name is required";
    return { errors: [{ message, extensions: { code: "OPERATION_NOT_FOUND" } }], extensions: costExtension(0, 0) };
  }
  if (operation.operation === "subscription") {
    return { errors: [{ message: "Subscriptions are not supported by the Admin API" }], extensions: costExtension(0, 0) };
  }
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {});
  if (coerced.errors) {
    return {
      errors: coerced.errors.map((e) => ({ ...toShopifyError(e), extensions: { code: "INVALID_VARIABLE" } })),
      extensions: costExtension(0, 0),
    };
  }
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;

  const requested = options.bulk ? 0 : requestedCost(schema, operation, fragments, coerced.coerced);
  const maxCost = options.maxQueryCost ?? DEFAULT_THROTTLE.maxQueryCost;
  if (!options.bulk && requested > maxCost) {
    return {
      errors: [
        {
          message:
            `Query cost is ${requested}, which exceeds the single query max cost limit (${maxCost}).\n\n` +
            `See ${DOCS_RATE_LIMITS} for more information on how the\ncost of a query is calculated.\n\n` +
            "To query larger amounts of data with fewer limits, bulk operations should be used instead.\n" +
            "See https://shopify.dev/tutorials/perform-bulk-operations-with-admin-api for usage details.\n",
          extensions: { code: "MAX_COST_EXCEEDED", cost: requested, maxCost },
        },
      ],
      extensions: costExtension(requested, null),
    };
  }
  if (bucket && !bucket.tryCharge(requested)) {
    return {
      errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: DOCS_RATE_LIMITS } }],
      extensions: costExtension(requested, null),
    };
  }

  const tally: CostTally = { actual: 0 };
  const context: ResolverContext = {
    store: options.store,
    origin: options.origin,
    bulk: options.bulk === true,
    startBulkOperation: options.startBulkOperation,
    searchExtensions: [],
    grantedScopes: options.grantedScopes,
  };
  const rootValue = operation.operation === "mutation" ? mutationRoot(options.store) : queryRoot(options.store);
  const result = await execute({
    schema,
    document,
    rootValue,
    contextValue: context,
    variableValues: request.variables ?? {},
    operationName: request.operationName ?? undefined,
    fieldResolver: strictResolver(tally),
    typeResolver,
  });
  const actual = Math.min(tally.actual, requested || tally.actual);
  bucket?.refund(requested - actual);
  const body: GraphqlResponseBody = { data: (result.data as Record<string, unknown> | null | undefined) ?? null };
  if (result.errors?.length) body.errors = result.errors.map(toShopifyError);
  body.extensions = {
    ...costExtension(requested, actual),
    ...(context.searchExtensions.length > 0 ? { search: context.searchExtensions } : {}),
  };
  return body;
}
