import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requestContext } from "../request-context.server";
import { describeIssues, inMerchantWords } from "../field-errors";
import { PrintChoice } from "../documents/print-choice";
import { shipmentPrintJob } from "../documents/print-job.server";

/**
 * The documents of one booked shipment of the order (`?shipment=<id>`): its label in the format it was booked
 * with (`documents=labels`, the default), or its label with its packing slip, the slip alone, or its pick list.
 */

const LabelQuery = z.object({
  shipment: z.string().min(1, "is required: say which shipment's documents to print").max(64),
  documents: z.enum(PrintChoice.options, `must be one of ${PrintChoice.options.join(", ")}`).default("labels"),
});

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await requestContext(request);
  const query = LabelQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams), { error: inMerchantWords });
  const text = { "content-type": "text/plain; charset=utf-8" };
  if (!query.success) return new Response(describeIssues(query.error.issues).message, { status: 400, headers: text });
  const label = await shipmentPrintJob(ctx, query.data.shipment, query.data.documents);
  if (!label.ok) return new Response(label.message, { status: 422, headers: text });
  return new Response(new Uint8Array(label.body), {
    headers: { "content-type": label.contentType, "content-disposition": `attachment; filename="${label.filename}"`, "cache-control": "private, no-store" },
  });
};
