import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { contextFor } from "../context.server";
import { discardBody } from "../posted-form.server";
import { authenticateCustomer } from "../request-context.server";
import { describeIssues } from "../field-errors";
import { shopifyGid } from "../shopify/gid";
import { customerTracking } from "../extension/customer-tracking.server";

/**
 * The customer tracking extension's data (extensions/customer-tracking, on the customer's order status page):
 * one fulfillment's parcel, for the signed-in customer whose order it is. The extension sends the customer
 * account's session token as Bearer; `authenticate.public.customerAccount` verifies it and answers the CORS
 * preflight. Another customer's order, or a fulfillment Consign did not write, is 404 without saying which.
 */

const FulfillmentParam = z.string().regex(/^\d{1,20}$/, "must be the fulfillment's numeric id, e.g. 4001");

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { shop, customerId, cors } = await authenticateCustomer(request);
  const id = FulfillmentParam.safeParse(params.fulfillmentId);
  if (!id.success) return cors(json({ error: describeIssues(id.error.issues, () => ({ label: "Fulfillment" })).message }, { status: 400 }));
  const view = await customerTracking(contextFor(shop), { customerId, fulfillmentId: shopifyGid("Fulfillment", id.data) });
  if (!view) return cors(json({ error: "There is no tracking for this shipment in your account." }, { status: 404 }));
  return cors(json(view, { headers: { "cache-control": "private, no-store" } }));
};

/** Preflight (OPTIONS) is answered inside the authentication; anything else is not served here. */
export const action = async ({ request }: { request: Request }) => {
  const { cors } = await authenticateCustomer(request);
  await discardBody(request);
  return cors(json({ error: "Only GET is served here." }, { status: 405, headers: { allow: "GET, OPTIONS" } }));
};
