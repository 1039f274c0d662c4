import type { LoaderFunctionArgs } from "@remix-run/node";
import { BatchNotFoundError } from "../batches/batch-store.server";
import { PrintChoice, batchPrintJob } from "../documents/print-job.server";
import { requestContext } from "../request-context.server";

const text = (body: string, status: number) => new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });

/**
 * A booked batch's print job as one PDF, in the batch's order (reprints too): `?documents=labels` (the default:
 * View Batch Labels), `labels-and-slips` (each order's packing slip after its label and invoice), `slips` or
 * `pick-list`. A batch without labels answers 422 with what to do, an unknown choice 400 naming it, as text.
 */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { ctx } = await requestContext(request);
  const choice = PrintChoice.safeParse(new URL(request.url).searchParams.get("documents") ?? "labels");
  if (!choice.success) return text(`documents must be one of ${PrintChoice.options.join(", ")}`, 400);
  try {
    const job = await batchPrintJob(ctx, params.id ?? "", choice.data);
    if (!job.ok) return text(job.message, 422);
    return new Response(new Uint8Array(job.pdf), {
      headers: {
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename="${job.filename}"`,
        "cache-control": "private, no-store",
      },
    });
  } catch (error) {
    if (error instanceof BatchNotFoundError) return text(error.message, 404);
    throw error;
  }
};
