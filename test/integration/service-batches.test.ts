import { describe, expect, it } from "vitest";
import { DAY_MS } from "../../service/clock";
import { failed, ok } from "../support/service-harness";
import { quoteIds, openBatch, startServiceWithCustomers } from "./service-endpoints";

// Batches: create, list and get, add and remove quotes, cancel and delete.
const { service, alice } = await startServiceWithCustomers();

describe("batches: create, list, get", () => {
  it("GIVEN quotes THEN Create Batch is 201 open with the quote count and zero counters", async () => {
    const ids = await quoteIds(alice, 3);
    const batch = ok(await alice.client.createBatch({ body: { name: "Monday", quoteIds: ids } }));
    expect(batch).toMatchObject({ name: "Monday", status: "open", quoteCount: 3, bookedCount: 0, errorCount: 0, processedAt: null });
    const detail = ok(await alice.client.getBatch({ batchId: batch.batchId }));
    expect(detail.quotes.map((quote) => quote.quoteId)).toEqual(ids);
    for (const quote of detail.quotes) {
      expect(quote).toMatchObject({
        status: "active",
        bookNumber: null,
        trackingNumber: null,
        bookingError: null,
        createdAt: "2026-11-23 15:00:00",
        expiresAt: "2026-12-23 15:00:00",
      });
    }
  });

  it("GIVEN a 255-character name THEN accepted; 256 or blank THEN 400", async () => {
    expect(ok(await alice.client.createBatch({ body: { name: "n".repeat(255) } })).name).toHaveLength(255);
    for (const name of ["n".repeat(256), "", "   "]) {
      const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/batch`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name }),
        authorization: alice.authorization,
      });
      expect(response).toMatchObject({ status: 400, body: { errorCategory: "INVALID_REQUEST" } });
      expect((response.body as { error: string }).error).toMatch(/name/);
    }
  });

  it("GIVEN 501 quote ids THEN Create Batch is 400", async () => {
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/batch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "big", quoteIds: Array.from({ length: 501 }, (_, index) => index + 1) }),
      authorization: alice.authorization,
    });
    expect(response).toMatchObject({ status: 400 });
    expect((response.body as { error: string }).error).toMatch(/quoteIds/);
  });

  it("pages List Batches: default page 1 / limit 25, total of all the customer's batches, newest first", async () => {
    const customer = await service.createCustomer();
    for (let index = 0; index < 27; index++) ok(await customer.client.createBatch({ body: { name: `b${index}` } }));
    const first = ok(await customer.client.listBatches());
    expect(first).toMatchObject({ total: 27, page: 1, limit: 25 });
    expect(first.batches).toHaveLength(25);
    expect(first.batches[0]!.name).toBe("b26");
    const second = ok(await customer.client.listBatches({ query: { page: 2, limit: 25 } }));
    expect(second.batches.map((batch) => batch.name)).toEqual(["b1", "b0"]);
    expect(ok(await customer.client.listBatches({ query: { page: 1, limit: 100 } })).batches).toHaveLength(27);
  });

  it.each(["limit=0", "limit=101", "page=0", "limit=abc", "page=-1"])("GIVEN ?%s THEN 400", async (query) => {
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/batch?${query}`, { authorization: alice.authorization });
    expect(response).toMatchObject({ status: 400, body: { errorCategory: "INVALID_REQUEST" } });
  });

  it.each(["abc", "0", "-3", "1.5", "99999999999999999999999"])("GIVEN batch id %s in the path THEN 400", async (id) => {
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/batch/${id}`, { authorization: alice.authorization });
    expect(response).toMatchObject({ status: 400, body: { errorCategory: "INVALID_REQUEST" } });
    expect((response.body as { error: string }).error).toMatch(/batchId/);
  });

  it("GIVEN an unknown batch THEN Get Batch is 404", async () => {
    expect(failed(await alice.client.getBatch({ batchId: 999_999 })).kind).toBe("not_found");
  });
});

describe("Add to Batch", () => {
  it("GIVEN valid quotes THEN 200 open with the new count", async () => {
    const { batchId } = await openBatch(alice, 1);
    const more = await quoteIds(alice, 2);
    expect(ok(await alice.client.addToBatch({ batchId, body: { quoteIds: more } }))).toMatchObject({ status: "open", quoteCount: 3, processedAt: null });
  });

  it("GIVEN a cancelled batch THEN 400", async () => {
    const { batchId } = await openBatch(alice, 1);
    ok(await alice.client.cancelBatch({ batchId }));
    const error = failed(await alice.client.addToBatch({ batchId, body: { quoteIds: await quoteIds(alice, 1) } }));
    expect(error).toMatchObject({ kind: "invalid_request", status: 400 });
  });

  it("GIVEN quote ids that do not exist THEN 400 and nothing changes", async () => {
    const { batchId } = await openBatch(alice, 1);
    const [fresh] = await quoteIds(alice, 1);
    expect(failed(await alice.client.addToBatch({ batchId, body: { quoteIds: [fresh!, 987_654_321] } }))).toMatchObject({ status: 400 });
    expect(ok(await alice.client.getBatch({ batchId })).quoteCount).toBe(1);
  });

  it("GIVEN a booked quote THEN 400 (not active)", async () => {
    const { batchId, quoteIds: ids } = await openBatch(alice, 1);
    ok(await alice.client.batchBook({ body: { batchId } }));
    const other = ok(await alice.client.createBatch({ body: { name: "other" } }));
    expect(failed(await alice.client.addToBatch({ batchId: other.batchId, body: { quoteIds: ids } }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/not active/),
    });
  });

  it("GIVEN an expired quote THEN 400 (not active)", async () => {
    const ids = await quoteIds(alice, 1);
    const batch = ok(await alice.client.createBatch({ body: { name: "late" } }));
    service.clock.advance(31 * DAY_MS);
    expect(failed(await alice.client.addToBatch({ batchId: batch.batchId, body: { quoteIds: ids } }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/not active/),
    });
  });

  it("GIVEN a quote in another batch THEN 400", async () => {
    const first = await openBatch(alice, 1);
    const second = ok(await alice.client.createBatch({ body: { name: "second" } }));
    expect(failed(await alice.client.addToBatch({ batchId: second.batchId, body: { quoteIds: first.quoteIds } }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/different batch/),
    });
  });

  it("GIVEN a batch of 500 THEN adding one more is 400; an empty list is 400", async () => {
    const { batchId } = await openBatch(alice, 500, "full");
    expect(failed(await alice.client.addToBatch({ batchId, body: { quoteIds: await quoteIds(alice, 1) } }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/maximum batch size of 500/),
    });
    const empty = await service.fetch(`/restapi/v1/customers/${alice.customerId}/batch/${batchId}/quotes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ quoteIds: [] }),
      authorization: alice.authorization,
    });
    expect(empty).toMatchObject({ status: 400 });
  });

  it("GIVEN an unknown batch THEN 404", async () => {
    expect(failed(await alice.client.addToBatch({ batchId: 999_999, body: { quoteIds: [1] } })).kind).toBe("not_found");
  });
});

