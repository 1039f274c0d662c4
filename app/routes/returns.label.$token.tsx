import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import prisma from "../db/db.server";
import { processLog } from "../log.server";
import { loadReturnLabel } from "../returns/return-label-link.server";

/**
 * A return label's link (docs/decisions/041): the URL Consign gives Shopify's reverse delivery and Shopify emails
 * the customer. No Shopify session: the random token in the address is the access; an unknown or expired one is a 404.
 */

const Params = z.object({ token: z.string().max(200) });

export const loader = async ({ params }: LoaderFunctionArgs) => {
  const parsed = Params.safeParse(params);
  const label = parsed.success
    ? await loadReturnLabel({ db: prisma, log: processLog(), now: () => new Date() }, parsed.data.token)
    : ({ kind: "not_found" } as const);
  if (label.kind === "not_found")
    return new Response("This return label link is not valid or has expired. Ask the shop for a new one.", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  if (label.kind === "unavailable")
    return new Response("The return label cannot be drawn right now. Please try again in a few minutes.", {
      status: 503,
      headers: { "content-type": "text/plain; charset=utf-8", "retry-after": "60" },
    });
  return new Response(new Uint8Array(label.pdf), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `inline; filename="${label.filename}"`,
      "cache-control": "private, no-store",
      "x-robots-tag": "noindex",
    },
  });
};
