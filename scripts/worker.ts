// A worker process: runs the app's jobs and schedules, serves no pages (CONSIGN_ROLE=worker). Run as many as
// the work needs beside web processes (CONSIGN_ROLE=web npm start), all on one PostgreSQL database: the queue
// (pg-boss) shares the jobs between them. SIGTERM or SIGINT stops it gracefully. See README, "Running in
// production".
process.env.CONSIGN_ROLE = "worker";
const { applyMemorySettings } = await import("../lib/memory");
applyMemorySettings();
const { isPostgresUrl } = await import("../lib/database-provider");
if (!isPostgresUrl(process.env.DATABASE_URL ?? "")) {
  console.error("worker: a separate worker process needs DATABASE_URL on PostgreSQL; on SQLite `npm start` runs the app's jobs in its own process");
  process.exit(1);
}
const { queueStarted } = await import("../app/startup.server");
await queueStarted();
console.info("[consign] worker: taking jobs");
export {};
