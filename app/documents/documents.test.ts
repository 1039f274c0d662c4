import { describe, expect, it } from "vitest";
import { A4, FOUR_BY_SIX, LETTER } from "../../lib/pdf/page-content";
import { readPages, textOffPage } from "../../lib/pdf/read-back";
import { GERMAN_ADDRESS, JAPANESE_ADDRESS, JAPANESE_ADDRESS_PRINTED, SCRIPT_NAMES } from "../../lib/test-addresses";
import { type PackingSlip, renderPackingSlips } from "./packing-slip";
import { type PickListEntry, pickListRows, renderPickList } from "./pick-list";

const created = new Date("2026-11-27T09:00:00Z");

function slip(overrides: Partial<PackingSlip> = {}): PackingSlip {
  return {
    shop: {
      name: "Northwind Candles",
      address: { name: "", company: "", address1: "500 Market St", address2: "Suite 4", city: "San Francisco", state: "CA", zip: "94105", country: "US" },
    },
    orderName: "#1001",
    orderDate: "27 Nov 2026",
    shipTo: { ...GERMAN_ADDRESS, name: "Jürgen Müller-Łukasiewicz" },
    service: "Brownline Parcel International Priority",
    boxes: [
      [
        { product: "Stoneware Mug", variant: "Midnight", sku: "MUG-MID", quantity: 2 },
        { product: "Linen Apron", variant: "Sage", sku: "APR-SAGE", quantity: 1 },
      ],
    ],
    linesPerBox: true,
    note: "Please leave with the neighbour at number 119 if nobody is home.",
    giftMessage: "Alles Gute zum Geburtstag, Oma!",
    ...overrides,
  };
}

const scriptNames = SCRIPT_NAMES;

