// The app's production server (`npm start`): what remix-serve did (the build's assets, compression, the
// Remix request handler over express), with the app's public edge in front (server/edge.ts,
// docs/decisions/020). `npm run build` compiles it to build/server/main.js (scripts/build-server.mjs), which `npm start` runs
// with Node alone: node build/server/main.js [build/server/index.js]; PORT (default 3000) and HOST.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { pino } from "pino";
import { answerClientErrors, edge, internalError } from "./edge";
import { applyMemorySettings } from "../lib/memory";

applyMemorySettings();

process.env.NODE_ENV = process.env.NODE_ENV ?? "production";
// The server's own lines, in the app's format and at its level (LOG_LEVEL, app/config.server.ts); the app's come from its build.
const log = pino({ level: process.env.LOG_LEVEL?.trim() || "info", base: { app: "consign" } });
const buildPath = resolve(process.argv[2] ?? "build/server/index.js");
const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
installGlobals({ nativeFetch: build.future.v3_singleFetch });

const app = express();
app.disable("x-powered-by");
app.use(edge());
app.use(compression());
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
// Every path and method to Remix, mounted without a route pattern: express decodes no parameter of the path.
app.use(createRequestHandler({ build, mode: process.env.NODE_ENV }));
app.use(internalError(log));

const port = Number(process.env.PORT ?? 3000);
const onListen = () => log.info(`app serving on http://${process.env.HOST ?? "localhost"}:${port}`);
const server = process.env.HOST ? app.listen(port, process.env.HOST, onListen) : app.listen(port, onListen);
answerClientErrors(server);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => server.close((error) => error && log.error({ err: error }, "closing the server failed")));
}
