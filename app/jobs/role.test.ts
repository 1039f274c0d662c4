import { describe, expect, it } from "vitest";
import { processRole } from "./role";

describe("CONSIGN_ROLE", () => {
  const postgres = "postgresql://consign@db.internal:5432/consign";

  it("GIVEN nothing set THEN the process serves and works (all), on either database", () => {
    expect(processRole({ DATABASE_URL: "file:./var/consign.sqlite" })).toBe("all");
    expect(processRole({ DATABASE_URL: postgres, CONSIGN_ROLE: " " })).toBe("all");
  });

  it("GIVEN web or worker on PostgreSQL THEN that is the role", () => {
    expect(processRole({ DATABASE_URL: postgres, CONSIGN_ROLE: "web" })).toBe("web");
    expect(processRole({ DATABASE_URL: postgres, CONSIGN_ROLE: "worker" })).toBe("worker");
  });

  it("GIVEN web or worker on SQLite THEN the process refuses to start, saying why", () => {
    expect(() => processRole({ DATABASE_URL: "file:./var/consign.sqlite", CONSIGN_ROLE: "web" })).toThrow(/CONSIGN_ROLE=web needs DATABASE_URL on PostgreSQL/);
    expect(() => processRole({ CONSIGN_ROLE: "worker" })).toThrow(/CONSIGN_ROLE=worker needs DATABASE_URL on PostgreSQL/);
  });

  it("GIVEN an unknown role THEN it is refused naming the choices", () => {
    expect(() => processRole({ DATABASE_URL: postgres, CONSIGN_ROLE: "cron" })).toThrow(/CONSIGN_ROLE must be all, web or worker/);
  });
});