describe("packing slips", () => {
  it.each([
    ["4×6", FOUR_BY_SIX],
    ["Letter", LETTER],
    ["A4", A4],
  ])(
    "GIVEN an order on %s THEN its slip shows the shop, the order and its date, the ship-to in the destination's format, each line with its variant, SKU and quantity, the note, the gift message and the service, all on the page",
    async (_name, size) => {
      const pages = await readPages(await renderPackingSlips(size, [slip()], created));
      expect(pages).toHaveLength(1);
      expect(pages[0]!.width).toBe(size.width);
      const texts = pages[0]!.runs.map((run) => run.text);
      expect(texts).toEqual(
        expect.arrayContaining([
          "PACKING SLIP",
          "#1001",
          "27 Nov 2026",
          "Northwind Candles",
          "San Francisco, CA 94105",
          "Jürgen Müller-Łukasiewicz",
          "Invalidenstraße 117",
          "10115 Berlin",
          "Germany",
          "+49 30 1234567",
          "Shipping: Brownline Parcel International Priority",
          "2",
          "Stoneware Mug — Midnight",
          "MUG-MID",
          "Linen Apron — Sage",
          "APR-SAGE",
          "3 items",
          "Note",
          "Gift message",
        ]),
      );
      expect(texts.join(" ")).toContain("Please leave with the neighbour at number 119 if nobody is home.");
      expect(texts.join(" ")).toContain("Alles Gute zum Geburtstag, Oma!");
      expect(textOffPage(pages)).toEqual([]);
    },
  );

  it('GIVEN an order split into two boxes THEN one slip per box, each with its own lines and "Box 1 of 2" / "Box 2 of 2"', async () => {
    const split = slip({
      boxes: [
        [{ product: "Stoneware Mug", variant: "Midnight", sku: "MUG-MID", quantity: 2 }],
        [{ product: "Linen Apron", variant: "Sage", sku: "APR-SAGE", quantity: 1 }],
      ],
    });
    const pages = (await readPages(await renderPackingSlips(FOUR_BY_SIX, [split], created))).map((page) => page.runs.map((run) => run.text));
    expect(pages).toHaveLength(2);
    expect(pages[0]).toEqual(expect.arrayContaining(["Box 1 of 2", "MUG-MID", "2 items in this box"]));
    expect(pages[0]).not.toContain("APR-SAGE");
    expect(pages[1]).toEqual(expect.arrayContaining(["Box 2 of 2", "APR-SAGE", "1 item in this box"]));
    expect(pages[1]).not.toContain("MUG-MID");
  });

  it("GIVEN an order split into two boxes without a record of which line went into which THEN each box's slip says \"Box k of 2\" and lists the shipment as the shipment's, not the box's", async () => {
    const lines = slip().boxes[0]!;
    const pages = (await readPages(await renderPackingSlips(FOUR_BY_SIX, [slip({ boxes: [lines, lines], linesPerBox: false })], created))).map((page) =>
      page.runs.map((run) => run.text),
    );
    expect(pages).toHaveLength(2);
    pages.forEach((page, index) => {
      expect(page).toEqual(expect.arrayContaining([`Box ${index + 1} of 2`, "MUG-MID", "APR-SAGE", "3 items in this shipment of 2 boxes"]));
      expect(page.join(" ")).not.toContain("in this box");
    });
  });

  it("GIVEN customers' names in eight scripts, a Japanese address and long lines THEN each prints as written, whole and on its page", async () => {
    const slips = scriptNames.map((name) =>
      slip({
        shipTo: { ...slip().shipTo, name, company: "Großhandel Müller & Söhne Spedition und Logistik Gesellschaft mit beschränkter Haftung" },
        boxes: [
          [
            {
              product: "Hand-thrown stoneware serving bowl with a reactive glaze in midnight blue",
              variant: "Large / 30 cm",
              sku: "BOWL-REACTIVE-MIDNIGHT-LARGE-30CM",
              quantity: 1,
            },
          ],
        ],
      }),
    );
    slips.push(
      slip({
        shipTo: JAPANESE_ADDRESS,
        note: "置き配でお願いします",
        giftMessage: null,
      }),
    );
    const pages = await readPages(await renderPackingSlips(FOUR_BY_SIX, slips, created));
    scriptNames.forEach((name, index) => expect(pages[index]!.runs.map((run) => run.text)).toContain(name));
    const japanese = pages.at(-1)!.runs.map((run) => run.text);
    expect(japanese.slice(japanese.indexOf("〒150-0041"), japanese.indexOf("〒150-0041") + 6)).toEqual(JAPANESE_ADDRESS_PRINTED);
    expect(japanese).toContain("置き配でお願いします");
    expect(pages[0]!.runs.map((run) => run.text).join(" ")).toContain("BOWL-REACTIVE-MIDNIGHT-LARGE-30CM".slice(0, 10));
    expect(textOffPage(pages)).toEqual([]);
  });

  it("GIVEN a long note and a long gift message, one in Japanese without spaces THEN both wrap onto the slip whole, every word on the page, on 4×6 and Letter", async () => {
    const note = "Please leave the parcel with the neighbour at number 12 if nobody is home, not on the porch by the garden gate. ".repeat(4).trim();
    const giftMessage = "お誕生日おめでとうございます。いつもありがとう。これからもよろしくお願いします。".repeat(3);
    for (const size of [FOUR_BY_SIX, LETTER]) {
      const pages = await readPages(await renderPackingSlips(size, [slip({ note, giftMessage })], created));
      const text = pages.flatMap((page) => page.runs.map((run) => run.text));
      const noteAt = text.indexOf("Note");
      const giftAt = text.indexOf("Gift message");
      expect(text.slice(noteAt + 1, giftAt).join(" ")).toBe(note);
      expect(
        text
          .slice(giftAt + 1)
          .filter((line) => !line.startsWith("Page "))
          .join(""),
      ).toBe(giftMessage);
      expect(textOffPage(pages)).toEqual([]);
    }
  });

  it("GIVEN 60 lines THEN the slip runs on over pages, each numbered, every line once", async () => {
    const lines = Array.from({ length: 60 }, (_, index) => ({ product: `Candle ${index + 1}`, variant: "Fig", sku: `CAN-${index + 1}`, quantity: 1 }));
    const pages = await readPages(await renderPackingSlips(FOUR_BY_SIX, [slip({ boxes: [lines], note: null, giftMessage: null })], created));
    expect(pages.length).toBeGreaterThan(2);
    const texts = pages.map((page) => page.runs.map((run) => run.text));
    texts.forEach((page, index) => expect(page).toContain(`Page ${index + 1} of ${pages.length}`));
    for (const line of lines) expect(texts.flat().filter((text) => text === line.sku)).toHaveLength(1);
    expect(textOffPage(pages)).toEqual([]);
  });
});

