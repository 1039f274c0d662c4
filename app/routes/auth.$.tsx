import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { boundary } from "@shopify/shopify-app-remix/server";
import { config } from "../config.server";
import { allowLocalAdminToFrame } from "../shopify/local-admin.server";
import { authenticateAdmin } from "../request-context.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  try {
    await authenticateAdmin(request);
  } catch (thrown) {
    // The library answers /auth/session-token (the bounce page) with a thrown Response that never passes
    // through entry.server.tsx, so the local admin must be allowed to frame it here too.
    const localAdminUrl = config().LOCAL_ADMIN_URL;
    if (thrown instanceof Response && localAdminUrl) allowLocalAdminToFrame(thrown.headers, localAdminUrl);
    throw thrown;
  }
  return null;
};

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
