import type { LoaderFunctionArgs } from "@remix-run/node";
import { OverviewQuery } from "../overview/overview";
import { overviewCsv, shippingOverview } from "../overview/overview.server";
import { adminContext } from "../request-context.server";

/** The Shipping overview of a period as a CSV file (`?period=30`). */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await adminContext(request);
  const query = OverviewQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success)
    return new Response(query.error.issues[0]?.message ?? "period is invalid", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  const overview = await shippingOverview(ctx, query.data.period);
  const now = ctx.now();
  return new Response(overviewCsv(overview), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="consign-overview-${query.data.period}d-${now.toISOString().slice(0, 10)}.csv"`,
      "cache-control": "private, no-store",
    },
  });
};
