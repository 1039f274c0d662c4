import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aFulfilledOrder } from "../factories/returns";
import { startHarness, type Harness } from "../support/devstore-harness.js";

/**
 * The local admin's pages for returns: the customer asks to return shipped items on the order status stand-in (as
 * Shopify's self-serve returns), the merchant approves or declines on the order page, and both pages show the
 * return's status and, once attached, its tracking number and label.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ orders: 3 });
});
afterAll(async () => {
  await h.close();
});

const form = (fields: Record<string, string>) => ({
  method: "POST" as const,
  headers: { "content-type": "application/x-www-form-urlencoded" },
  payload: new URLSearchParams(fields).toString(),
});

describe("returns in the local admin's pages", () => {
  it("GIVEN a shipped order WHEN its customer requests a return of two items and the merchant approves it THEN the return is OPEN, both pages say so, and the label and tracking show once attached", async () => {
    const order = aFulfilledOrder(h.admin.store, { quantities: [1, 2] });
    const customerId = h.admin.store.getOrder(order.orderId)!.customer_id!;
    const statusPage = await h.admin.app.inject({ method: "GET", url: `/account/orders/${order.orderId}` });
    expect(statusPage.statusCode).toBe(200);
    expect(statusPage.body).toContain('data-testid="return-request-form"');
    const [first, second] = h.admin.store.listFulfillments(order.orderId).flatMap((f) => h.admin.store.listFulfillmentLineItems(f.id));

    const asked = await h.admin.app.inject({
      url: `/account/orders/${order.orderId}/returns?customer=${customerId}`,
      ...form({ [`quantity_${first!.id}`]: "1", [`quantity_${second!.id}`]: "1", reason: "SIZE_TOO_LARGE", note: "Runs large" }),
    });
    expect(asked.statusCode).toBe(303);
    expect(asked.headers.location).toBe(`/account/orders/${order.orderId}?customer=${customerId}&requested=%23${order.orderId}-R1`);
    const [ret] = h.admin.store.listReturns(order.orderId);
    expect(ret?.status).toBe("REQUESTED");
    expect(h.admin.store.listReturnLineItems(ret!.id).map((line) => [line.quantity, line.return_reason, line.customer_note])).toEqual([
      [1, "SIZE_TOO_LARGE", "Runs large"],
      [1, "SIZE_TOO_LARGE", "Runs large"],
    ]);
    const after = await h.admin.app.inject({ method: "GET", url: asked.headers.location as string });
    expect(after.body).toContain('data-testid="return-requested"');
    expect(after.body).toContain('data-status="REQUESTED"');
    // One unit of the second line is left to return, so the form stays for it alone.
    expect(after.body.match(/data-testid="return-quantity"/g)).toHaveLength(1);

    const adminPage = await h.admin.app.inject({ method: "GET", url: `/admin/orders/${order.orderId}` });
    expect(adminPage.body).toContain('data-testid="approve-return"');
    expect(adminPage.body).toContain("Runs large");
    const approved = await h.admin.app.inject({ url: `/admin/orders/${order.orderId}/returns/${ret!.id}/approve`, ...form({}) });
    expect(approved.statusCode).toBe(303);
    expect(h.admin.store.getReturn(ret!.id)?.status).toBe("OPEN");
    const again = await h.admin.app.inject({ url: `/admin/orders/${order.orderId}/returns/${ret!.id}/approve`, ...form({}) });
    expect(again.statusCode).toBe(409);

    // The app attaches the label and tracking (reverseDeliveryCreateWithShipping); both pages link them.
    const rfo = h.admin.store.listReverseFulfillmentOrders(ret!.id)[0]!;
    const attached = await h.gql<{ reverseDeliveryCreateWithShipping: { userErrors: unknown[] } }>(
      `mutation($rfo: ID!) { reverseDeliveryCreateWithShipping(reverseFulfillmentOrderId: $rfo, reverseDeliveryLineItems: [],
        trackingInput: { number: "1ZRETURN01", url: "https://www.ups.com/track?tracknum=1ZRETURN01" }, labelInput: { fileUrl: "https://consign.example/returns/labels/tok.pdf" }) { userErrors { message } } }`,
      { rfo: `gid://shopify/ReverseFulfillmentOrder/${rfo.id}` },
    );
    expect(attached.body.data?.reverseDeliveryCreateWithShipping.userErrors).toEqual([]);
    for (const url of [`/admin/orders/${order.orderId}`, `/account/orders/${order.orderId}`]) {
      const page = await h.admin.app.inject({ method: "GET", url });
      expect(page.body).toContain('data-status="OPEN"');
      expect(page.body).toContain('href="https://www.ups.com/track?tracknum=1ZRETURN01"');
      expect(page.body).toMatch(/href="https:\/\/consign\.example\/returns\/labels\/tok\.pdf"[^>]*data-testid="return-label"/);
    }
  });

  it("GIVEN the request form WHEN no item is chosen, a quantity is more than shipped or no reason is given THEN the page answers 400 saying what to fix and nothing is requested; another customer gets 403; the merchant's decline records the reason", async () => {
    const order = aFulfilledOrder(h.admin.store, { quantities: [1] });
    const customerId = h.admin.store.getOrder(order.orderId)!.customer_id!;
    const [line] = h.admin.store.listFulfillments(order.orderId).flatMap((f) => h.admin.store.listFulfillmentLineItems(f.id));
    const post = (fields: Record<string, string>, customer = customerId) =>
      h.admin.app.inject({ url: `/account/orders/${order.orderId}/returns?customer=${customer}`, ...form(fields) });
    const none = await post({ reason: "COLOR" });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain("Choose at least one item to return");
    const tooMany = await post({ [`quantity_${line!.id}`]: "5", reason: "COLOR" });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.body).toContain("Quantity cannot be more than the 1 fulfilled and not yet returned.");
    const noReason = await post({ [`quantity_${line!.id}`]: "1" });
    expect(noReason.body).toContain("Choose why you are returning the items.");
    const other = aFulfilledOrder(h.admin.store, { quantities: [1], email: "someone.else@example.com" });
    const stranger = await post({ [`quantity_${line!.id}`]: "1", reason: "COLOR" }, h.admin.store.getOrder(other.orderId)!.customer_id!);
    expect(stranger.statusCode).toBe(403);
    expect(h.admin.store.listReturns(order.orderId)).toEqual([]);

    expect((await post({ [`quantity_${line!.id}`]: "1", reason: "COLOR" })).statusCode).toBe(303);
    const [ret] = h.admin.store.listReturns(order.orderId);
    const declined = await h.admin.app.inject({
      url: `/admin/orders/${order.orderId}/returns/${ret!.id}/decline`,
      ...form({ reason: "FINAL_SALE", note: "Sale items are final" }),
    });
    expect(declined.statusCode).toBe(303);
    expect(h.admin.store.getReturn(ret!.id)).toMatchObject({ status: "DECLINED", decline_reason: "FINAL_SALE", decline_note: "Sale items are final" });
    const elsewhere = await h.admin.app.inject({ url: `/admin/orders/${other.orderId}/returns/${ret!.id}/approve`, ...form({}) });
    expect(elsewhere.statusCode).toBe(404);
  });
});
