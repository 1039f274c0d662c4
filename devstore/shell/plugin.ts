import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { toGid } from "../gid.js";
import type { LocalAdmin } from "../server.js";
import { COMPLIANCE_TOPICS, splitScopes, type ComplianceTopic } from "../webhooks/subscriptions.js";
import { actionsFor, blocksFor, loadExtensionManifest, printActionsFor, type ExtensionModule } from "./extensions.js";
import { flowExtensions, listFlowActionCalls, listFlowTriggerRuns, listFlowWorkflows } from "../flow/flow.js";
import { returnApproveRequest, returnDeclineRequest, returnRequest, RETURN_DECLINE_REASONS, RETURN_REASONS } from "../store/return-ops.js";
import { loadOrderStatus, renderOrderStatusPage, type OrderStatusNotice } from "./order-status-page.js";
import { listShellOrders, loadShellOrder } from "./orders.js";
import {
  renderExtensionHostPage,
  renderFramePage,
  renderOrderPage,
  renderOrdersPage,
  renderWebhooksPage,
  renderFlowPage,
  SHELL_ASSETS,
  type ActionMenu,
  type PrintMenu,
  type ShellChrome,
} from "./pages.js";

export interface ShellOptions {
  /** The local admin the shell belongs to (its store is only read; allowed optional scopes go through grantOptionalScopes). */
  admin: Pick<
    LocalAdmin,
    | "store"
    | "shopDomain"
    | "mintSessionToken"
    | "mintCustomerSessionToken"
    | "webhooks"
    | "appConfig"
    | "grantedScopes"
    | "grantOptionalScopes"
    | "runFlowAction"
    | "changeFlowWorkflow"
  >;
  /** The app's URL (SHOPIFY_APP_URL): the frame loads `${appUrl}${path}`. */
  appUrl: string;
  /** The admin path segment of the app: /admin/apps/<handle>/… */
  appHandle?: string;
  appName?: string;
  /** Lifetime of minted tokens; Shopify's are one minute. */
  tokenTtlSeconds?: number;
  /** Orders per page in the order list. */
  pageSize?: number;
  /** The app's built admin UI extensions (`build/extensions`: manifest.json and one module per target). */
  extensionsDir?: string;
}

/** Query parameters the admin adds to the app URL itself; the frame never forwards caller-supplied ones. */
const FRAME_PARAMS = ["shop", "host", "embedded", "id_token", "hmac", "timestamp", "session", "locale"];

const ASSETS: Record<string, string> = {
  "frame.js": "text/javascript; charset=utf-8",
  "orders.js": "text/javascript; charset=utf-8",
  "shell.css": "text/css; charset=utf-8",
  "extension-host.js": "text/javascript; charset=utf-8",
  "extension-components.css": "text/css; charset=utf-8",
  "print-menu.js": "text/javascript; charset=utf-8",
  "more-actions.js": "text/javascript; charset=utf-8",
  "menu-button.js": "text/javascript; charset=utf-8",
};

function readAsset(name: string): string {
  return readFileSync(join(import.meta.dirname, "assets", name), "utf8");
}

/** `host` as Shopify passes it to embedded apps: base64 of `admin.shopify.com/store/<store-name>`. */
export function adminHost(shopDomain: string): string {
  const storeName = shopDomain.replace(/\.myshopify\.com$/, "");
  return Buffer.from(`admin.shopify.com/store/${storeName}`).toString("base64");
}

/**
 * The local admin's browser side: the order list at /admin, the app frame at /admin/apps/<handle>/<path>,
 * the App Bridge stand-in at /app-bridge.js and the endpoints the frame uses (session tokens, user, scopes).
 * Registered by the local admin server; reads the store, and writes only the optional scopes the merchant allows.
 */
