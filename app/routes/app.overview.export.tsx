import type { LoaderFunctionArgs } from "@remix-run/node";
import { describeIssues } from "../field-errors";
import { OverviewQuery } from "../overview/overview";
import { overviewCsv, shippingOverview } from "../overview/overview.server";
import { dayInZone } from "../locale/shop-time";
import { loadServiceNames } from "../quoting/service-names.server";
import { adminContext } from "../request-context.server";
import { loadShopTimeZone } from "../settings/shop-time-zone.server";

/** The Shipping overview of a period as a CSV file (`?period=30`). */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await adminContext(request);
  const query = OverviewQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success)
    return new Response(describeIssues(query.error.issues).message, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  const [names, timeZone] = await Promise.all([loadServiceNames(ctx), loadShopTimeZone(ctx)]);
  const overview = await shippingOverview(ctx, query.data.period, names);
  const now = ctx.now();
  return new Response(overviewCsv(overview, timeZone), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="consign-overview-${query.data.period}d-${dayInZone(now, timeZone)}.csv"`,
      "cache-control": "private, no-store",
    },
  });
};
