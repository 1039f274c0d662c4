import { createPrismaClient } from "./app/db/db-client.server";
import { TRACKED_SELECT } from "./app/tracking/reschedule.server";
const db = createPrismaClient(process.argv[2]!);
await db.shipment.deleteMany({ where: { shop: "rb" } });
const at = new Date("2026-11-23T15:00:00Z");
for (let i = 0; i < 500; i += 100)
  await db.$transaction(Array.from({ length: 100 }, (_, j) => db.shipment.create({ data: { shop: "rb", orderId: "o", orderName: "#" + (i + j), fulfillmentOrderId: "f" + (i + j), lines: "[]", request: "{}", trackingState: "ACTIVE", nextTrackAt: at, bookNumber: "B" + (i + j), fulfillmentId: "F", trackingNumber: "T", bookedAt: at, fulfilledAt: at } as any })));
const cols = Object.keys(TRACKED_SELECT).map((c) => `"${c}"`).join(", ");
async function time(name: string, fn: () => Promise<unknown[]>) {
  for (let w = 0; w < 5; w++) await fn();
  const t = performance.now(); let n = 0;
  for (let r = 0; r < 20; r++) n = (await fn()).length;
  console.log(name, ((performance.now() - t) / 20).toFixed(1), "ms for", n);
}
await time("findMany", () => db.shipment.findMany({ where: { shop: "rb", trackingState: "ACTIVE", nextTrackAt: at }, select: TRACKED_SELECT, orderBy: { id: "asc" } }));
await time("queryRaw", () => db.$queryRawUnsafe<unknown[]>(`SELECT ${cols} FROM "Shipment" WHERE "shop" = ? AND "trackingState" = ? AND "nextTrackAt" = ? ORDER BY "id"`, "rb", "ACTIVE", at));
await db.shipment.deleteMany({ where: { shop: "rb" } });
await db.$disconnect();
