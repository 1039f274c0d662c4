import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock, readDoc, startHarness, type Harness } from "../support/devstore-harness.js";

const INNER = `{
  orders(query: "fulfillment_status:unfulfilled status:open") {
    edges { node { id name displayFulfillmentStatus shippingAddress { countryCodeV2 zip }
      fulfillmentOrders { edges { node { id status assignedLocation { name } } } } } }
  }
}`;

/** INNER with its order, address and fulfillment order fields in fragments, as the app's order export writes them. */
const INNER_WITH_FRAGMENTS = `query UnfulfilledOrders {
  orders(query: "fulfillment_status:unfulfilled status:open") {
    edges { node { ...OrderFields fulfillmentOrders { edges { node { ...FulfillmentOrderFields } } } } }
  }
}
fragment OrderFields on Order { id name displayFulfillmentStatus shippingAddress { ...AddressFields } }
fragment AddressFields on MailingAddress { countryCodeV2 zip }
fragment FulfillmentOrderFields on FulfillmentOrder { id status assignedLocation { name } }`;

describe("local admin bulk operations", () => {
  let h: Harness;
  const clock = manualClock();
  beforeAll(async () => {
    h = await startHarness({ clock, orders: 120 });
  });
  afterAll(async () => {
    await h.close();
  });

  it("GIVEN a bulk query WHEN run and polled THEN it completes and the JSONL has one line per object with __parentId on children", async () => {
    const run = await h.gql<{ bulkOperationRunQuery: { bulkOperation: { id: string; status: string }; userErrors: unknown[] } }>(readDoc("10"), {
      query: INNER,
    });
    expect(run.body.data?.bulkOperationRunQuery.userErrors).toEqual([]);
    expect(run.body.data?.bulkOperationRunQuery.bulkOperation.status).toBe("CREATED");
    const id = run.body.data?.bulkOperationRunQuery.bulkOperation.id;

    type Poll = {
      bulkOperation: { status: string; objectCount: string; rootObjectCount: string; url: string | null; errorCode: string | null; completedAt: string | null };
    };
    let poll = await h.gql<Poll>(readDoc("12"), { id });
    for (let i = 0; i < 50 && poll.body.data?.bulkOperation.status !== "COMPLETED"; i++) {
      await new Promise((r) => setTimeout(r, 20));
      poll = await h.gql<Poll>(readDoc("12"), { id });
    }
    const op = poll.body.data?.bulkOperation;
    expect(op?.status).toBe("COMPLETED");
    expect(op?.errorCode).toBeNull();
    expect(op?.completedAt).not.toBeNull();

    const download = await fetch(op?.url ?? "");
    expect(download.status).toBe(200);
    const lines = (await download.text())
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(String(lines.length)).toBe(op?.objectCount);

    const roots = lines.filter((l) => !("__parentId" in l));
    const children = lines.filter((l) => "__parentId" in l);
    expect(String(roots.length)).toBe(op?.rootObjectCount);
    // every root is an unfulfilled open order, same set as the paginated query returns
    const expected = await h.gql<{ orders: { nodes: { id: string }[] } }>(
      `{ orders(first: 250, query: "fulfillment_status:unfulfilled status:open") { nodes { id } } }`,
    );
    expect(roots.map((r) => r.id).sort()).toEqual(expected.body.data?.orders.nodes.map((n) => n.id).sort());
    expect(roots.every((r) => String(r.id).startsWith("gid://shopify/Order/") && !("fulfillmentOrders" in r))).toBe(true);
    // children follow their parent and point at it
    const seen = new Set<unknown>();
    for (const line of lines) {
      if ("__parentId" in line) {
        expect(seen.has(line.__parentId)).toBe(true);
        expect(String(line.id)).toMatch(/^gid:\/\/shopify\/FulfillmentOrder\/\d+$/);
        expect(line.assignedLocation).toEqual({ name: expect.any(String) });
      } else seen.add(line.id);
    }
    expect(children.length).toBeGreaterThanOrEqual(roots.length);

    const current = await h.gql<{ currentBulkOperation: { id: string; status: string } }>(`{ currentBulkOperation { id status } }`);
    expect(current.body.data?.currentBulkOperation).toEqual({ id, status: "COMPLETED" });
  });

  /** Runs a bulk query to completion and returns its JSONL. */
  async function runBulk(query: string): Promise<string> {
    const run = await h.gql<{ bulkOperationRunQuery: { bulkOperation: { id: string } | null; userErrors: unknown[] } }>(readDoc("10"), { query });
    expect(run.body.data?.bulkOperationRunQuery.userErrors).toEqual([]);
    const id = run.body.data?.bulkOperationRunQuery.bulkOperation?.id;
    type Poll = { bulkOperation: { status: string; url: string | null } };
    let poll = await h.gql<Poll>(readDoc("12"), { id });
    for (let i = 0; i < 50 && poll.body.data?.bulkOperation.status !== "COMPLETED"; i++) {
      await new Promise((r) => setTimeout(r, 20));
      poll = await h.gql<Poll>(readDoc("12"), { id });
    }
    expect(poll.body.data?.bulkOperation.status).toBe("COMPLETED");
    return (await fetch(poll.body.data?.bulkOperation.url ?? "")).text();
  }

  it("GIVEN a bulk query whose fields come through fragments WHEN run THEN its JSONL is the one of the same query written out", async () => {
    const written = await runBulk(INNER);
    const withFragments = await runBulk(INNER_WITH_FRAGMENTS);
    expect(withFragments.trimEnd().split("\n").length).toBeGreaterThan(1);
    expect(withFragments).toBe(written);
  });

  it("GIVEN bulk queries with fragments WHEN submitted THEN the rules count the fragments where they are spread", async () => {
    const submit = async (query: string) =>
      (await h.gql<{ bulkOperationRunQuery: { userErrors: { message: string }[] } }>(readDoc("10"), { query })).body.data?.bulkOperationRunQuery.userErrors[0]
        ?.message;
    // The parent's id through a fragment counts; a fragment without it does not.
    expect(await submit(`{ orders { edges { node { ...Ids fulfillmentOrders { edges { node { id } } } } } } } fragment Ids on Order { id }`)).toBeUndefined();
    expect(await submit(`{ orders { edges { node { ...Names } } } } fragment Names on Order { name fulfillmentOrders { edges { node { id } } } }`)).toMatch(
      /must select the 'id' field/,
    );
    // A connection inside a fragment nests as deep as where the fragment is spread.
    expect(
      await submit(
        `{ orders { edges { node { id fulfillmentOrders { edges { node { ...Lines } } } } } } } fragment Lines on FulfillmentOrder { id lineItems { edges { node { id } } } }`,
      ),
    ).toBe("Bulk queries cannot contain connections with a nesting depth greater than 2.");
    expect(await submit(`{ orders { edges { node { id } } } } fragment Unused on Order { id }`)).toMatch(/Fragment "Unused" is never used/);
  });

  it("GIVEN invalid bulk queries WHEN submitted THEN Shopify's userErrors", async () => {
    const submit = async (query: string) =>
      (await h.gql<{ bulkOperationRunQuery: { userErrors: { message: string }[] } }>(readDoc("10"), { query })).body.data?.bulkOperationRunQuery.userErrors[0]
        ?.message;
    expect(await submit(`{ shop { name } }`)).toBe("Bulk queries must contain at least one connection.");
    expect(await submit(`{ nodes(ids: ["gid://shopify/Order/1001"]) { id } }`)).toBe("Bulk queries cannot contain a top level `node` or `nodes` field.");
    expect(await submit(`{ orders { edges { node { name fulfillmentOrders { edges { node { id } } } } } } }`)).toMatch(/must select the 'id' field/);
  });
});
