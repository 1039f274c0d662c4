import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requestContext } from "../request-context.server";
import { shipmentLabel } from "../booking/single-booking.server";

/** The label of one booked shipment of the order (`?shipment=<id>`), in the format it was booked with. */

const LabelQuery = z.object({ shipment: z.string().min(1, "shipment: which shipment's label is missing").max(64) });

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await requestContext(request);
  const query = LabelQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const text = { "content-type": "text/plain; charset=utf-8" };
  if (!query.success) return new Response(query.error.issues[0]?.message ?? "shipment is missing", { status: 400, headers: text });
  const label = await shipmentLabel(ctx, query.data.shipment);
  if (!label.ok) return new Response(label.message, { status: 422, headers: text });
  return new Response(new Uint8Array(label.body), {
    headers: { "content-type": label.contentType, "content-disposition": `attachment; filename="${label.filename}"`, "cache-control": "private, no-store" },
  });
};
