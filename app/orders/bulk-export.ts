/**
 * Reading a bulk operation's JSONL as it downloads, a bounded piece at a time: the order mirror's sync saves
 * each piece before reading on, so a shop's export of any size is never in memory whole.
 */

/** The non-empty lines of a JSONL body, as they arrive. */
export async function* jsonlLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let rest = "";
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const bytes = read.value;
    rest += decoder.decode(bytes, { stream: true });
    const lines = rest.split("\n");
    rest = lines.pop()!;
    for (const line of lines) if (line.trim()) yield line;
  }
  rest += decoder.decode();
  if (rest.trim()) yield rest;
}

/** A piece of the export: its objects, parsed, and how many lines of the export end with it. */
export interface ExportPiece {
  objects: Array<Record<string, unknown>>;
  linesThrough: number;
}

/**
 * The export's lines after the first `skip`, parsed, in pieces of `roots` top-level objects (fulfillment orders)
 * each with the child objects (`__parentId`) that follow it; a piece ends before the next top-level line, so
 * `linesThrough` of any piece is a place to start again from. `skip` must be such a place (0, or a piece's
 * `linesThrough`); the lines before it are counted, not parsed.
 */
export async function* exportPieces(lines: AsyncIterable<string>, { skip, roots }: { skip: number; roots: number }): AsyncGenerator<ExportPiece> {
  let read = 0;
  let objects: Array<Record<string, unknown>> = [];
  let rootsInPiece = 0;
  for await (const line of lines) {
    read++;
    if (read <= skip) continue;
    const object = JSON.parse(line) as Record<string, unknown>;
    const isRoot = object.__parentId === undefined;
    if (isRoot && rootsInPiece === roots) {
      yield { objects, linesThrough: read - 1 };
      objects = [];
      rootsInPiece = 0;
    }
    if (isRoot) rootsInPiece++;
    objects.push(object);
  }
  if (objects.length > 0) yield { objects, linesThrough: read };
}
