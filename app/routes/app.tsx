import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { pageMeta } from "../components/page-title";
import { config } from "../config.server";
import { ShopTimeProvider } from "../components/shop-time";
import { adminContext } from "../request-context.server";
import { loadShopTimeZone } from "../settings/shop-time-zone.server";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await adminContext(request);
  const env = config();
  // Every page writes dates in the shop's time zone (kept with its profile; Shopify is asked once a day).
  return { apiKey: env.SHOPIFY_API_KEY, appBridgeUrl: env.APP_BRIDGE_URL ?? null, timeZone: await loadShopTimeZone(ctx) };
};

/**
 * The layout's data is the app's configuration and the shop's time zone, the same on every page: a filter, a page turn or an action
 * re-reads the page's own data alone (one request, not two). Each page's loader authenticates on its own.
 */
export const shouldRevalidate: ShouldRevalidateFunction = () => false;

/** The document's title where a page names none of its own (app/components/page-title.tsx). */
export const meta = pageMeta;

export default function App() {
  const { apiKey, appBridgeUrl, timeZone } = useLoaderData<typeof loader>();
  return (
    <AppProvider isEmbeddedApp apiKey={apiKey} {...(appBridgeUrl ? { __APP_BRIDGE_URL: appBridgeUrl } : {})}>
      <NavMenu>
        <Link to="/app" rel="home">
          Orders to ship
        </Link>
        <Link to="/app/quotes">Rates</Link>
        <Link to="/app/batches">Batches</Link>
        <Link to="/app/shipments">Shipments</Link>
        <Link to="/app/returns">Returns</Link>
        <Link to="/app/fulfillments">Fulfillments</Link>
        <Link to="/app/overview">Overview</Link>
        <Link to="/app/settings">Settings</Link>
      </NavMenu>
      <main>
        <ShopTimeProvider timeZone={timeZone}>
          <Outlet />
        </ShopTimeProvider>
      </main>
    </AppProvider>
  );
}

// Shopify needs Remix to catch some thrown responses so that their headers are included in the response.
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
