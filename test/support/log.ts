import { pino, type Logger } from "pino";

/**
 * The logger of the contexts and job queues tests build: quiet unless a run asks (LOG_LEVEL=debug npx vitest
 * run …), as the app's own is under NODE_ENV=test (app/config.server.ts).
 */
export const testLog: Logger = pino({ level: process.env.LOG_LEVEL?.trim() || "silent" });
