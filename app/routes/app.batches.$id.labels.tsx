import type { LoaderFunctionArgs } from "@remix-run/node";
import { BatchNotFoundError } from "../batches/batch-store.server";
import { batchLabels } from "../booking/batch-booking.server";
import { requestContext } from "../request-context.server";

/**
 * The combined labels PDF of a booked batch (View Batch Labels; reprints too). A batch without labels
 * answers 422 with what to do, as text.
 */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { ctx } = await requestContext(request);
  try {
    const labels = await batchLabels(ctx, params.id ?? "");
    if (!labels.ok) return new Response(labels.message, { status: 422, headers: { "content-type": "text/plain; charset=utf-8" } });
    return new Response(new Uint8Array(labels.pdf), {
      headers: {
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename="${labels.filename}"`,
        "cache-control": "private, no-store",
      },
    });
  } catch (error) {
    if (error instanceof BatchNotFoundError) return new Response(error.message, { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
    throw error;
  }
};
