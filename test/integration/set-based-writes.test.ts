import { afterAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db/db-client.server";
import { insertRows, updateRowsById } from "../../app/db/db-batch.server";
import { payloadsWaiting } from "../../app/db/bound-payloads.server";
import { jsonTextAt } from "../../app/db/sql-json";
import { decimalSum, decimalSumText } from "../../app/db/sql-money";
import { bound, sqlTemplate } from "../../app/db/sql-template";
import { sumAmounts } from "../../app/shipping/money";
import { dropAppDatabase, freshAppDatabase } from "../support/app-env";

/**
 * The set-based writes (app/db/db-batch.server.ts) on a real database, SQLite here and PostgreSQL on its tier: rows
 * packed into one JSON value come out of the database as Prisma itself would have written them (dates, nulls,
 * integers, text holding JSON and quotes), each row to its own values, and a condition keeps rows out; and the
 * database's own sums of money as decimal text (app/db/sql-money.ts) and reads of a JSON field (app/db/sql-json.ts).
 */

const url = freshAppDatabase();
const db = createPrismaClient(url);
afterAll(async () => {
  await db.$disconnect();
  dropAppDatabase(url);
});

const SHOP = "set-based.myshopify.com";

describe("set-based writes on the app's database", () => {
  it("GIVEN 2,500 shipments inserted and then updated by id, their rates given as JSON WHEN read through Prisma THEN every row holds its own values exactly", async () => {
    const created = new Date("2026-11-27T10:11:12.345Z");
    const shipments = Array.from({ length: 2_500 }, (_, index) => ({
      id: `shipment-${String(index).padStart(5, "0")}`,
      orderId: `gid://shopify/Order/${index}`,
      orderName: `#${index} “O'Brien” \\ "quoted"`,
      fulfillmentOrderId: `gid://shopify/FulfillmentOrder/${index}`,
      lines: JSON.stringify([{ fulfillmentOrderLineItemId: `line-${index}`, quantity: index % 3 }]),
      // Requests of up to 1.8 KB: 2,500 of them overflow a statement's 512 K characters before its thousand rows.
      request: JSON.stringify({ receiver: { city: "Zürich", name: "李 小龍" }, n: index, padding: "x".repeat((index % 7) * 300) }),
    }));
    // What every row has alike is bound once: text, a null and dates, each cast to its column as a row's own would be.
    const same = { shop: SHOP, quoteStatus: "PENDING", quoteError: null, quotedAt: null, createdAt: created, updatedAt: created };
    const shipmentInserts = insertRows({ db }, "Shipment", shipments, { same });
    expect(shipmentInserts.length).toBeGreaterThan(Math.ceil(shipments.length / 1_000));
    for (const insert of shipmentInserts) await insert;
    const quotedAt = new Date("2026-11-28T00:00:00.001Z");
    // A JSON column given as JSON (its rates), stored as its text: quotes, backslashes and other scripts survive.
    const ratesOf = (index: number) => [
      {
        quoteId: 1_000_000 + index,
        serviceDescription: `Ground “${index}” \\ "fast" 李`,
        totalAmount: `${index}.99`,
        surcharges: [{ description: "Fuel", amount: "0.10" }],
      },
    ];
    const picks = shipments.map((shipment, index) => ({
      id: shipment.id,
      rates: ratesOf(index),
      selectedQuoteId: 1_000_000 + index,
      selectionReason: index % 2 ? "Cheapest" : null,
    }));
    const statements = updateRowsById(
      { db },
      {
        table: "Shipment",
        columns: ["rates", "selectedQuoteId", "selectionReason"],
        rows: picks,
        set: { quoteStatus: "QUOTED", quotedAt },
        // The last 500 are left out by the condition.
        where: [`"fulfillmentOrderId" < 'gid://shopify/FulfillmentOrder/2'`],
      },
    );
    expect(statements.length).toBeGreaterThanOrEqual(3);
    const updated = (await db.$transaction(statements)).reduce((sum, count) => sum + count, 0);
    const expectedUpdated = shipments.filter((shipment) => shipment.fulfillmentOrderId < "gid://shopify/FulfillmentOrder/2").length;
    expect(updated).toBe(expectedUpdated);

    const stored = await db.shipment.findMany({ where: { shop: SHOP }, orderBy: { id: "asc" } });
    expect(stored).toHaveLength(2_500);
    for (const [index, row] of stored.entries()) {
      const given = shipments[index]!;
      const picked = given.fulfillmentOrderId < "gid://shopify/FulfillmentOrder/2";
      expect(row).toMatchObject({
        id: given.id,
        shop: SHOP,
        quoteError: null,
        orderName: given.orderName,
        lines: given.lines,
        request: given.request,
        createdAt: created,
        quoteStatus: picked ? "QUOTED" : "PENDING",
        quotedAt: picked ? quotedAt : null,
        selectedQuoteId: picked ? 1_000_000 + index : null,
        selectionReason: picked ? picks[index]!.selectionReason : null,
        bookingStatus: "NONE",
        fulfillmentAttempts: 0,
      });
      expect(row.updatedAt.getTime()).toBeGreaterThanOrEqual(picked ? created.getTime() + 1 : created.getTime());
      expect(row.rates === null ? null : JSON.parse(row.rates)).toEqual(picked ? ratesOf(index) : null);
    }
    // Every packed payload was bound by the driver in its token's place, and none is held once its statement ran.
    expect(payloadsWaiting()).toBe(0);
    // Dates compare in SQL as Prisma wrote them.
    expect(await db.shipment.count({ where: { shop: SHOP, quotedAt: { lte: quotedAt } } })).toBe(expectedUpdated);
    expect(await db.shipment.count({ where: { shop: SHOP, createdAt: { lt: created } } })).toBe(0);
  });

  it("GIVEN shipments due for signals, two of them made due again since they were read WHEN their due times are cleared matching what was read THEN only the unchanged ones are cleared", async () => {
    const shop = "match.myshopify.com";
    const read = new Date("2026-11-28T09:00:00.123Z");
    const rows = Array.from({ length: 6 }, (_, index) => ({
      id: `due-${index}`,
      orderId: `gid://shopify/Order/due-${index}`,
      orderName: `#${index}`,
      fulfillmentOrderId: `gid://shopify/FulfillmentOrder/due-${index}`,
      lines: "[]",
      request: "{}",
      signalsDueAt: new Date(read.getTime() + index),
    }));
    for (const insert of insertRows({ db }, "Shipment", rows, { same: { shop, createdAt: read, updatedAt: read } })) await insert;
    // Written meanwhile: a later fact makes two of them due again.
    const later = new Date("2026-11-28T09:05:00.000Z");
    await db.shipment.updateMany({ where: { id: { in: ["due-1", "due-4"] } }, data: { signalsDueAt: later } });

    const statements = updateRowsById(
      { db },
      {
        table: "Shipment",
        columns: [],
        rows: rows.map((row) => ({ id: row.id, signalsDueAt: row.signalsDueAt })),
        match: ["signalsDueAt"],
        set: { signalsDueAt: null },
      },
    );
    expect((await db.$transaction(statements)).reduce((sum, count) => sum + count, 0)).toBe(4);
    const stored = await db.shipment.findMany({ where: { shop }, orderBy: { id: "asc" }, select: { id: true, signalsDueAt: true } });
    expect(stored).toEqual(rows.map((row, index) => ({ id: row.id, signalsDueAt: index === 1 || index === 4 ? later : null })));
  });

  it("GIVEN money as decimal text and JSON requests WHEN the database sums and reads them THEN each sum equals the app's exact sum, written alike, and each field is the request's", async () => {
    const shop = "sums.myshopify.com";
    // Amounts a double cannot hold exactly, three decimals, a large one, a negative and a missing cost.
    const groups: Record<string, Array<string | null>> = {
      UPS: ["0.10", "0.20", "0.30", "19.99", "123456789.99"],
      USPS: ["1.005", "2.5", "7", null],
      DHL: ["-2.50", "2.50"],
      FEDEX: ["0.01"],
    };
    const created = new Date("2026-11-28T00:00:00.000Z");
    await db.shipment.createMany({
      data: Object.entries(groups).flatMap(([carrierCode, amounts]) =>
        amounts.map((shippingCost, index) => ({
          shop,
          orderId: `gid://shopify/Order/${carrierCode}-${index}`,
          orderName: `#${index}`,
          fulfillmentOrderId: `gid://shopify/FulfillmentOrder/${carrierCode}-${index}`,
          lines: "[]",
          request: JSON.stringify({ receiver: { country: index % 2 ? "CA" : "US", name: 'O\'Brien "Jr"' } }),
          carrierCode,
          shippingCost,
          createdAt: created,
        })),
      ),
    });
    const spend = decimalSum({ db }, `COALESCE("shippingCost", '0')`);
    const [strings, ...values] = sqlTemplate([
      `SELECT "carrierCode", COUNT(*) AS "labels", ${spend.sum} AS "spend", ${spend.decimals} AS "decimals" FROM "Shipment" WHERE "shop" = `,
      bound(shop),
      ` GROUP BY "carrierCode"`,
    ]);
    const rows = await db.$queryRaw<Array<{ carrierCode: string; labels: number | bigint; spend: string; decimals: number | bigint }>>(strings, ...values);
    const sums = Object.fromEntries(rows.map((row) => [row.carrierCode, decimalSumText({ db }, row.spend, row.decimals)]));
    expect(sums).toEqual(Object.fromEntries(Object.entries(groups).map(([carrier, amounts]) => [carrier, sumAmounts(amounts.map((amount) => amount ?? "0"))])));
    expect(sums).toEqual({ UPS: "123456810.58", USPS: "10.505", DHL: "0.00", FEDEX: "0.01" });

    const [countryStrings, ...countryValues] = sqlTemplate([
      `SELECT ${jsonTextAt({ db }, `"request"`, ["receiver", "country"])} AS "country", COUNT(*) AS "labels" FROM "Shipment" WHERE "shop" = `,
      bound(shop),
      ` GROUP BY 1 ORDER BY 1`,
    ]);
    const countries = await db.$queryRaw<Array<{ country: string; labels: number | bigint }>>(countryStrings, ...countryValues);
    expect(countries.map((row) => [row.country, Number(row.labels)])).toEqual([
      ["CA", 5],
      ["US", 7],
    ]);
  });
});