describe("Remove from Batch", () => {
  it("GIVEN a quote in an open batch THEN ok; the quote stays active and can join another batch", async () => {
    const { batchId, quoteIds: ids } = await openBatch(alice, 2);
    expect(ok(await alice.client.removeFromBatch({ batchId, quoteId: ids[0]! }))).toEqual({ ok: true });
    expect(ok(await alice.client.getBatch({ batchId })).quoteCount).toBe(1);
    const other = ok(await alice.client.createBatch({ body: { name: "again", quoteIds: [ids[0]!] } }));
    expect(ok(await alice.client.getBatch({ batchId: other.batchId })).quotes[0]).toMatchObject({ quoteId: ids[0], status: "active" });
  });

  it("GIVEN a batch that is not open THEN 422", async () => {
    const { batchId, quoteIds: ids } = await openBatch(alice, 1);
    ok(await alice.client.cancelBatch({ batchId }));
    expect(failed(await alice.client.removeFromBatch({ batchId, quoteId: ids[0]! }))).toMatchObject({ kind: "unprocessable", status: 422 });
  });

  it("GIVEN a quote that is not in this batch THEN 422", async () => {
    const { batchId } = await openBatch(alice, 1);
    const [loose] = await quoteIds(alice, 1);
    expect(failed(await alice.client.removeFromBatch({ batchId, quoteId: loose! }))).toMatchObject({ kind: "unprocessable" });
  });

  it("GIVEN an unknown batch or quote THEN 404", async () => {
    const { batchId } = await openBatch(alice, 1);
    expect(failed(await alice.client.removeFromBatch({ batchId: 999_999, quoteId: 1 })).kind).toBe("not_found");
    expect(failed(await alice.client.removeFromBatch({ batchId, quoteId: 987_654_321 })).kind).toBe("not_found");
  });
});

describe("Cancel and Delete Batch", () => {
  it("GIVEN an open batch THEN Cancel makes it cancelled with its quotes intact and counters at zero", async () => {
    const { batchId, quoteIds: ids } = await openBatch(alice, 2);
    expect(ok(await alice.client.cancelBatch({ batchId }))).toMatchObject({
      status: "cancelled",
      quoteCount: 2,
      bookedCount: 0,
      errorCount: 0,
      processedAt: null,
    });
    expect(ok(await alice.client.getBatch({ batchId })).quotes.map((quote) => [quote.quoteId, quote.status])).toEqual(ids.map((id) => [id, "active"]));
  });

  it("GIVEN a batch that is not open THEN Cancel is 422; unknown THEN 404", async () => {
    const { batchId } = await openBatch(alice, 1);
    ok(await alice.client.cancelBatch({ batchId }));
    expect(failed(await alice.client.cancelBatch({ batchId }))).toMatchObject({ kind: "unprocessable", status: 422 });
    expect(failed(await alice.client.cancelBatch({ batchId: 999_999 })).kind).toBe("not_found");
  });

  it("GIVEN any state THEN Delete removes the batch; quotes are unassigned, booked ones keep their booking", async () => {
    const open = await openBatch(alice, 1);
    expect(ok(await alice.client.deleteBatch({ batchId: open.batchId }))).toEqual({ ok: true });
    expect(failed(await alice.client.getBatch({ batchId: open.batchId })).kind).toBe("not_found");
    ok(await alice.client.createBatch({ body: { name: "reuse", quoteIds: open.quoteIds } }));

    const booked = await openBatch(alice, 1);
    const result = ok(await alice.client.batchBook({ body: { batchId: booked.batchId } }));
    ok(await alice.client.deleteBatch({ batchId: booked.batchId }));
    const row = service.db.statement(`SELECT status, batchId, bookNumber FROM Quote WHERE id = ?`).get(booked.quoteIds[0]) as {
      status: string;
      batchId: number | null;
      bookNumber: string;
    };
    expect(row).toEqual({ status: "booked", batchId: null, bookNumber: result.results[0]!.status === "success" ? result.results[0]!.bookNumber : "" });
    expect(failed(await alice.client.deleteBatch({ batchId: booked.batchId })).kind).toBe("not_found");
  });
});
