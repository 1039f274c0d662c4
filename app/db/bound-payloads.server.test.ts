import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { boundValue, payloadToken, payloadsWaiting, sqliteBindingPayloads } from "./bound-payloads.server";

describe("bound payloads (docs/decisions/049)", () => {
  it("GIVEN a payload's token WHEN a connection made to bind payloads binds it THEN the statement reads the payload, once", () => {
    const connection = sqliteBindingPayloads(new Database(":memory:"));
    const payload = JSON.stringify(Array.from({ length: 2_000 }, (_, index) => [`row-${index}`, `“${index}” \\ 李`]));
    const waiting = payloadsWaiting();
    const token = payloadToken(payload);
    expect(token).not.toContain(payload.slice(0, 10));
    expect(payloadsWaiting()).toBe(waiting + 1);

    const rows = connection
      .prepare(`SELECT json_extract("value", '$[0]') AS "id", json_extract("value", '$[1]') AS "text" FROM json_each(?)`)
      .bind([token])
      .all();
    expect(rows).toHaveLength(2_000);
    expect(rows[1_999]).toEqual({ id: "row-1999", text: "“1999” \\ 李" });
    expect(payloadsWaiting()).toBe(waiting);
    // Bound once: a second statement binding the same token is refused rather than given nothing.
    expect(() => connection.prepare("SELECT ?").bind([token])).toThrow(/bound twice/);
  });

  it("GIVEN values that are not tokens, one starting as a token would but not this process's WHEN bound THEN each goes as given", () => {
    const connection = sqliteBindingPayloads(new Database(":memory:"));
    const lookalike = "\u0000consign-bound-payload:someone-else:1";
    expect(boundValue(lookalike)).toBe(lookalike);
    expect(connection.prepare("SELECT ? AS a, ? AS b, ? AS c").bind("plain", 7, null).get()).toEqual({ a: "plain", b: 7, c: null });
  });
});
