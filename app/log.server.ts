import { pino, type Logger } from "pino";
import { config, logLevel } from "./config.server";

const globalState = globalThis as typeof globalThis & { consignLog?: Logger };

/**
 * The process's logger (pino, JSON lines): the composition root hands it out on every Context (`ctx.log`, its
 * lines naming the shop) and on the job queue's services (naming the job); domain code never imports it.
 * Its level is LOG_LEVEL (app/config.server.ts): `info` by default, `silent` in tests unless a test asks.
 */
export function processLog(): Logger {
  globalState.consignLog ??= pino({ level: logLevel(config()), base: { app: "consign" } });
  return globalState.consignLog;
}
