import { afterAll, describe, expect, it } from "vitest";
import { shippableFulfillmentOrders } from "../factories/booked-shipments";
import { EXTENSION_ORIGIN, appRequest, callRoute, forgedSessionToken } from "../support/route-call";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";

// The Buy labels modal's routes as Shopify's admin calls them from the action extension: a Bearer session token
// the local admin signed, CORS, the real service quoting and booking, the app's own job queue, a real SQLite
// database, and the local admin's orders (read from it as quoting reads orders the mirror lacks).
const { harness, close } = await startServiceAndAdmin({ orders: 12 });
afterAll(close);
const { default: prisma } = await import("../../app/db/db.server");
const start = await import("../../app/routes/api.label-runs");
const run = await import("../../app/routes/api.label-runs.$runId");
const { LabelRunView } = await import("../../app/extension/label-run-view");

const numbers = shippableFulfillmentOrders(harness.admin.store, 2).map((fo) => String(fo.orderId.split("/").pop()));

const headers = { origin: EXTENSION_ORIGIN };
const post = async (path: string, token?: string) =>
  token
    ? callRoute(
        start.action,
        new Request(new URL(path, "http://localhost:3000"), { method: "POST", headers: { ...headers, authorization: `Bearer ${token}` } }),
      )
    : callRoute(start.action, await appRequest(harness.admin, path, { method: "POST", headers }));
const readRun = async (runId: string) => callRoute(run.loader, await appRequest(harness.admin, `/api/label-runs/${runId}`, { headers }), { runId });
const buy = async (runId: string) => callRoute(run.action, await appRequest(harness.admin, `/api/label-runs/${runId}`, { method: "POST", headers }), { runId });

/** Reads the run until `until` holds (the quote run and the batch are jobs). */
async function follow(runId: string, until: (view: ReturnType<typeof LabelRunView.parse>) => boolean) {
  for (let attempt = 0; attempt < 120; attempt++) {
    const answer = await readRun(runId);
    expect(answer.status).toBe(200);
    const view = LabelRunView.parse(answer.body);
    if (until(view)) return view;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`run ${runId} did not get there`);
}

describe("/api/label-runs", () => {
  it("GIVEN two shippable orders WHEN the modal quotes them THEN picks by name and price, the total and the spend checkpoint; Buy twice books one batch once", async () => {
    const started = await post(`/api/label-runs?orders=${numbers.join(",")}`);
    expect(started.status).toBe(201);
    expect(started.headers.get("access-control-allow-origin")).toBe("*");
    const { runId } = started.body as { runId: string };

    const ready = await follow(runId, (view) => view.stage !== "quoting");
    expect(ready.stage).toBe("ready");
    expect(ready.picks).toHaveLength(2);
    // Carriers and services by name (List Services), never their codes.
    for (const pick of ready.picks)
      expect(pick).toMatchObject({
        carrier: expect.stringMatching(/^[A-Z][a-z]+( [A-Z][a-z]+)+$/),
        service: expect.stringMatching(/ /),
        price: expect.stringMatching(/^\$\d+\.\d{2}$/),
      });
    expect(ready.total).toMatch(/^\$\d+\.\d{2}$/);
    expect(ready.checkpoint).toMatch(new RegExp(`^Book 2 labels for \\${ready.total}\\? `));
    expect(ready.reviewPath).toBe(`/app/quotes/${runId}`);

    // Two clicks: one batch.
    const [first, second] = await Promise.all([buy(runId), buy(runId)]);
    expect([first.status, second.status]).toContain(202);
    const open = await follow(runId, (view) => view.booking?.state === "open" || view.booking?.state === "booking" || view.booking?.state === "settled");
    if (open.booking!.state === "open") expect((await buy(runId)).status).toBe(202);
    const again = await buy(runId);
    expect(again.status).toBe(202);
    const booked = await follow(runId, (view) => view.booking?.state === "settled");
    expect(booked.stage).toBe("booked");
    expect(booked.booking).toMatchObject({ booked: 2, failed: 0 });
    expect(booked.printPath).toMatch(/^\/api\/print\/labels\?orders=\d+%2C\d+$/);

    const shipments = await prisma.shipment.findMany({ where: { shop: SHOP, runId } });
    expect(shipments.map((shipment) => shipment.bookingStatus)).toEqual(["BOOKED", "BOOKED"]);
    expect(new Set(shipments.map((shipment) => shipment.batchId)).size).toBe(1);
    expect(await prisma.batch.count({ where: { shop: SHOP, id: shipments[0]!.batchId! } })).toBe(1);
  }, 120_000);

  it("GIVEN the selection action's should-render THEN it counts the orders that can ship", async () => {
    const answer = await callRoute(start.loader, await appRequest(harness.admin, `/api/label-runs?orders=${numbers[0]},999999`, { headers }));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ selected: 2, shippable: 2 });
  });

  it("GIVEN orders that are not this shop's THEN 404; another shop's run THEN 404", async () => {
    expect((await post("/api/label-runs?orders=999998,999999")).status).toBe(404);
    const other = await prisma.quoteRun.create({ data: { shop: "another-shop.myshopify.com", status: "COMPLETED", orderIds: "[]", startedAt: new Date() } });
    const answer = await readRun(other.id);
    expect(answer.status).toBe(404);
    expect((await buy(other.id)).status).toBe(404);
  });

  it("GIVEN no orders, a bad id or more than 50 THEN 400 naming the field", async () => {
    for (const query of ["", "?orders=abc", `?orders=${Array.from({ length: 51 }, (_, index) => 2000 + index).join(",")}`]) {
      const answer = await post(`/api/label-runs${query}`);
      expect(answer.status, query).toBe(400);
      expect((answer.body as { error: string }).error).toBe("Orders must be the orders' numeric ids, separated by commas (e.g. 1001,1002), at most 50");
    }
  });

  it("GIVEN a forged session token THEN 401", async () => {
    expect((await post(`/api/label-runs?orders=${numbers[0]}`, await forgedSessionToken())).status).toBe(401);
  });
});
