import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { buildClientSchema, parse, validate, type GraphQLSchema, type IntrospectionQuery } from "graphql";
import { describe, expect, it } from "vitest";

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

/** Every template literal that starts with `#graphql`, as codegen finds them. */
function graphqlDocuments(): Array<{ where: string; document: string }> {
  return sourceFiles(join(root, "app")).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/`\s*#graphql([\s\S]*?)`/g)].map((match) => ({
      where: relative(root, file),
      document: match[1] ?? "",
    })),
  );
}

const schema = loadAdminSchema();
const documents = graphqlDocuments();

describe("the app's Admin GraphQL documents", () => {
  it("GIVEN the app's source THEN it has documents to check", () => {
    expect(documents.length).toBeGreaterThan(0);
  });

  it.each(documents.map((d) => [d.where, d.document.trim().split("\n")[0], d.document] as const))(
    "GIVEN %s (%s) THEN it validates against the Admin schema 2026-10",
    (_where, _first, document) => {
      expect(validate(schema, parse(document)).map((error) => error.message)).toEqual([]);
    },
  );

  it("GIVEN a field the schema lacks THEN validation names it (the check can fail)", () => {
    const errors = validate(schema, parse("query { shop { name weightInStones } }"));
    expect(errors.map((error) => error.message)).toEqual([`Cannot query field "weightInStones" on type "Shop". Did you mean "weightUnit"?`]);
  });
});
