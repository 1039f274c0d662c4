import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { config } from "./config.server";
import prisma from "./db/db.server";
import { installLocalAdminFetch } from "./shopify/local-admin.server";

const env = config();

// The node adapter (imported above) installs the global fetch; the local admin reroute wraps it.
if (env.LOCAL_ADMIN_URL) installLocalAdminFetch(env.LOCAL_ADMIN_URL);

/** The Admin API version the app, its codegen and the local admin all use. */
export const ADMIN_API_VERSION = ApiVersion.October26;

const shopify = shopifyApp({
  apiKey: env.SHOPIFY_API_KEY,
  apiSecretKey: env.SHOPIFY_API_SECRET,
  apiVersion: ADMIN_API_VERSION,
  scopes: env.SCOPES?.split(","),
  appUrl: env.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  sessionStorage: new PrismaSessionStorage(prisma),
  distribution: AppDistribution.AppStore,
  future: {
    unstable_newEmbeddedAuthStrategy: true,
  },
  hooks: {
    // Installation (a new session from token exchange): the shop's first order sync is queued here, never
    // started by a page; what it does is set by the composition root (whenInstalled).
    afterAuth: ({ session }) => installed(session.shop),
  },
  ...(env.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [env.SHOP_CUSTOM_DOMAIN] } : {}),
});

/**
 * What installation does after the session is stored: set once by the composition root (app/context.server.ts,
 * which every authenticating route loads through app/request-context.server.ts), so this module, which that
 * root builds on, imports no job or domain module.
 */
let installed = async (shop: string): Promise<void> => {
  throw new Error(`${shop} installed before the composition root set what installation does (app/context.server.ts: whenInstalled)`);
};

export function whenInstalled(hook: (shop: string) => Promise<void>): void {
  installed = hook;
}

export default shopify;
export const apiVersion = ADMIN_API_VERSION;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const registerWebhooks = shopify.registerWebhooks;
export const sessionStorage = shopify.sessionStorage;