export async function shellPlugin(app: FastifyInstance, options: ShellOptions): Promise<void> {
  const { store, shopDomain } = options.admin;
  const handle = options.appHandle ?? "consign";
  const appName = options.appName ?? "Consign";
  const appUrl = options.appUrl.replace(/\/+$/, "");
  const ttlSeconds = options.tokenTtlSeconds ?? 60;
  const pageSize = options.pageSize ?? 50;
  const framePrefix = `/admin/apps/${handle}`;
  const extensionPrefix = "/admin/extensions";
  const extensionModules = `${SHELL_ASSETS}/extension-modules`;
  const tokenEndpoint = `${SHELL_ASSETS}/session-token`;
  const customerTokenEndpoint = `${SHELL_ASSETS}/customer-session-token`;
  const userEndpoint = `${SHELL_ASSETS}/user`;
  const scopesEndpoint = `${SHELL_ASSETS}/scopes`;
  const appBridge = readAsset("app-bridge.js");
  const assets = new Map(Object.entries(ASSETS).map(([name, type]) => [name, { type, body: readAsset(name) }]));

  function chrome(current: ShellChrome["current"]): ShellChrome {
    return { storeName: store.getShop().name, shopDomain, app: { name: appName, handle }, current };
  }

  const mint = () => options.admin.mintSessionToken({ ttlSeconds });

  function sendHtml(reply: FastifyReply, body: { toString(): string }): FastifyReply {
    return reply.type("text/html; charset=utf-8").header("cache-control", "no-store").send(body.toString());
  }

  app.get("/app-bridge.js", async (_request, reply) => reply.type("text/javascript; charset=utf-8").header("cache-control", "no-cache").send(appBridge));

  app.get<{ Params: { name: string } }>(`${SHELL_ASSETS}/:name`, async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.code(404).send({ error: "Not found" });
    return reply.type(asset.type).header("cache-control", "no-cache").send(asset.body);
  });

  app.post(tokenEndpoint, async (_request, reply) => {
    return reply.header("cache-control", "no-store").send({ token: await mint() });
  });

  // A customer account session token for the customer the order status stand-in signed in (`?customer=<id>`).
  app.post<{ Querystring: { customer?: string } }>(customerTokenEndpoint, async (request, reply) => {
    const id = Number(request.query.customer);
    if (!Number.isSafeInteger(id) || !store.getCustomer(id))
      return reply.code(404).send({ error: `No customer ${request.query.customer ?? ""} in this store` });
    return reply.header("cache-control", "no-store").send({ token: await options.admin.mintCustomerSessionToken(id) });
  });

  app.get(userEndpoint, async (_request, reply) => {
    const owner = store.accountOwner();
    if (!owner) return reply.code(404).send({ error: "The store has no staff user" });
    return {
      id: owner.id,
      name: `${owner.first_name} ${owner.last_name}`.trim(),
      email: owner.email,
      accountOwner: owner.account_owner === 1,
      locale: owner.locale,
    };
  });

  // App Bridge's ScopesDetail: granted (required and allowed optional ones), required, optional.
  const scopesDetail = () => ({
    granted: options.admin.grantedScopes(),
    required: splitScopes(options.admin.appConfig.scopes),
    optional: options.admin.appConfig.optionalScopes,
  });
  app.get(scopesEndpoint, async (_request, reply) => reply.header("cache-control", "no-store").send(scopesDetail()));
  // The merchant clicked Allow in the admin's permission dialog for these optional scopes.
  app.post<{ Body: { scopes?: unknown } }>(scopesEndpoint, async (request, reply) => {
    const scopes = request.body?.scopes;
    if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every((scope) => typeof scope === "string"))
      return reply.code(400).send({ error: 'scopes must be a list of the app\'s optional scopes, like ["write_products"]' });
    const undeclared = scopes.filter((scope) => !options.admin.appConfig.optionalScopes.includes(scope));
    if (undeclared.length > 0) return reply.code(400).send({ error: `Not optional scopes of the app (shopify.app.toml): ${undeclared.join(", ")}` });
    options.admin.grantOptionalScopes(scopes);
    return reply.header("cache-control", "no-store").send(scopesDetail());
  });

  // The Print menu of a page: the app's print actions for its target, each with the host page it runs in
  // (the resources are added by the page: the order, or the selection).
  const printMenu = (page: "order-details" | "order-index"): PrintMenu => ({
    actions: printActionsFor(extensions(), page).map((extension: ExtensionModule) => ({
      name: extension.name,
      handle: extension.handle,
      src: `${extensionPrefix}/${extension.handle}/${extension.target}`,
    })),
    appUrl,
    tokenEndpoint,
  });

  // More actions of a page: the app's action extensions for its target, with their should-render.
  const actionMenu = (page: "order-details" | "order-index"): ActionMenu => ({
    actions: actionsFor(extensions(), page).map(({ action, shouldRender }) => ({
      name: action.name,
      handle: action.handle,
      src: `${extensionPrefix}/${action.handle}/${action.target}`,
      shouldRender: shouldRender ? `${extensionPrefix}/${shouldRender.handle}/${shouldRender.target}` : null,
    })),
  });

  app.get<{ Querystring: { page?: string } }>("/admin", async (request, reply) => {
    const list = listShellOrders(store, { page: Number(request.query.page ?? 1) || 1, pageSize });
    return sendHtml(reply, renderOrdersPage(chrome("orders"), list, store.getShop().iana_timezone, printMenu("order-index"), actionMenu("order-index")));
  });

  // Shopify admin URLs the app may open (shopify:admin/orders/…) land here through the frame's mapping.
  app.get("/admin/orders", async (_request, reply) => reply.redirect("/admin"));
  app.get<{ Params: { id: string } }>("/admin/orders/:id", async (request, reply) => {
    const detail = /^\d+$/.test(request.params.id) ? loadShellOrder(store, Number(request.params.id)) : null;
    if (!detail) return reply.code(404).type("text/plain; charset=utf-8").send(`No order ${request.params.id} in this store`);
    const blocks = blocksFor(extensions(), "order-details").map((extension) => ({
      name: extension.name,
      handle: extension.handle,
      src: `${extensionPrefix}/${extension.handle}/${extension.target}?${new URLSearchParams({ resource: detail.gid }).toString()}`,
    }));
    const flow = {
      actions: [...flowExtensions().values()].filter((extension) => extension.type === "flow_action"),
      calls: listFlowActionCalls(store, detail.order.id),
    };
    return sendHtml(
      reply,
      renderOrderPage(chrome("orders"), detail, store.getShop().iana_timezone, blocks, printMenu("order-details"), actionMenu("order-details"), flow),
    );
  });

  // "Run Flow action": the app's Flow action for this order, called as Flow calls it (signed); back to the order.
  app.post<{ Params: { id: string }; Body: { handle?: string } }>("/admin/orders/:id/flow-action", async (request, reply) => {
    const order = /^\d+$/.test(request.params.id) ? store.getOrder(Number(request.params.id)) : undefined;
    const handle = request.body?.handle;
    if (!order || typeof handle !== "string" || !flowExtensions().has(handle))
      return reply.code(404).type("text/plain; charset=utf-8").send("No such order or Flow action");
    await options.admin.runFlowAction({ handle, orderId: order.id });
    return reply.redirect(`/admin/orders/${order.id}`, 303);
  });

  // Flow's received triggers: a page, and JSON for tests.
  app.get<{ Querystring: { handle?: string } }>("/admin/flow/triggers.json", async (request, reply) =>
    reply.header("cache-control", "no-store").send(listFlowTriggerRuns(store, request.query.handle)),
  );
  app.get("/admin/flow", async (_request, reply) =>
    sendHtml(
      reply,
      renderFlowPage(
        chrome("flow"),
        { extensions: [...flowExtensions().values()], workflows: listFlowWorkflows(store), runs: listFlowTriggerRuns(store) },
        store.getShop().iana_timezone,
      ),
    ),
  );

  // Workflows using the app's triggers, as in Flow: turned on or off through the app's trigger lifecycle callback
  // (signed; on only once the app answers 2xx). A form (the Flow page's buttons) goes back to the page, which shows a
  // refusal; JSON (tests: { handle, enabled, timestamp?, signature? }) is answered with the app's status and answer.
  app.get("/admin/flow/workflows.json", async (_request, reply) => reply.header("cache-control", "no-store").send([...listFlowWorkflows(store).values()]));
  app.post<{ Body: Record<string, unknown> | undefined }>("/admin/flow/workflows", async (request, reply) => {
    const form = String(request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded");
    const body = request.body ?? {};
    const triggers = [...flowExtensions().values()].filter((extension) => extension.type === "flow_trigger").map((extension) => extension.handle);
    const handle = typeof body.handle === "string" && triggers.includes(body.handle) ? body.handle : null;
    if (handle === null) return reply.code(400).send({ error: `handle must be one of the app's Flow triggers: ${triggers.join(", ")}` });
    const enabled = form ? body.enabled === "true" : body.enabled;
    if (typeof enabled !== "boolean") return reply.code(400).send({ error: "enabled must be true (turn a workflow on) or false (turn it off)" });
    const change = await options.admin.changeFlowWorkflow({
      handle,
      enabled,
      ...(!form && typeof body.timestamp === "string" ? { timestamp: body.timestamp } : {}),
      ...(!form && typeof body.signature === "string" ? { signature: body.signature } : {}),
    });
    if (form) return reply.redirect("/admin/flow", 303);
    return reply
      .code(change.status ?? 502)
      .header("cache-control", "no-store")
      .send(change);
  });

  // The customer's order status page (stand-in): signed in as the order's customer, or as `?customer=<id>`.
  const orderStatus = (reply: FastifyReply, orderParam: string, customerParam: string | undefined, notice: OrderStatusNotice | null, status = 200) => {
    const customer = customerParam === undefined ? null : Number(customerParam);
    const notFound = (text: string) => reply.code(404).type("text/plain; charset=utf-8").send(text);
    if (!/^\d{1,15}$/.test(orderParam) || (customer !== null && !Number.isSafeInteger(customer))) return notFound("No such order");
    const detail = loadOrderStatus(store, Number(orderParam), customer);
    if (detail === null) return notFound(`No order ${orderParam} in this store`);
    if (detail === "no-customer") return notFound("No customer is signed in: the order was placed without one, or ?customer= names none. Add ?customer=<id>.");
    const targets = extensions().filter((extension) => extension.target === "customer-account.order-status.fulfillment-details.render-after");
    return sendHtml(
      reply.code(status),
      renderOrderStatusPage(
        detail,
        store.getShop().name,
        (fulfillmentGid) =>
          targets.map((extension) => ({
            name: extension.name,
            handle: extension.handle,
            src: `${extensionPrefix}/${extension.handle}/${extension.target}?${new URLSearchParams({ resource: fulfillmentGid, customer: String(detail.customer.id) }).toString()}`,
          })),
        notice,
      ),
    );
  };
  app.get<{ Params: { id: string }; Querystring: { customer?: string; requested?: string } }>("/account/orders/:id", async (request, reply) => {
    const requested = request.query.requested;
    return orderStatus(
      reply,
      request.params.id,
      request.query.customer,
      requested && /^#?[\w-]{1,40}$/.test(requested) ? { kind: "requested", name: requested } : null,
    );
  });

  // The customer asks to return shipped items (Shopify's self-serve returns): the order's own customer only,
  // through returnRequest, so the request is REQUESTED and returns/request reaches the app as from Shopify.
  app.post<{ Params: { id: string }; Querystring: { customer?: string }; Body: Record<string, string> | undefined }>(
    "/account/orders/:id/returns",
    async (request, reply) => {
      const body = request.body ?? {};
      const again = (message: string) => orderStatus(reply, request.params.id, request.query.customer, { kind: "error", message }, 400);
      const detail = /^\d{1,15}$/.test(request.params.id)
        ? loadOrderStatus(store, Number(request.params.id), request.query.customer ? Number(request.query.customer) : null)
        : null;
      if (detail === null || detail === "no-customer") return orderStatus(reply, request.params.id, request.query.customer, null);
      if (detail.owner?.id !== detail.customer.id)
        return reply.code(403).type("text/plain; charset=utf-8").send("Only the order's customer can ask to return its items.");
      const reason = RETURN_REASONS.find((candidate) => candidate === body.reason);
      if (!reason) return again("Choose why you are returning the items.");
      const lines = detail.returnable
        .map((line) => ({ line, quantity: Number(body[`quantity_${line.fulfillmentLineItemId}`] ?? 0) }))
        .filter(({ quantity }) => quantity !== 0);
      if (lines.length === 0) return again("Choose at least one item to return: set how many of it you are sending back.");
      const note = (body.note ?? "").trim();
      const outcome = returnRequest(store, {
        orderId: detail.order.id,
        lines: lines.map(({ line, quantity }) => ({
          fulfillmentLineItemId: line.fulfillmentLineItemId,
          quantity,
          returnReason: reason,
          returnReasonNote: null,
          customerNote: note || null,
        })),
      });
      if (!outcome.ok) return again(`${outcome.userErrors.map((error) => error.message).join(" ")} Change the quantities and try again.`);
      const name = store.getReturn(outcome.value.returnId)!.name;
      return reply.redirect(
        `/account/orders/${detail.order.id}?${new URLSearchParams({ customer: String(detail.customer.id), requested: name }).toString()}`,
        303,
      );
    },
  );

  // The merchant approves or declines a customer's request on the order page (Shopify's Approve / Decline), through
  // the same operations as the Admin API's, so the app gets returns/approve or returns/decline.
  app.post<{ Params: { id: string; returnId: string; decision: string }; Body: Record<string, string> | undefined }>(
    "/admin/orders/:id/returns/:returnId/:decision",
    async (request, reply) => {
      const { id, returnId, decision } = request.params;
      const ret = /^\d{1,15}$/.test(returnId) ? store.getReturn(Number(returnId)) : undefined;
      if (!ret || String(ret.order_id) !== id) return reply.code(404).type("text/plain; charset=utf-8").send(`No return ${returnId} on order ${id}`);
      let outcome;
      if (decision === "approve") outcome = returnApproveRequest(store, ret.id);
      else if (decision === "decline") {
        const reason = RETURN_DECLINE_REASONS.find((candidate) => candidate === request.body?.reason) ?? "OTHER";
        outcome = returnDeclineRequest(store, ret.id, reason, request.body?.note?.trim() || null);
      } else return reply.code(404).type("text/plain; charset=utf-8").send("Returns can be approved or declined here");
      if (!outcome.ok)
        return reply
          .code(409)
          .type("text/plain; charset=utf-8")
          .send(outcome.userErrors.map((error) => error.message).join(" "));
      return reply.redirect(`/admin/orders/${id}`, 303);
    },
  );

  // Admin UI extensions: the host page a block runs in, and the built modules (read per request, so a rebuild
  // shows without restarting the local admin).
  const extensions = () => (options.extensionsDir ? loadExtensionManifest(options.extensionsDir) : []);
  // A block or a print action runs on one resource; a selection's print action on several (`resource` repeated).
  app.get<{ Params: { handle: string; target: string }; Querystring: { resource?: string | string[]; customer?: string } }>(
    `${extensionPrefix}/:handle/:target`,
    async (request, reply) => {
      const extension = extensions().find((candidate) => candidate.handle === request.params.handle && candidate.target === request.params.target);
      if (!extension) return reply.code(404).type("text/plain; charset=utf-8").send(`No built extension ${request.params.handle} for ${request.params.target}`);
      const resources = [request.query.resource ?? ""].flat();
      const several = extension.target.includes(".selection-");
      if ((!several && resources.length !== 1) || resources.length > 250 || resources.some((resource) => !/^gid:\/\/shopify\/[A-Za-z]+\/\d+$/.test(resource)))
        return reply
          .code(400)
          .type("text/plain; charset=utf-8")
          .send(`resource must be ${several ? "one to 250 GIDs" : "a GID"} such as gid://shopify/Order/1001`);
      // A customer account extension runs for the signed-in customer: its session tokens are theirs.
      const customer = extension.target.startsWith("customer-account.") ? Number(request.query.customer) : null;
      if (customer !== null && (!Number.isSafeInteger(customer) || !store.getCustomer(customer)))
        return reply.code(400).type("text/plain; charset=utf-8").send("customer must be the id of a customer of this store, e.g. 1");
      return sendHtml(
        reply,
        renderExtensionHostPage({
          extension,
          moduleUrl: `${extensionModules}/${extension.module}`,
          appUrl,
          framePrefix,
          tokenEndpoint: customer === null ? tokenEndpoint : `${customerTokenEndpoint}?${new URLSearchParams({ customer: String(customer) }).toString()}`,
          selected: resources.map((id) => ({ id })),
        }),
      );
    },
  );
  app.get<{ Params: { handle: string; file: string } }>(`${extensionModules}/:handle/:file`, async (request, reply) => {
    const module = extensions().find((candidate) => candidate.module === `${request.params.handle}/${request.params.file}`);
    if (!module || !options.extensionsDir) return reply.code(404).send({ error: "Not found" });
    return reply
      .type("text/javascript; charset=utf-8")
      .header("cache-control", "no-cache")
      .send(readFileSync(join(options.extensionsDir, module.module), "utf8"));
  });

  // The emails Shopify would have sent customers (a reverse delivery's label and tracking), newest first.
  app.get<{ Querystring: { order?: string } }>("/admin/customer-emails.json", async (request, reply) => {
    const order = request.query.order === undefined ? undefined : Number(request.query.order);
    if (order !== undefined && !Number.isSafeInteger(order)) return reply.code(400).send({ error: "order must be an order's number, e.g. 1001" });
    const emails = store
      .listCustomerEmails(order)
      .reverse()
      .map((email) => ({
        id: email.id,
        orderId: toGid("Order", email.order_id),
        to: email.to_email,
        subject: email.subject,
        body: email.body,
        labelUrl: email.label_url,
        trackingUrl: email.tracking_url,
        sentAt: email.created_at,
      }));
    return reply.header("cache-control", "no-store").send({ emails });
  });

  const recentDeliveries = 50;
  app.get<{ Querystring: { sent?: string } }>("/admin/webhooks", async (request, reply) => {
    const deliveries = store.listWebhookDeliveries().slice(-recentDeliveries).reverse();
    const sent = COMPLIANCE_TOPICS.find((topic) => topic === request.query.sent) ?? null;
    return sendHtml(reply, renderWebhooksPage(chrome("webhooks"), { topics: COMPLIANCE_TOPICS, deliveries, sent }));
  });

  app.post<{ Body: { topic?: string; email?: string } }>("/admin/webhooks/compliance", async (request, reply) => {
    const topic = COMPLIANCE_TOPICS.find((candidate): candidate is ComplianceTopic => candidate === request.body?.topic);
    if (!topic) return reply.code(400).send({ error: `topic must be one of ${COMPLIANCE_TOPICS.join(", ")}` });
    const email = request.body?.email?.trim();
    options.admin.webhooks.triggerCompliance(topic, email ? { id: 1, email } : undefined);
    return reply.redirect(`/admin/webhooks?sent=${encodeURIComponent(topic)}`, 303);
  });

  const framePage = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = new URL(request.url, "http://local-admin");
    const appPath = url.pathname.slice(framePrefix.length) || "/";
    const query = new URLSearchParams(url.search);
    for (const key of FRAME_PARAMS) query.delete(key);
    query.set("embedded", "1");
    query.set("host", adminHost(shopDomain));
    query.set("locale", "en");
    query.set("shop", shopDomain);
    query.set("id_token", await mint());
    return sendHtml(
      reply,
      renderFramePage({
        chrome: chrome("app"),
        iframeSrc: `${appUrl}${appPath}?${query.toString()}`,
        framePrefix,
        tokenEndpoint,
        userEndpoint,
        scopesEndpoint,
      }),
    );
  };
  app.get(framePrefix, framePage);
  app.get(`${framePrefix}/*`, framePage);
}
