import { describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "./db-client.server";
import { idChunks, idsPerStatement } from "./id-lists.server";

describe("id lists in statements", () => {
  it("GIVEN a client the app did not make (an interactive transaction's) THEN SQLite's stricter bound applies, less room for the statement's other values", () => {
    const ctx = { db: {} as PrismaClient };
    expect(idsPerStatement(ctx)).toBe(900);
    const ids = Array.from({ length: 50_000 }, (_, index) => index);
    const chunks = idChunks(ctx, ids);
    expect(chunks).toHaveLength(56);
    expect(chunks.every((chunk) => chunk.length <= 900)).toBe(true);
    expect(chunks.flat()).toEqual(ids);
    expect(idChunks(ctx, [])).toEqual([]);
  });

  it("GIVEN the app's clients THEN each database's own bound, less room for the statement's other values", async () => {
    const sqlite = createPrismaClient("file:./var/never-opened.sqlite");
    const postgres = createPrismaClient("postgresql://nobody@127.0.0.1:1/never-opened");
    expect(idsPerStatement({ db: sqlite })).toBe(900);
    expect(idsPerStatement({ db: postgres })).toBe(32_668);
    await Promise.all([sqlite.$disconnect(), postgres.$disconnect()]);
  });
});
