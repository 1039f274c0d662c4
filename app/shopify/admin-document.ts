import type { z } from "zod";

/**
 * Admin GraphQL documents typed by codegen. `npm run codegen` validates every #graphql document in app/
 * against the Admin schema and writes each operation's result and variables types to
 * app/types/admin.generated.d.ts; a document declared as `AdminDocument<XQuery, XQueryVariables>` carries
 * them, so `adminQuery` checks its variables and that its zod schema reads only what the document selects.
 */

declare const operationTypes: unique symbol;

/** A #graphql document (still a string) that carries its generated result and variables types. */
export type AdminDocument<TResult, TVariables> = string & {
  readonly [operationTypes]: { result: TResult; variables: TVariables };
};

/**
 * A result as it arrives: the generated types mark nullable fields optional, but Shopify sends every
 * selected field (null when empty); enums are their string values.
 */
export type AsSent<T> = T extends string
  ? `${T}`
  : T extends number | boolean | null | undefined
    ? T
    : T extends readonly (infer Item)[]
      ? AsSent<Item>[]
      : T extends object
        ? { [K in keyof T]-?: AsSent<Exclude<T[K], undefined>> }
        : T;

/**
 * The schema as `adminQuery` accepts it: only when every result the document can return is input the schema
 * accepts, that is when the schema reads no field the document does not select and allows each field's
 * nulls and values. Otherwise the call fails to compile, naming what the document sends.
 */
export type SchemaFor<TResult, TSchema extends z.ZodType> = TSchema &
  ([AsSent<TResult>] extends [z.input<TSchema>] ? unknown : { readonly "the schema does not accept what the document selects": AsSent<TResult> });

/**
 * Variables as the app passes them: enums as strings (the app keeps Shopify's enum values as strings, such as
 * a tracking event's status, and Shopify answers an unknown value with a GraphQL error naming it).
 */
export type AsInput<T> = T extends string
  ? string
  : T extends number | boolean | null | undefined
    ? T
    : T extends readonly (infer Item)[]
      ? AsInput<Item>[]
      : T extends object
        ? { [K in keyof T]: AsInput<T[K]> }
        : T;

/** The variables argument: optional for a document without required variables. */
export type VariablesFor<TVariables> = Record<string, never> extends TVariables ? [variables?: AsInput<TVariables>] : [variables: AsInput<TVariables>];

/**
 * Ties a schema to a result the gateway does not parse itself (a bulk export reassembled from JSONL): returns
 * the schema, and compiles only when `adminQuery` would accept it for that result.
 */
export function schemaFor<TResult>() {
  return <TSchema extends z.ZodType>(schema: SchemaFor<TResult, TSchema>): TSchema => schema;
}
