import type { LoaderFunctionArgs } from "@remix-run/node";
import { describeIssues, inMerchantWords } from "../field-errors";
import { z } from "zod";
import { QuotingInputError } from "../quoting/errors";
import { loadShipmentRates } from "../quoting/run-view.server";
import { adminContext } from "../request-context.server";

/**
 * Every rate of one shipment, read when the merchant unfolds its order's "All N rates" on the rates page (the
 * page itself carries only each shipment's pick). `?shipment=<id>`; another shop's shipment is a 404.
 */

const RatesQuery = z.object({ shipment: z.string().min(1, "is required").max(64, "is too long") });

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await adminContext(request);
  const query = RatesQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams), { error: inMerchantWords });
  if (!query.success) throw new Response(describeIssues(query.error.issues).message, { status: 400 });
  try {
    return { shipmentId: query.data.shipment, options: await loadShipmentRates(ctx, query.data.shipment) };
  } catch (error) {
    if (error instanceof QuotingInputError) throw new Response(error.message, { status: error.status });
    throw error;
  }
};
