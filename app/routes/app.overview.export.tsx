import type { LoaderFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { OverviewQuery } from "../overview/overview";
import { overviewCsv, shippingOverview } from "../overview/overview.server";
import { authenticate } from "../shopify.server";

/** The Shipping overview of a period as a CSV file (`?period=30`). */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const query = OverviewQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return new Response(query.error.issues[0]?.message ?? "period is invalid", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  const now = new Date();
  const overview = await shippingOverview(prisma, session.shop, query.data.period, now);
  return new Response(overviewCsv(overview), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="consign-overview-${query.data.period}d-${now.toISOString().slice(0, 10)}.csv"`,
      "cache-control": "private, no-store",
    },
  });
};
