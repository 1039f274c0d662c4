import { describe, expect, it } from "vitest";
import { exportPieces, jsonlLines } from "./bulk-export";

const fo = (id: number) => JSON.stringify({ id: `gid://shopify/FulfillmentOrder/${id}`, order: { id: `gid://shopify/Order/${id}` } });
const line = (id: number, parent: number) =>
  JSON.stringify({ id: `gid://shopify/FulfillmentOrderLineItem/${id}`, __parentId: `gid://shopify/FulfillmentOrder/${parent}` });
/** Three fulfillment orders with 2, 0 and 1 lines: 6 JSONL lines. */
const EXPORT = [fo(1), line(11, 1), line(12, 1), fo(2), fo(3), line(31, 3)];

async function* each<T>(values: readonly T[]): AsyncGenerator<T> {
  yield* values;
}

async function collect<T>(values: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const value of values) all.push(value);
  return all;
}

describe("the bulk export read in pieces", () => {
  it("GIVEN a body cut in the middle of lines and of a multi-byte character WHEN read THEN the lines come whole, blank ones left out", async () => {
    const bytes = new TextEncoder().encode('{"title":"Zoë"}\n\n{"id":2}\n{"id":3}');
    const cut = [bytes.slice(0, 11), bytes.slice(11, 20), bytes.slice(20)];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of cut) controller.enqueue(part);
        controller.close();
      },
    });
    expect(await collect(jsonlLines(body))).toEqual(['{"title":"Zoë"}', '{"id":2}', '{"id":3}']);
  });

  it("GIVEN pieces of 2 fulfillment orders THEN each ends before the next fulfillment order, with its lines", async () => {
    const pieces = await collect(exportPieces(each(EXPORT), { skip: 0, roots: 2 }));
    expect(pieces.map((piece) => [piece.objects.length, piece.linesThrough])).toEqual([
      [4, 4],
      [2, 6],
    ]);
    expect(pieces[1]!.objects[0]).toEqual(JSON.parse(fo(3)));
  });

  it("GIVEN a sync that saved the first piece WHEN it goes on from its linesThrough THEN it reads the rest and nothing twice", async () => {
    const [first] = await collect(exportPieces(each(EXPORT), { skip: 0, roots: 1 }));
    const rest = await collect(exportPieces(each(EXPORT), { skip: first!.linesThrough, roots: 1 }));
    expect(rest.map((piece) => piece.linesThrough)).toEqual([4, 6]);
    expect([first!, ...rest].flatMap((piece) => piece.objects)).toEqual(EXPORT.map((text) => JSON.parse(text)));
  });
});
