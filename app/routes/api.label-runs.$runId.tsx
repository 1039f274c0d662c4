import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { contextFor } from "../context.server";
import { buyLabels, labelRunView } from "../extension/label-run.server";
import { discardBody } from "../posted-form.server";
import { authenticateAdmin } from "../request-context.server";
import { describeIssues } from "../field-errors";
import { NotConnectedError } from "../shipping/client.server";
import { withShipping } from "../shipping/context.server";

/**
 * One Buy labels modal's run (extensions/buy-labels): GET reads its progress, picks, total and spend checkpoint,
 * then the batch's booking and write-back; POST buys (creates the batch, then books it once it is open). Another
 * shop's run is 404. Session token as Bearer, cross-origin (CORS), as every extension route.
 */

const RunParam = z.string().regex(/^[a-z0-9]{1,40}$/i, "must be the id the modal was given when it started quoting");

async function shippingContext(request: Request, runId: string | undefined) {
  const { admin, session, cors } = await authenticateAdmin(request);
  const refuse = (status: number, error: string) => cors(json({ error }, { status }));
  const id = RunParam.safeParse(runId);
  if (!id.success) return { refusal: refuse(400, describeIssues(id.error.issues, () => ({ label: "Run" })).message) };
  try {
    return { ctx: await withShipping(contextFor(session.shop, { shopify: { admin, shop: session.shop } })), runId: id.data, cors, refuse };
  } catch (error) {
    if (error instanceof NotConnectedError)
      return { refusal: refuse(409, "Consign is not connected to a Shipping API account yet. Open Consign and connect it, then buy labels.") };
    throw error;
  }
}

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const opened = await shippingContext(request, params.runId);
  if ("refusal" in opened) return opened.refusal;
  const view = await labelRunView(opened.ctx, opened.runId);
  if (!view) return opened.refuse(404, "Consign has no such quote for this store. Close this and select the orders again.");
  return opened.cors(json(view, { headers: { "cache-control": "private, no-store" } }));
};

export const action = async ({ request, params }: LoaderFunctionArgs) => {
  const opened = await shippingContext(request, params.runId);
  await discardBody(request);
  if ("refusal" in opened) return opened.refusal;
  if (request.method !== "POST")
    return opened.cors(json({ error: "Only GET and POST are served here." }, { status: 405, headers: { allow: "GET, POST, OPTIONS" } }));
  const bought = await buyLabels(opened.ctx, opened.runId);
  if (!bought.ok) return opened.refuse(bought.status, bought.message);
  return opened.cors(json({ stage: bought.stage }, { status: 202, headers: { "cache-control": "private, no-store" } }));
};
