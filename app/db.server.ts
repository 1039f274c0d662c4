import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@prisma/client";
import { config } from "./config.server";

declare global {
  // Survives Vite's module reloads in development, so one process keeps one connection.
  var consignPrisma: PrismaClient | undefined;
}

export function createPrismaClient(databaseUrl: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: databaseUrl }) });
}

const prisma: PrismaClient = (globalThis.consignPrisma ??= createPrismaClient(config().DATABASE_URL));

export default prisma;
