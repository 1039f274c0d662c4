import { PassThrough } from "node:stream";
import type { EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { config } from "./config.server";
import { processLog } from "./log.server";
import { allowLocalAdminToFrame } from "./shopify/local-admin.server";
import { addDocumentResponseHeaders } from "./shopify.server";
import "./startup.server";

export const streamTimeout = 5000;

export default async function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  addDocumentResponseHeaders(request, responseHeaders);
  const localAdminUrl = config().LOCAL_ADMIN_URL;
  if (localAdminUrl) allowLocalAdminToFrame(responseHeaders, localAdminUrl);
  const userAgent = request.headers.get("user-agent");
  const callbackName = isbot(userAgent ?? "") ? "onAllReady" : "onShellReady";

  return new Promise((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} />, {
      [callbackName]: () => {
        const body = new PassThrough();
        const stream = createReadableStreamFromReadable(body);
        responseHeaders.set("Content-Type", "text/html");
        resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error) {
        reject(error);
      },
      onError(error) {
        responseStatusCode = 500;
        processLog().error({ err: error, url: request.url }, "rendering failed");
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}
