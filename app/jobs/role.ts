import { z } from "zod";
import { isPostgresUrl } from "../../lib/database-provider";

/**
 * CONSIGN_ROLE, what a process does (docs/decisions/011): `all` (the default) serves the app and runs jobs,
 * `web` serves and sends jobs only, `worker` runs jobs only (`npm run worker`). Web and worker processes share
 * the queue of PostgreSQL; on SQLite one process does both.
 */
export const Role = z.enum(["all", "web", "worker"], { error: "CONSIGN_ROLE must be all, web or worker" });
export type Role = z.infer<typeof Role>;

/** The process's role; web and worker on SQLite are refused, saying why. */
export function processRole(env: { CONSIGN_ROLE?: string; DATABASE_URL?: string }): Role {
  const role = Role.parse(env.CONSIGN_ROLE?.trim() || "all");
  if (role !== "all" && !isPostgresUrl(env.DATABASE_URL ?? "")) {
    throw new Error(`CONSIGN_ROLE=${role} needs DATABASE_URL on PostgreSQL: on SQLite one process serves the app and runs its jobs (CONSIGN_ROLE=all)`);
  }
  return role;
}
