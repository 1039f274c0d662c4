import { describe, expect, it } from "vitest";
import { insensitiveTextMatches } from "./db-client.server";

describe("text matching on PostgreSQL as on SQLite", () => {
  it("GIVEN text matches anywhere in a query THEN each becomes case-insensitive, and nothing else changes", () => {
    const at = new Date("2026-11-24T00:00:00Z");
    const args = {
      where: {
        shop: "a.myshopify.com",
        createdAt: { gte: at },
        OR: [{ name: { contains: "#10" } }, { email: { startsWith: "Ann", not: null } }, { tags: { endsWith: "x", mode: "default" } }],
        status: { in: ["OPEN"] },
      },
      include: { quotes: { where: { carrierCode: { contains: "mrx" } } } },
      data: { note: "contains" },
      take: 50,
    };
    expect(insensitiveTextMatches(args)).toEqual({
      where: {
        shop: "a.myshopify.com",
        createdAt: { gte: at },
        OR: [
          { name: { contains: "#10", mode: "insensitive" } },
          { email: { startsWith: "Ann", not: null, mode: "insensitive" } },
          { tags: { endsWith: "x", mode: "default" } },
        ],
        status: { in: ["OPEN"] },
      },
      include: { quotes: { where: { carrierCode: { contains: "mrx", mode: "insensitive" } } } },
      data: { note: "contains" },
      take: 50,
    });
    expect((insensitiveTextMatches({ where: { createdAt: { gte: at } } }) as { where: { createdAt: { gte: Date } } }).where.createdAt.gte).toBe(at);
  });

  it("GIVEN a query without text matches THEN its arguments are passed on as they are, not copied", () => {
    const rows = Array.from({ length: 3 }, (_, index) => ({ id: `q${index}`, surcharges: "[]", createdAt: new Date() }));
    const args = { data: rows };
    expect(insensitiveTextMatches(args)).toBe(args);
    const where = { where: { shop: "a", id: { in: ["x"] } }, orderBy: { createdAt: "asc" } };
    expect(insensitiveTextMatches(where)).toBe(where);
  });
});
