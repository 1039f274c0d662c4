import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aFulfilledOrder, aRequestedReturn } from "../factories/returns";
import { startHarness, type Harness } from "../support/devstore-harness.js";

/**
 * The local admin's returns on the real 2026-10 schema: a customer's request, the merchant's approval or decline,
 * reverse fulfillment orders, reverse deliveries with a label and tracking, the customer's email, the returns
 * webhooks, and the scopes (read_returns, write_returns) every one of them needs.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ orders: 5 });
});
afterAll(async () => {
  await h.close();
});

const RETURN_FIELDS = `id name status createdAt requestApprovedAt closedAt totalQuantity decline { reason note }
  order { id name }
  returnLineItems(first: 10) { nodes { id quantity customerNote returnReasonNote returnReasonDefinition { handle name }
    ... on ReturnLineItem { returnReason fulfillmentLineItem { id lineItem { id name } } } } }
  reverseFulfillmentOrders(first: 5) { nodes { id status lineItems(first: 10) { nodes { id totalQuantity fulfillmentLineItem { id } } }
    reverseDeliveries(first: 5) { nodes { id deliverable { ... on ReverseDeliveryShippingDeliverable { label { publicFileUrl createdAt } tracking { number url carrierName } } } } } } }`;

const REQUEST = `mutation Request($input: ReturnRequestInput!) { returnRequest(input: $input) { return { ${RETURN_FIELDS} } userErrors { field message code } } }`;
const CREATE = `mutation Create($returnInput: ReturnInput!) { returnCreate(returnInput: $returnInput) { return { ${RETURN_FIELDS} } userErrors { field message code } } }`;
const APPROVE = `mutation Approve($input: ReturnApproveRequestInput!) { returnApproveRequest(input: $input) { return { ${RETURN_FIELDS} } userErrors { field message code } } }`;
const DECLINE = `mutation Decline($input: ReturnDeclineRequestInput!) { returnDeclineRequest(input: $input) { return { id status decline { reason note } } userErrors { field message code } } }`;
const CANCEL = `mutation Cancel($id: ID!) { returnCancel(id: $id) { return { id status reverseFulfillmentOrders(first: 1) { nodes { status } } } userErrors { field message code } } }`;
const CLOSE = `mutation Close($id: ID!) { returnClose(id: $id) { return { id status closedAt reverseFulfillmentOrders(first: 1) { nodes { status } } } userErrors { field message code } } }`;
const DELIVERY_FIELDS = `id reverseFulfillmentOrder { id } reverseDeliveryLineItems(first: 10) { nodes { quantity reverseFulfillmentOrderLineItem { id } } }
  deliverable { ... on ReverseDeliveryShippingDeliverable { label { publicFileUrl createdAt updatedAt } tracking { number url carrierName } } }`;
const DELIVER = `mutation Deliver($rfo: ID!, $items: [ReverseDeliveryLineItemInput!]!, $tracking: ReverseDeliveryTrackingInput, $label: ReverseDeliveryLabelInput, $notify: Boolean) {
  reverseDeliveryCreateWithShipping(reverseFulfillmentOrderId: $rfo, reverseDeliveryLineItems: $items, trackingInput: $tracking, labelInput: $label, notifyCustomer: $notify) {
    reverseDelivery { ${DELIVERY_FIELDS} } userErrors { field message code } } }`;
const UPDATE = `mutation Update($id: ID!, $tracking: ReverseDeliveryTrackingInput, $label: ReverseDeliveryLabelInput, $notify: Boolean) {
  reverseDeliveryShippingUpdate(reverseDeliveryId: $id, trackingInput: $tracking, labelInput: $label, notifyCustomer: $notify) {
    reverseDelivery { ${DELIVERY_FIELDS} } userErrors { field message code } } }`;

interface ReturnNode {
  id: string;
  name: string;
  status: string;
  requestApprovedAt: string | null;
  totalQuantity: number;
  decline: { reason: string; note: string | null } | null;
  returnLineItems: {
    nodes: { id: string; quantity: number; customerNote: string | null; returnReason: string; returnReasonDefinition: { handle: string; name: string } }[];
  };
  reverseFulfillmentOrders: {
    nodes: { id: string; status: string; lineItems: { nodes: { id: string; totalQuantity: number }[] }; reverseDeliveries: { nodes: { id: string }[] } }[];
  };
}
type Payload<K extends string, T = { return: ReturnNode | null }> = Record<K, T & { userErrors: { field: string[] | null; message: string; code: string }[] }>;

async function approvedReturn(items = 2) {
  const requested = aRequestedReturn(h.admin.store, { items });
  const approved = await h.gql<Payload<"returnApproveRequest">>(APPROVE, { input: { id: requested.returnGid } });
  const ret = approved.body.data!.returnApproveRequest.return!;
  return { requested, ret, rfo: ret.reverseFulfillmentOrders.nodes[0]! };
}

const deliveriesOf = (topic: string) =>
  h.admin.webhooks
    .deliveries()
    .filter((delivery) => delivery.topic === topic)
    .map((delivery) => ({ url: delivery.url, body: JSON.parse(delivery.body) as Record<string, unknown> }));

describe("returns in the local admin", () => {
  it("GIVEN a fulfilled order WHEN the customer requests a return of two units THEN it is REQUESTED with its items, reason and note, no reverse fulfillment order, and returns/request goes to /webhooks/returns", async () => {
    const order = aFulfilledOrder(h.admin.store, { quantities: [1, 2] });
    const [first, second] = order.fulfilledLines;
    const result = await h.gql<Payload<"returnRequest">>(REQUEST, {
      input: {
        orderId: order.orderGid,
        returnLineItems: [
          { fulfillmentLineItemId: first!.fulfillmentLineItemId, quantity: 1, returnReason: "SIZE_TOO_SMALL", customerNote: "Too tight" },
          { fulfillmentLineItemId: second!.fulfillmentLineItemId, quantity: 1, returnReason: "DEFECTIVE" },
        ],
      },
    });
    expect(result.body.errors).toBeUndefined();
    const ret = result.body.data!.returnRequest.return!;
    expect(result.body.data!.returnRequest.userErrors).toEqual([]);
    expect(ret).toMatchObject({ name: `${order.orderName}-R1`, status: "REQUESTED", requestApprovedAt: null, totalQuantity: 2, decline: null });
    expect(ret.returnLineItems.nodes.map((line) => [line.quantity, line.returnReason, line.customerNote, line.returnReasonDefinition.name])).toEqual([
      [1, "SIZE_TOO_SMALL", "Too tight", "Size was too small"],
      [1, "DEFECTIVE", null, "Damaged or defective"],
    ]);
    expect(ret.reverseFulfillmentOrders.nodes).toEqual([]);

    const read = await h.gql<{ order: { returnStatus: string; returns: { nodes: { id: string; status: string }[] } }; return: { id: string } }>(
      `query($order: ID!, $id: ID!) { order(id: $order) { returnStatus returns(first: 5) { nodes { id status } } } return(id: $id) { id } }`,
      { order: order.orderGid, id: ret.id },
    );
    expect(read.body.data).toEqual({
      order: { returnStatus: "RETURN_REQUESTED", returns: { nodes: [{ id: ret.id, status: "REQUESTED" }] } },
      return: { id: ret.id },
    });

    await h.admin.webhooks.drain();
    const sent = deliveriesOf("returns/request").find((delivery) => delivery.body.admin_graphql_api_id === ret.id);
    expect(sent?.url).toMatch(/\/webhooks\/returns$/);
    expect(sent?.body).toMatchObject({
      status: "requested",
      name: ret.name,
      order: { admin_graphql_api_id: order.orderGid },
      total_return_line_items: 2,
      return_line_items: [
        {
          quantity: 1,
          return_reason: "size_too_small",
          customer_note: "Too tight",
          fulfillment_line_item: { admin_graphql_api_id: first!.fulfillmentLineItemId },
        },
        { quantity: 1, return_reason: "defective", fulfillment_line_item: { admin_graphql_api_id: second!.fulfillmentLineItemId } },
      ],
    });
  });

  it("GIVEN a return request WHEN quantities exceed what was fulfilled and not yet returned, name another order's item, or the order is unknown THEN userErrors name the field and nothing is written", async () => {
    const requested = aRequestedReturn(h.admin.store, { items: 2 });
    const other = aFulfilledOrder(h.admin.store);
    const [line] = requested.fulfilledLines;
    const before = h.admin.store.listReturns(requested.orderId).length;
    const ask = (orderId: string, fulfillmentLineItemId: string, quantity: number) =>
      h.gql<Payload<"returnRequest">>(REQUEST, { input: { orderId, returnLineItems: [{ fulfillmentLineItemId, quantity, returnReason: "OTHER" }] } });
    const tooMany = await ask(requested.orderGid, line!.fulfillmentLineItemId, 1);
    expect(tooMany.body.data!.returnRequest).toMatchObject({
      return: null,
      userErrors: [
        {
          field: ["input", "returnLineItems", "0", "quantity"],
          code: "LESS_THAN_OR_EQUAL_TO",
          message: "Quantity cannot be more than the 0 fulfilled and not yet returned.",
        },
      ],
    });
    const zero = await ask(other.orderGid, other.fulfilledLines[0]!.fulfillmentLineItemId, 0);
    expect(zero.body.data!.returnRequest.userErrors).toMatchObject([{ field: ["input", "returnLineItems", "0", "quantity"], code: "GREATER_THAN" }]);
    const foreign = await ask(requested.orderGid, other.fulfilledLines[0]!.fulfillmentLineItemId, 1);
    expect(foreign.body.data!.returnRequest.userErrors).toMatchObject([
      { field: ["input", "returnLineItems", "0", "fulfillmentLineItemId"], code: "NOT_FOUND" },
    ]);
    const unknown = await ask("gid://shopify/Order/999999", line!.fulfillmentLineItemId, 1);
    expect(unknown.body.data!.returnRequest.userErrors).toEqual([{ field: ["input", "orderId"], message: "Order does not exist.", code: "NOT_FOUND" }]);
    const note = await h.gql<Payload<"returnRequest">>(REQUEST, {
      input: {
        orderId: other.orderGid,
        returnLineItems: [{ fulfillmentLineItemId: other.fulfilledLines[0]!.fulfillmentLineItemId, quantity: 1, customerNote: "x".repeat(301) }],
      },
    });
    expect(note.body.data!.returnRequest.userErrors).toMatchObject([{ field: ["input", "returnLineItems", "0", "customerNote"], code: "TOO_LONG" }]);
    expect(h.admin.store.listReturns(requested.orderId)).toHaveLength(before);
    expect(h.admin.store.listReturns(other.orderId)).toHaveLength(0);
  });

  it("GIVEN a requested return WHEN the merchant approves it THEN it is OPEN with a reverse fulfillment order of its units, returns/approve is sent, and approving again is INVALID_STATE", async () => {
    const { requested, ret, rfo } = await approvedReturn(3);
    expect(ret.status).toBe("OPEN");
    expect(ret.requestApprovedAt).not.toBeNull();
    expect(rfo.status).toBe("OPEN");
    expect(rfo.lineItems.nodes.map((line) => line.totalQuantity)).toEqual(requested.requested.map((line) => line.quantity));
    const again = await h.gql<Payload<"returnApproveRequest">>(APPROVE, { input: { id: requested.returnGid } });
    expect(again.body.data!.returnApproveRequest).toMatchObject({ return: null, userErrors: [{ field: ["input", "id"], code: "INVALID_STATE" }] });
    await h.admin.webhooks.drain();
    expect(deliveriesOf("returns/approve").filter((delivery) => delivery.body.admin_graphql_api_id === requested.returnGid)).toMatchObject([
      { body: { status: "open", total_return_line_items: 3, order: { admin_graphql_api_id: requested.orderGid } } },
    ]);
    const order = await h.gql<{ order: { returnStatus: string } }>(`query($id: ID!) { order(id: $id) { returnStatus } }`, { id: requested.orderGid });
    expect(order.body.data!.order.returnStatus).toBe("IN_PROGRESS");
  });

  it("GIVEN a requested return WHEN the merchant declines it THEN it is DECLINED with the reason and note, returns/decline is sent, and its units can be requested again", async () => {
    const requested = aRequestedReturn(h.admin.store, { items: 2 });
    const declined = await h.gql<Payload<"returnDeclineRequest">>(DECLINE, {
      input: { id: requested.returnGid, declineReason: "RETURN_PERIOD_ENDED", declineNote: "Bought more than 30 days ago" },
    });
    expect(declined.body.data!.returnDeclineRequest).toEqual({
      return: { id: requested.returnGid, status: "DECLINED", decline: { reason: "RETURN_PERIOD_ENDED", note: "Bought more than 30 days ago" } },
      userErrors: [],
    });
    await h.admin.webhooks.drain();
    expect(deliveriesOf("returns/decline").find((delivery) => delivery.body.admin_graphql_api_id === requested.returnGid)?.body).toEqual({
      id: requested.returnId,
      admin_graphql_api_id: requested.returnGid,
      status: "declined",
      decline: { reason: "return_period_ended", note: "Bought more than 30 days ago" },
    });
    const again = aRequestedReturn(h.admin.store, { items: 2, order: requested });
    expect(h.admin.store.getReturn(again.returnId)?.status).toBe("REQUESTED");
  });

  it("GIVEN the merchant's returnCreate THEN the return is OPEN at once with its reverse fulfillment order and returns/approve is sent; cancelling and closing follow Shopify's states", async () => {
    const order = aFulfilledOrder(h.admin.store, { quantities: [2] });
    const created = await h.gql<Payload<"returnCreate">>(CREATE, {
      returnInput: {
        orderId: order.orderGid,
        returnLineItems: [
          { fulfillmentLineItemId: order.fulfilledLines[0]!.fulfillmentLineItemId, quantity: 2, returnReason: "UNWANTED", returnReasonNote: "Gift" },
        ],
      },
    });
    const ret = created.body.data!.returnCreate.return!;
    expect(ret).toMatchObject({
      status: "OPEN",
      totalQuantity: 2,
      reverseFulfillmentOrders: { nodes: [{ status: "OPEN", lineItems: { nodes: [{ totalQuantity: 2 }] } }] },
    });
    const closed = await h.gql<Payload<"returnClose", { return: unknown }>>(CLOSE, { id: ret.id });
    expect(closed.body.data!.returnClose).toMatchObject({
      return: { status: "CLOSED", reverseFulfillmentOrders: { nodes: [{ status: "CLOSED" }] } },
      userErrors: [],
    });
    const cancelClosed = await h.gql<Payload<"returnCancel", { return: unknown }>>(CANCEL, { id: ret.id });
    expect(cancelClosed.body.data!.returnCancel).toMatchObject({ return: null, userErrors: [{ field: ["id"], code: "INVALID_STATE" }] });

    const requested = aRequestedReturn(h.admin.store, { items: 1 });
    const cancelled = await h.gql<Payload<"returnCancel", { return: unknown }>>(CANCEL, { id: requested.returnGid });
    expect(cancelled.body.data!.returnCancel).toMatchObject({ return: { status: "CANCELED" }, userErrors: [] });
    const closeCancelled = await h.gql<Payload<"returnClose", { return: unknown }>>(CLOSE, { id: requested.returnGid });
    expect(closeCancelled.body.data!.returnClose.userErrors).toMatchObject([{ code: "INVALID_STATE" }]);
    await h.admin.webhooks.drain();
    expect(deliveriesOf("returns/approve").some((delivery) => delivery.body.admin_graphql_api_id === ret.id)).toBe(true);
    expect(deliveriesOf("returns/close").find((delivery) => delivery.body.admin_graphql_api_id === ret.id)?.body).toEqual({
      id: Number(ret.id.split("/").pop()),
      admin_graphql_api_id: ret.id,
      order_id: order.orderId,
      status: "closed",
    });
    expect(deliveriesOf("returns/cancel").find((delivery) => delivery.body.admin_graphql_api_id === requested.returnGid)?.body).toMatchObject({
      status: "canceled",
    });
  });

  it("GIVEN an open return WHEN Consign attaches a reverse delivery with label and tracking, then updates it THEN the return shows both, attach_deliverable is sent each time and the customer's emails carry the label URL", async () => {
    const { requested, rfo } = await approvedReturn(2);
    const label = "https://consign.example/returns/labels/tok_abc123.pdf";
    const created = await h.gql<Payload<"reverseDeliveryCreateWithShipping", { reverseDelivery: Record<string, unknown> | null }>>(DELIVER, {
      rfo: rfo.id,
      items: rfo.lineItems.nodes.map((line) => ({ reverseFulfillmentOrderLineItemId: line.id, quantity: line.totalQuantity })),
      tracking: { number: "1Z999AA10123456784", url: "https://www.ups.com/track?tracknum=1Z999AA10123456784" },
      label: { fileUrl: label },
    });
    expect(created.body.errors).toBeUndefined();
    const delivery = created.body.data!.reverseDeliveryCreateWithShipping;
    expect(delivery.userErrors).toEqual([]);
    expect(delivery.reverseDelivery).toMatchObject({
      reverseFulfillmentOrder: { id: rfo.id },
      deliverable: { label: { publicFileUrl: label }, tracking: { number: "1Z999AA10123456784", carrierName: "UPS" } },
    });
    const deliveryId = delivery.reverseDelivery!.id as string;

    const updated = await h.gql<Payload<"reverseDeliveryShippingUpdate", { reverseDelivery: Record<string, unknown> | null }>>(UPDATE, {
      id: deliveryId,
      tracking: { number: "9400111899223100000001", url: "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223100000001" },
      notify: false,
    });
    expect(updated.body.data!.reverseDeliveryShippingUpdate).toMatchObject({
      reverseDelivery: { deliverable: { label: { publicFileUrl: label }, tracking: { number: "9400111899223100000001", carrierName: "USPS" } } },
      userErrors: [],
    });

    const read = await h.gql<{ return: ReturnNode }>(`query($id: ID!) { return(id: $id) { ${RETURN_FIELDS} } }`, { id: requested.returnGid });
    expect(read.body.data!.return.reverseFulfillmentOrders.nodes[0]!.reverseDeliveries.nodes).toEqual([
      {
        id: deliveryId,
        deliverable: { label: { publicFileUrl: label, createdAt: expect.any(String) }, tracking: expect.objectContaining({ carrierName: "USPS" }) },
      },
    ]);
    await h.admin.webhooks.drain();
    expect(deliveriesOf("reverse_deliveries/attach_deliverable").filter((sent) => sent.body.admin_graphql_api_id === deliveryId)).toMatchObject([
      {
        url: expect.stringMatching(/\/webhooks\/returns$/),
        body: {
          return: { admin_graphql_api_id: requested.returnGid },
          shipping_deliverable: { tracking: { tracking_number: "1Z999AA10123456784", carrier_name: "UPS" }, label: { public_file_url: label } },
        },
      },
      { body: { shipping_deliverable: { tracking: { tracking_number: "9400111899223100000001", carrier_name: "USPS" } } } },
    ]);
    // notifyCustomer defaults to true, as Shopify's: one email with the label; the update asked for none.
    const emails = h.admin.store.listCustomerEmails(requested.orderId);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ to_email: requested.customerEmail, label_url: label });
    expect(emails[0]!.body).toContain(label);
    const page = await fetch(`${h.url}/admin/customer-emails.json`);
    expect(((await page.json()) as { emails: { labelUrl: string | null }[] }).emails.some((email) => email.labelUrl === label)).toBe(true);
  });

  it("GIVEN reverse deliveries WHEN the return is not open, quantities exceed the RFO's, the label URL is not a URL or the RFO is unknown THEN userErrors name the field and nothing is attached", async () => {
    const { requested, rfo } = await approvedReturn(2);
    const [line] = rfo.lineItems.nodes;
    const deliver = (variables: Record<string, unknown>) =>
      h.gql<Payload<"reverseDeliveryCreateWithShipping", { reverseDelivery: unknown }>>(DELIVER, { rfo: rfo.id, items: [], ...variables });
    const tooMany = await deliver({ items: [{ reverseFulfillmentOrderLineItemId: line!.id, quantity: line!.totalQuantity + 1 }] });
    expect(tooMany.body.data!.reverseDeliveryCreateWithShipping.userErrors).toMatchObject([
      { field: ["reverseDeliveryLineItems", "0", "quantity"], code: "LESS_THAN_OR_EQUAL_TO" },
    ]);
    const badLabel = await deliver({ label: { fileUrl: "ftp://labels/1.pdf" } });
    expect(badLabel.body.data!.reverseDeliveryCreateWithShipping.userErrors).toEqual([
      { field: ["labelInput", "fileUrl"], message: "Label file URL is invalid.", code: "INVALID" },
    ]);
    const unknown = await h.gql<Payload<"reverseDeliveryCreateWithShipping", { reverseDelivery: unknown }>>(DELIVER, {
      rfo: "gid://shopify/ReverseFulfillmentOrder/999999",
      items: [],
    });
    expect(unknown.body.data!.reverseDeliveryCreateWithShipping.userErrors).toMatchObject([{ field: ["reverseFulfillmentOrderId"], code: "NOT_FOUND" }]);
    expect(h.admin.store.listReverseDeliveries(Number(rfo.id.split("/").pop()))).toEqual([]);
    // All the RFO's units (an empty list), then none are left; a cancelled return takes no reverse delivery.
    const all = await deliver({ tracking: { number: "LB123" } });
    expect(all.body.data!.reverseDeliveryCreateWithShipping.userErrors).toEqual([]);
    const none = await deliver({});
    expect(none.body.data!.reverseDeliveryCreateWithShipping.userErrors).toMatchObject([{ field: ["reverseDeliveryLineItems"], code: "INVALID" }]);
    await h.gql(CANCEL, { id: requested.returnGid });
    const cancelled = await deliver({});
    expect(cancelled.body.data!.reverseDeliveryCreateWithShipping.userErrors).toMatchObject([{ field: ["reverseFulfillmentOrderId"], code: "INVALID_STATE" }]);
  });

  it("GIVEN a token without read_returns or write_returns WHEN it reads or writes returns THEN Shopify's ACCESS_DENIED names the scope, and nothing is written", async () => {
    const requested = aRequestedReturn(h.admin.store, { items: 1 });
    const token = h.admin.store.issueAccessToken({ kind: "offline", scope: "read_orders,read_fulfillments" }).token;
    const read = await h.gql(`query($id: ID!) { return(id: $id) { id } }`, { id: requested.returnGid }, token);
    expect(read.body.errors).toMatchObject([
      { message: "Access denied for return field. Required access: `read_returns` access scope.", extensions: { code: "ACCESS_DENIED" } },
    ]);
    const viaOrder = await h.gql(`query($id: ID!) { order(id: $id) { returns(first: 1) { nodes { id } } } }`, { id: requested.orderGid }, token);
    expect(viaOrder.body.errors).toMatchObject([{ extensions: { code: "ACCESS_DENIED", requiredAccess: "`read_returns` access scope." } }]);
    const viaNode = await h.gql(`query($id: ID!) { node(id: $id) { id } }`, { id: requested.returnGid }, token);
    expect(viaNode.body.errors).toMatchObject([{ extensions: { code: "ACCESS_DENIED" } }]);
    const approve = await h.gql(APPROVE, { input: { id: requested.returnGid } }, token);
    expect(approve.body.errors).toMatchObject([
      { message: "Access denied for returnApproveRequest field. Required access: `write_returns` access scope.", extensions: { code: "ACCESS_DENIED" } },
    ]);
    expect(h.admin.store.getReturn(requested.returnId)?.status).toBe("REQUESTED");
  });

  it("GIVEN a returns mutation WHEN sent THEN it is costed as any mutation (10, and 1 for each object selected: the return, its userErrors) and the throttle status is reported", async () => {
    const requested = aRequestedReturn(h.admin.store, { items: 1 });
    const approved = await h.gql(`mutation($input: ReturnApproveRequestInput!) { returnApproveRequest(input: $input) { return { id } userErrors { code } } }`, {
      input: { id: requested.returnGid },
    });
    expect(approved.body.extensions?.cost).toMatchObject({ requestedQueryCost: 12, throttleStatus: { maximumAvailable: 1000 } });
  });
});
