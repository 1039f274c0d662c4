import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "@remix-run/react";
import { storageFallbackScript } from "./components/storage-fallback";

export default function App() {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        {/* Before any script that reads web storage: see storage-fallback.ts. */}
        <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: storageFallbackScript }} />
        <link rel="preconnect" href="https://cdn.shopify.com/" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}
