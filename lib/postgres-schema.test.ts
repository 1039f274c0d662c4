import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { postgresSchemaFrom, SCHEMA_PAIRS, SchemaConversionError } from "./postgres-schema";

// The drift check: each committed PostgreSQL schema is exactly what its SQLite source generates, so models,
// fields, defaults, relations and indexes cannot differ between the two databases. After editing a SQLite
// schema: `npm run db:postgres-migration -- <name>` (README, "Databases").
describe("the PostgreSQL schemas", () => {
  it.each(Object.entries(SCHEMA_PAIRS))("GIVEN the %s's SQLite schema THEN the committed PostgreSQL schema is generated from it", (_which, pair) => {
    const expected = postgresSchemaFrom(readFileSync(pair.source, "utf8"), pair);
    expect(readFileSync(pair.target, "utf8"), "run `npm run db:postgres-migration -- <name>` after changing the SQLite schema").toBe(expected);
  });

  it("GIVEN the generated clients THEN the PostgreSQL one has the SQLite one's models and fields (npm install generates both)", () => {
    const require = createRequire(import.meta.url);
    const sqlite = (require("@prisma/client") as typeof import("@prisma/client")).Prisma.dmmf.datamodel;
    const postgres = (require(".prisma/postgres-client") as typeof import(".prisma/postgres-client")).Prisma.dmmf.datamodel;
    expect(postgres.models.map((model) => model.name)).toEqual(sqlite.models.map((model) => model.name));
    expect(postgres).toEqual(sqlite);
  });

  it("GIVEN a schema whose datasource is not SQLite THEN it is refused, naming the file", () => {
    const pair = { source: "elsewhere/schema.prisma", clientOutput: "out" };
    expect(() => postgresSchemaFrom('datasource db {\n  provider = "mysql"\n}\n', pair)).toThrowError(SchemaConversionError);
    expect(() => postgresSchemaFrom('datasource db {\n  provider = "sqlite"\n}\n', pair)).toThrowError(/elsewhere\/schema.prisma: no `generator client`/);
  });

  it("GIVEN a SQLite schema THEN only the provider and the client's output change", () => {
    const source =
      'generator client {\n  provider   = "prisma-client-js"\n  engineType = "client"\n  output     = "../generated/prisma"\n}\n\ndatasource db {\n  provider = "sqlite"\n  url      = env("X")\n}\n\nmodel A {\n  id String @id\n  @@index([id])\n}\n';
    const target = postgresSchemaFrom(source, { source: "s", clientOutput: "../pg" });
    expect(target).toContain('provider = "postgresql"');
    expect(target).toContain('output     = "../pg"');
    expect(target).not.toContain("../generated/prisma");
    expect(target.slice(target.indexOf("url "))).toBe(source.slice(source.indexOf("url ")));
  });
});
