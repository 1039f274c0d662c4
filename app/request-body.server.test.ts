import { describe, expect, it } from "vitest";
import { BodyBudget, readBoundedBody, withBudgetedBody } from "./request-body.server";
import { nonFiniteNumberField } from "./webhooks/webhook-payload";

/** A POST whose body is `chunks` chunks of `size` bytes, counting how many of them were pulled. */
function streamedPost(chunks: number, size: number, headers: Record<string, string> = {}) {
  const pulled = { count: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.count === chunks) return controller.close();
      pulled.count += 1;
      controller.enqueue(new Uint8Array(size));
    },
  });
  const request = new Request("http://app.test/webhooks/orders", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  return { request, pulled };
}

async function statusOf(run: () => Promise<unknown>): Promise<number> {
  try {
    await run();
    return 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

describe("readBoundedBody", () => {
  it("GIVEN a body within the limit THEN it is read whole", async () => {
    const { request } = streamedPost(4, 1000);
    expect((await readBoundedBody(request, 4000)).byteLength).toBe(4000);
  });

  it("GIVEN a declared length over the limit THEN 413 before a byte is read", async () => {
    const { request, pulled } = streamedPost(1000, 1000, { "content-length": "1000000" });
    expect(await statusOf(() => readBoundedBody(request, 4000))).toBe(413);
    expect(pulled.count).toBeLessThanOrEqual(1); // the stream's own first pull, never read by the reader
  });

  it("GIVEN a chunked body over the limit THEN 413 once the limit is passed, the rest left unread", async () => {
    const { request, pulled } = streamedPost(1000, 1000);
    expect(await statusOf(() => readBoundedBody(request, 4500))).toBe(413);
    expect(pulled.count).toBeLessThan(10);
  });

  it("GIVEN a Content-Length that is not a length THEN 400", async () => {
    const { request } = streamedPost(1, 10, { "content-length": "12abc" });
    expect(await statusOf(() => readBoundedBody(request, 4500))).toBe(400);
  });
});

describe("withBudgetedBody", () => {
  it("GIVEN bodies in flight filling the budget THEN the next is 503 with Retry-After, unread, and fits again once they are done", async () => {
    const budget = new BodyBudget(10_000);
    let release!: () => void;
    const held = withBudgetedBody(streamedPost(8, 1000).request, 10_000, budget, () => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const { request, pulled } = streamedPost(8, 1000, { "content-length": "8000" });
    const refused = await withBudgetedBody(request, 10_000, budget, async () => new Response()).catch((thrown: unknown) => thrown as Response);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(pulled.count).toBeLessThanOrEqual(1);
    release();
    await held;
    expect(budget.inUse).toBe(0);
    expect(await statusOf(() => withBudgetedBody(streamedPost(8, 1000).request, 10_000, budget, async () => undefined))).toBe(200);
  });
});

describe("nonFiniteNumberField", () => {
  it.each([
    [JSON.parse('{"id":1e400}'), "id"],
    [JSON.parse('{"line_items":[{"price":1},{"price":-1e999}]}'), "line_items[1].price"],
    [JSON.parse("1e400"), ""],
    [JSON.parse('{"id":1,"note":"1e400","nested":[[1.5e300]]}'), null],
  ])("GIVEN %j THEN the field with the number JSON cannot hold is %j", (payload, field) => {
    expect(nonFiniteNumberField(payload)).toBe(field);
  });
});
