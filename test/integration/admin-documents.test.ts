import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { buildClientSchema, Kind, parse, print, validate, type GraphQLSchema, type IntrospectionQuery } from "graphql";
import { describe, expect, it } from "vitest";
import { ORDER_FULFILLMENT_ORDERS, WRITE_BACK_STATE } from "../../app/fulfillment/write-back-documents";
import { FULFILLMENT_ORDERS_TO_SHIP_BULK, ORDER_FOR_SHIPPING } from "../../app/orders/order-documents";

const root = join(import.meta.dirname, "..", "..");

function loadAdminSchema(): GraphQLSchema {
  const file = join(root, "app", "types", "admin-2026-10.schema.json");
  const introspection = JSON.parse(readFileSync(file, "utf8")) as { data: IntrospectionQuery };
  return buildClientSchema(introspection.data);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "types" ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/**
 * Every template literal that starts with `#graphql`, as codegen finds them: interpolations (the fragments an
 * operation sends along) removed, each fragment a document of its own.
 */
function graphqlDocuments(): Array<{ where: string; document: string }> {
  return sourceFiles(join(root, "app")).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/`\s*#graphql([\s\S]*?)`/g)].map((match) => ({
      where: relative(root, file),
      document: (match[1] ?? "").replace(/\$\{[^}]*\}/g, ""),
    })),
  );
}

const schema = loadAdminSchema();
const documents = graphqlDocuments();
const fragments = new Map(
  documents.flatMap(({ document }) =>
    parse(document).definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, print(definition)] as const] : [],
    ),
  ),
);
const operations = documents.filter(({ document }) => parse(document).definitions.some((definition) => definition.kind === Kind.OPERATION_DEFINITION));

/** The fragments a document spreads, and the fragments they spread, by name. */
function spreadFragments(document: string, seen = new Set<string>()): Set<string> {
  for (const [, name] of document.matchAll(/\.\.\.\s*(\w+)/g)) {
    if (!name || name === "on" || seen.has(name) || !fragments.has(name)) continue;
    seen.add(name);
    spreadFragments(fragments.get(name) ?? "", seen);
  }
  return seen;
}

/** An operation with the fragments it uses, as codegen assembles it. */
const withFragments = (document: string) => [document, ...[...spreadFragments(document)].map((name) => fragments.get(name))].join("\n");

describe("the app's Admin GraphQL documents", () => {
  it("GIVEN the app's source THEN it has documents to check", () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  it.each(operations.map((d) => [d.where, d.document.trim().split("\n")[0], d.document] as const))(
    "GIVEN %s (%s) THEN it validates against the Admin schema 2026-10",
    (_where, _first, document) => {
      expect(validate(schema, parse(withFragments(document))).map((error) => error.message)).toEqual([]);
    },
  );

  it.each([...fragments.keys()])("GIVEN the fragment %s THEN an operation uses it", (name) => {
    expect(operations.filter(({ document }) => spreadFragments(document).has(name)).length).toBeGreaterThan(0);
  });

  it.each([
    ["ORDER_FOR_SHIPPING", ORDER_FOR_SHIPPING],
    ["FULFILLMENT_ORDERS_TO_SHIP_BULK", FULFILLMENT_ORDERS_TO_SHIP_BULK],
    ["WRITE_BACK_STATE", WRITE_BACK_STATE],
    ["ORDER_FULFILLMENT_ORDERS", ORDER_FULFILLMENT_ORDERS],
  ])("GIVEN %s as the app sends it (its fragments interpolated) THEN it validates", (_name, document) => {
    expect(validate(schema, parse(document)).map((error) => error.message)).toEqual([]);
  });

  it("GIVEN a field the schema lacks THEN validation names it (the check can fail)", () => {
    const errors = validate(schema, parse("query { shop { name weightInStones } }"));
    expect(errors.map((error) => error.message)).toEqual([`Cannot query field "weightInStones" on type "Shop". Did you mean "weightUnit"?`]);
  });
});
