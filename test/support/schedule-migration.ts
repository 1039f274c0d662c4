/**
 * The rows the migration that moved a followed shipment's schedule into its own table (docs/decisions/055) starts
 * from, in SQL both databases run, and the schedules after it: the SQLite and the PostgreSQL migration are held to the
 * same outcome (test/integration/schedule-migration.test.ts, test/postgres/migrations.test.ts).
 */
export const SCHEDULE_MIGRATION = { sqlite: "20261129070000_tracking_schedule", postgresql: "20261129070734_tracking_schedule" };

const time = (value: string | null) => (value === null ? "NULL" : `'${value}'`);

const shipment = (id: string, trackingState: string, nextTrackAt: string | null, lastTrackedAt: string | null, answerDigest: string | null) =>
  `INSERT INTO "Shipment" ("id", "shop", "orderId", "orderName", "fulfillmentOrderId", "lines", "request", "trackingState", "nextTrackAt", "lastTrackedAt", "answerDigest", "updatedAt")
   VALUES ('${id}', 'shop.myshopify.com', 'gid://shopify/Order/${id}', '#${id}', 'gid://shopify/FulfillmentOrder/${id}', '[]', '{}', '${trackingState}',
           ${time(nextTrackAt)}, ${time(lastTrackedAt)}, ${answerDigest === null ? "NULL" : `'${answerDigest}'`}, '2026-11-20 10:00:00')`;

/**
 * Before the migration: a followed shipment with a settled answer, one delivered, one stopped whose due time was left
 * behind, one stale, and one never written back (no schedule).
 */
export const SCHEDULE_BEFORE = [
  shipment("followed", "ACTIVE", "2026-11-29 08:00:00", "2026-11-29 02:00:00", "digest-1"),
  shipment("delivered", "DELIVERED", null, "2026-11-28 09:30:00", null),
  shipment("stopped", "STOPPED", "2026-11-29 09:00:00", "2026-11-27 12:00:00", null),
  shipment("stale", "STALE", null, "2026-11-10 12:00:00", "digest-2"),
  shipment("unsent", "NONE", null, null, null),
];

/** The schedules after it, by shipment (times as ISO 8601 UTC to the second): due only while followed. */
export const SCHEDULE_AFTER = {
  followed: { shop: "shop.myshopify.com", nextTrackAt: "2026-11-29T08:00:00Z", lastTrackedAt: "2026-11-29T02:00:00Z", answerDigest: "digest-1" },
  delivered: { shop: "shop.myshopify.com", nextTrackAt: null, lastTrackedAt: "2026-11-28T09:30:00Z", answerDigest: null },
  stopped: { shop: "shop.myshopify.com", nextTrackAt: null, lastTrackedAt: "2026-11-27T12:00:00Z", answerDigest: null },
  stale: { shop: "shop.myshopify.com", nextTrackAt: null, lastTrackedAt: "2026-11-10T12:00:00Z", answerDigest: "digest-2" },
};

/** The migrated schedules as rows to compare with SCHEDULE_AFTER, given each database's text of a time in ISO 8601 UTC. */
export function schedulesQuery(isoOf: (column: string) => string): string {
  return `SELECT "id", "shop", ${isoOf(`"nextTrackAt"`)} AS "nextTrackAt", ${isoOf(`"lastTrackedAt"`)} AS "lastTrackedAt", "answerDigest" FROM "TrackingSchedule" ORDER BY "id"`;
}

/** Rows of schedulesQuery keyed by shipment, as SCHEDULE_AFTER is. */
export function byShipment(rows: ReadonlyArray<{ id: string } & Record<string, unknown>>): Record<string, Record<string, unknown>> {
  return Object.fromEntries(rows.map(({ id, ...schedule }) => [id, schedule]));
}
