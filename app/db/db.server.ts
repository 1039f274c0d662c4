import type { PrismaClient } from "@prisma/client";
import { config } from "../config.server";
import { createPrismaClient } from "./db-client.server";

declare global {
  // Survives Vite's module reloads in development, so one process keeps one connection.
  var consignPrisma: PrismaClient | undefined;
}

const prisma: PrismaClient = (globalThis.consignPrisma ??= createPrismaClient(config().DATABASE_URL));

export default prisma;