describe("pick lists", () => {
  const entries: PickListEntry[] = [
    { sku: "MUG-MID", product: "Stoneware Mug", variant: "Midnight", quantity: 2, orderName: "#1001", location: null },
    { sku: "APR-SAGE", product: "Linen Apron", variant: "Sage", quantity: 1, orderName: "#1001", location: null },
    { sku: "MUG-MID", product: "Stoneware Mug", variant: "Midnight", quantity: 1, orderName: "#1002", location: null },
    { sku: "CAN-10", product: "Candle", variant: "Fig", quantity: 3, orderName: "#1003", location: null },
    { sku: "CAN-9", product: "Candle", variant: "Cedar", quantity: 1, orderName: "#1002", location: null },
  ];

  it("GIVEN a batch's lines THEN one row per SKU with the batch's total and the orders that need it, sorted by SKU", () => {
    expect(pickListRows(entries).map((row) => [row.sku, row.total, row.orders.map((order) => `${order.orderName}×${order.quantity}`).join(" ")])).toEqual([
      ["APR-SAGE", 1, "#1001×1"],
      ["CAN-9", 1, "#1002×1"],
      ["CAN-10", 3, "#1003×3"],
      ["MUG-MID", 3, "#1001×2 #1002×1"],
    ]);
  });

  it("GIVEN lines from two locations THEN the rows are grouped by location, then by SKU, and each location is headed", async () => {
    const located = entries.map((entry, index) => ({ ...entry, location: index % 2 === 0 ? "Warehouse B" : "Shop A" }));
    expect(pickListRows(located).map((row) => `${row.location} ${row.sku}`)).toEqual([
      "Shop A APR-SAGE",
      "Shop A CAN-10",
      "Warehouse B CAN-9",
      "Warehouse B MUG-MID",
    ]);
    const [page] = await readPages(await renderPickList(LETTER, { title: "Friday", printed: "27 Nov 2026", entries: located }, created));
    const texts = page!.runs.map((run) => run.text);
    expect(texts.indexOf("Shop A")).toBeLessThan(texts.indexOf("APR-SAGE"));
    expect(texts.indexOf("Warehouse B")).toBeGreaterThan(texts.indexOf("CAN-10"));
    expect(texts.indexOf("Warehouse B")).toBeLessThan(texts.indexOf("CAN-9"));
  });

  it.each([
    ["Letter", LETTER],
    ["4×6", FOUR_BY_SIX],
  ])(
    "GIVEN a batch on %s THEN the pick list prints every SKU, product and variant, total and orders, names in every script, whole and on the page",
    async (_name, size) => {
      const many = [
        ...entries,
        ...scriptNames.map((name, index) => ({
          sku: `GIFT-${index}`,
          product: `Gift card for ${name}`,
          variant: null,
          quantity: 1,
          orderName: `#20${index}`,
          location: null,
        })),
      ];
      const pages = await readPages(await renderPickList(size, { title: "Friday afternoon", printed: "27 Nov 2026", entries: many }, created));
      const texts = pages.flatMap((page) => page.runs.map((run) => run.text));
      expect(texts).toEqual(
        expect.arrayContaining(["PICK LIST", "Friday afternoon", "MUG-MID", "3", "Stoneware Mug — Midnight", "#1001 × 2, #1002", "11 SKUs, 15 units"]),
      );
      // A narrow column wraps a long name at its spaces; read back line by line, it is whole.
      for (const name of scriptNames) expect(texts.join(" ")).toContain(`Gift card for ${name}`);
      expect(textOffPage(pages)).toEqual([]);
    },
  );
});
