import { html, type Html } from "./html.js";
import type { Address, WebhookDeliveryRow } from "../store/types.js";
import { returnItemLines, returnStatusBadge, reverseDeliveryLines } from "./returns.js";
import type { ShellOrderDetail, ShellOrderPage } from "./orders.js";

/** What every shell page shows in its chrome. */
export interface ShellChrome {
  storeName: string;
  shopDomain: string;
  app: { name: string; handle: string };
  /** Which sidebar entry is current. */
  current: "orders" | "webhooks" | "flow" | "app";
}

export const SHELL_ASSETS = "/admin/shell";

function layout(chrome: ShellChrome, title: string, body: Html, scripts: string[]): Html {
  // The app's home; /admin/apps/<handle> alone loads the app's root, as Shopify loads application_url.
  const appHome = `/admin/apps/${chrome.app.handle}/app`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>${title} · ${chrome.storeName}</title>
        <link rel="stylesheet" href="${SHELL_ASSETS}/shell.css" />
      </head>
      <body>
        <header class="topbar">
          <a class="brand" href="/admin">Local admin</a>
          <span class="store-name" data-testid="store-name">${chrome.storeName}</span>
          <span class="shop-domain">${chrome.shopDomain}</span>
        </header>
        <div class="frame">
          <nav class="sidebar" aria-label="Admin">
            <a href="/admin" class="${chrome.current === "orders" ? "current" : ""}">Orders</a>
            <a href="/admin/webhooks" class="${chrome.current === "webhooks" ? "current" : ""}">Webhooks</a>
            <a href="/admin/flow" class="${chrome.current === "flow" ? "current" : ""}">Flow</a>
            <div class="sidebar-section">Apps</div>
            <a href="${appHome}" data-app-home-link class="app-link ${chrome.current === "app" ? "current" : ""}">${chrome.app.name}</a>
            <div id="app-nav" class="app-nav"></div>
          </nav>
          <main class="content">${body}</main>
        </div>
        ${scripts.map((name) => html`<script src="${SHELL_ASSETS}/${name}"></script>`)}
      </body>
    </html>`;
}

function formatDate(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(iso));
}

/** `PARTIALLY_FULFILLED` → "Partially fulfilled". */
function humanize(value: string): string {
  return value.charAt(0) + value.slice(1).toLowerCase().replace(/_/g, " ");
}

function statusBadge(status: string, cancelled: boolean): Html {
  if (cancelled) return html`<span class="badge badge-critical">Cancelled</span>`;
  const tone = status === "FULFILLED" || status === "SUCCESS" ? "success" : status === "UNFULFILLED" || status === "OPEN" ? "attention" : "info";
  return html`<span class="badge badge-${tone}">${humanize(status)}</span>`;
}

/** The app's print actions a page's Print menu lists (print-menu.js runs them). */
export interface PrintMenu {
  /** Each print action: its name, handle, and its host page without the resources. */
  actions: Array<{ name: string; handle: string; src: string }>;
  /** The app's URL (a relative `src` resolves against it) and where the admin gets a session token to fetch it. */
  appUrl: string;
  tokenEndpoint: string;
}

/**
 * A Print button and its menu of the app's print actions, and the print dialog one opens: the extension on the
 * left, the document its `src` names on the right (fetched from the app with a session token), and Print.
 * `resources`: the order's GID on its page; none on the order list, where the selection is read when it opens.
 */
function printMenu(menu: PrintMenu, resources: readonly string[], disabled: boolean): Html {
  const config = { appUrl: menu.appUrl, tokenEndpoint: menu.tokenEndpoint, resources, actions: menu.actions };
  return html`<div class="print-menu" data-print-menu data-print-config="${JSON.stringify(config)}">
      <button type="button" class="btn" data-print-button aria-haspopup="menu" aria-expanded="false" ${disabled ? "disabled" : ""}>Print</button>
      <div class="menu" role="menu" data-print-items hidden>
        ${
          menu.actions.length === 0
            ? html`<p class="menu-empty">No app adds prints here yet.</p>`
            : menu.actions.map((action) => html`<button type="button" role="menuitem" data-print-action="${action.handle}">${action.name}</button>`)
        }
      </div>
    </div>
    <dialog class="print-dialog" data-print-dialog aria-labelledby="print-dialog-title">
      <header class="print-dialog-header">
        <h2 id="print-dialog-title" data-print-title>Print</h2>
        <button type="button" class="btn btn-plain" data-print-close aria-label="Close">×</button>
      </header>
      <div class="print-dialog-body">
        <iframe class="print-extension" title="Print options" data-print-extension></iframe>
        <section class="print-preview" aria-label="Document preview">
          <p class="subdued" data-print-status role="status">Choose what to print.</p>
          <iframe title="Document to print" data-print-preview hidden></iframe>
        </section>
      </div>
      <footer class="print-dialog-footer">
        <button type="button" class="btn" data-print-close>Cancel</button>
        <button type="button" class="btn btn-primary" data-print-submit disabled>Print</button>
      </footer>
    </dialog>`;
}

/** The app's action extensions a page's More actions lists (more-actions.js runs them). */
export interface ActionMenu {
  /** Each action: its name, handle, its host page, and its should-render's host page (without the resources). */
  actions: Array<{ name: string; handle: string; src: string; shouldRender: string | null }>;
}

/**
 * A More actions button and its menu of the app's action extensions, and the modal one opens over the page, as
 * Shopify's admin does: the extension runs in it (extension-host.js, on the order or the selected orders) and
 * closes it with shopify.close(). On the order list, an action whose should-render answers `display: false` for
 * the selection is left out of the menu. `resources`: the order's GID on its page; none on the order list.
 */
function moreActions(menu: ActionMenu, resources: readonly string[], disabled: boolean): Html {
  const config = { resources, actions: menu.actions };
  return html`<div class="print-menu more-actions" data-more-actions data-actions-config="${JSON.stringify(config)}">
      <button type="button" class="btn" data-actions-button aria-haspopup="menu" aria-expanded="false" ${disabled ? "disabled" : ""}>More actions</button>
      <div class="menu" role="menu" data-actions-items hidden>
        <p class="menu-empty" data-actions-empty ${menu.actions.length === 0 ? "" : "hidden"}>
          No app adds actions here${menu.actions.length === 0 ? " yet" : " for this selection"}.
        </p>
        ${menu.actions.map((action) => html`<button type="button" role="menuitem" data-action="${action.handle}">${action.name}</button>`)}
      </div>
      <span data-should-render hidden></span>
    </div>
    <dialog class="action-dialog" data-action-dialog aria-label="App action">
      <iframe class="action-extension" title="App action" data-action-extension></iframe>
    </dialog>`;
}

/** The scripts of a page's Print menu and More actions, after the menu button they share. */
function menuScripts(print: PrintMenu | undefined, actions: ActionMenu | undefined): string[] {
  if (!print && !actions) return [];
  return ["menu-button.js", ...(print ? ["print-menu.js"] : []), ...(actions ? ["more-actions.js"] : [])];
}

export function renderOrdersPage(chrome: ShellChrome, list: ShellOrderPage, timeZone: string, print?: PrintMenu, actions?: ActionMenu): Html {
  const bulkAction = `/admin/apps/${chrome.app.handle}/app/quotes/new`;
  const rows = list.orders.map(
    (order) =>
      html` <tr data-testid="order-row" data-order-name="${order.name}">
        <td class="check"><input type="checkbox" name="ids[]" value="${order.gid}" aria-label="Select ${order.name}" /></td>
        <td class="order-name"><a href="/admin/orders/${order.id}">${order.name}</a></td>
        <td>${formatDate(order.createdAt, timeZone)}</td>
        <td>${order.customer ?? html`<span class="subdued">No customer</span>`}</td>
        <td>${order.destinationCountry ?? html`<span class="subdued">—</span>`}</td>
        <td>${statusBadge(order.fulfillmentStatus, order.cancelled)}</td>
        <td class="num">${order.itemCount} ${order.itemCount === 1 ? "item" : "items"}</td>
      </tr>`,
  );
  const pager =
    list.pageCount > 1
      ? html`<div class="pager">
          ${list.page > 1 ? html`<a class="btn" href="/admin?page=${list.page - 1}" rel="prev">Previous</a>` : ""}
          <span>Page ${list.page} of ${list.pageCount}</span>
          ${list.page < list.pageCount ? html`<a class="btn" href="/admin?page=${list.page + 1}" rel="next">Next</a>` : ""}
        </div>`
      : "";
  const body = html` <div class="page-header">
      <h1>Orders</h1>
      <span class="subdued">${list.total} ${list.total === 1 ? "order" : "orders"}</span>
    </div>
    <form class="card" method="get" action="${bulkAction}" data-orders-form>
      <div class="bulk-bar">
        <span data-selected-count>No orders selected</span>
        <span class="title-actions">
          ${print ? printMenu(print, [], true) : ""} ${actions ? moreActions(actions, [], true) : ""}
          <button type="submit" class="btn btn-primary" data-bulk-action disabled>Create shipping labels</button>
        </span>
      </div>
      ${
        list.orders.length === 0
          ? html`<p class="empty">No orders yet. Seed the store or create orders through the Admin API.</p>`
          : html`<table class="orders">
              <thead>
                <tr>
                  <th class="check"><input type="checkbox" data-select-all aria-label="Select all orders on this page" /></th>
                  <th>Order</th>
                  <th>Date</th>
                  <th>Customer</th>
                  <th>Destination</th>
                  <th>Fulfillment status</th>
                  <th class="num">Items</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>`
      }
    </form>
    ${pager}`;
  return layout(chrome, "Orders", body, ["orders.js", ...menuScripts(print, actions)]);
}

export interface FramePageInput {
  chrome: ShellChrome;
  /** The app URL the iframe loads, with shop, host, embedded and id_token. */
  iframeSrc: string;
  /** Path prefix of the frame page (`/admin/apps/<handle>`); the app path is appended to it. */
  framePrefix: string;
  tokenEndpoint: string;
  userEndpoint: string;
  /** The app's scopes on this shop (GET), and the merchant allowing optional ones (POST). */
  scopesEndpoint: string;
}

export function renderFramePage(input: FramePageInput): Html {
  const { chrome } = input;
  const body = html` <div
    class="app-frame"
    data-app-frame
    data-app-name="${chrome.app.name}"
    data-frame-prefix="${input.framePrefix}"
    data-token-endpoint="${input.tokenEndpoint}"
    data-user-endpoint="${input.userEndpoint}"
    data-scopes-endpoint="${input.scopesEndpoint}"
    data-admin-home-url="/admin"
  >
    <div class="app-header">
      <h1 id="app-title" data-testid="app-title">${chrome.app.name}</h1>
      <div id="app-title-actions" class="title-actions"></div>
    </div>
    <div id="loading-bar" class="loading-bar"></div>
    <div id="save-bar" class="save-bar" role="region" aria-label="Unsaved changes" data-testid="save-bar" hidden></div>
    <iframe id="app-iframe" name="app-iframe" title="${chrome.app.name}" src="${input.iframeSrc}"></iframe>
    <div id="toasts" class="toasts" aria-live="polite"></div>
  </div>`;
  return layout(chrome, chrome.app.name, body, ["frame.js"]);
}

export function renderWebhooksPage(chrome: ShellChrome, input: { topics: readonly string[]; deliveries: WebhookDeliveryRow[]; sent: string | null }): Html {
  const rows = input.deliveries.map(
    (d) =>
      html` <tr data-testid="webhook-delivery">
        <td>${d.triggered_at}</td>
        <td class="order-name">${d.topic}</td>
        <td>${d.url}</td>
        <td><span class="badge badge-${d.status === "delivered" ? "success" : d.status === "failed" ? "critical" : "info"}">${d.status}</span></td>
        <td class="num">${d.last_status_code ?? "—"}</td>
        <td class="num">${d.attempts}</td>
      </tr>`,
  );
  const body = html` <div class="page-header">
      <h1>Webhooks</h1>
      <span class="subdued">sent by the local admin to the app</span>
    </div>
    ${input.sent ? html`<p class="notice" role="status">Queued ${input.sent}.</p>` : ""}
    <form class="card compliance" method="post" action="/admin/webhooks/compliance">
      <h2>Compliance webhooks</h2>
      <label>Customer email (customers/data_request, customers/redact) <input type="email" name="email" placeholder="customer@example.com" /></label>
      <div class="title-actions">
        ${input.topics.map((topic) => html`<button class="btn" type="submit" name="topic" value="${topic}">Send ${topic}</button>`)}
      </div>
    </form>
    <div class="card">
      ${
        rows.length === 0
          ? html`<p class="empty">No deliveries yet.</p>`
          : html`<table class="orders">
              <thead>
                <tr>
                  <th>Triggered</th>
                  <th>Topic</th>
                  <th>URL</th>
                  <th>Status</th>
                  <th class="num">HTTP</th>
                  <th class="num">Attempts</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>`
      }
    </div>`;
  return layout(chrome, "Webhooks", body, []);
}

/** The app's Flow actions the order page offers, and the calls made for the order, newest first. */
export interface OrderFlow {
  actions: ReadonlyArray<{ name: string; handle: string }>;
  calls: ReadonlyArray<{ actionRunId: string; status: number; body: unknown; calledAt: string }>;
}

/** A workflow using one of the app's triggers, as the Flow page shows it (devstore/flow/flow.ts listFlowWorkflows). */
export interface FlowPageWorkflow {
  on: boolean;
  lastCall: { enabled: boolean; status: number | null; body: unknown; calledAt: string } | null;
}

/** Why the app's refusal of a lifecycle callback left the workflow as it was, in words. */
function refusal(call: NonNullable<FlowPageWorkflow["lastCall"]>): string {
  const said =
    typeof call.body === "string"
      ? call.body
      : call.body && typeof call.body === "object" && "message" in call.body
        ? String(call.body.message)
        : JSON.stringify(call.body);
  const what = call.enabled ? "the workflow was not turned on" : "the workflow was not turned off";
  return call.status === null ? `${said}: ${what}.` : `The app answered ${call.status}: ${said} So ${what}.`;
}

/**
 * Shopify Flow as the local admin hosts it: the app's triggers with their fields, each with a workflow that can be
 * turned on or off (the app's trigger lifecycle callback is called, and a refusal is shown), and the triggers received.
 */
export function renderFlowPage(
  chrome: ShellChrome,
  input: {
    extensions: ReadonlyArray<{ name: string; handle: string; type: string; fields: ReadonlyArray<{ type: string; key?: string }> }>;
    workflows: ReadonlyMap<string, FlowPageWorkflow>;
    runs: ReadonlyArray<{ id: number; handle: string; payload: Record<string, unknown>; received_at: string; workflow_on: boolean | null }>;
  },
  timeZone: string,
): Html {
  const triggers = input.extensions.filter((extension) => extension.type === "flow_trigger");
  const others = input.extensions.filter((extension) => extension.type !== "flow_trigger");
  const body = html` <div class="page-header">
      <h1>Flow</h1>
      <span class="subdued">the app's triggers and actions (extensions/), the workflows using its triggers, and the triggers it sent</span>
    </div>
    <div class="card section">
      <h2>Workflows using the app's triggers</h2>
      <p class="subdued">
        Turning a workflow on or off calls the app's trigger lifecycle callback, signed, as Flow does; the workflow is on only once the app answers 2xx. The app
        sends a trigger only while a workflow uses it.
      </p>
      <ul>
        ${triggers.map((trigger) => {
          const workflow = input.workflows.get(trigger.handle);
          const on = workflow?.on ?? false;
          const refused = workflow?.lastCall && (workflow.lastCall.status === null || workflow.lastCall.status < 200 || workflow.lastCall.status >= 300);
          return html`<li data-testid="flow-workflow" data-handle="${trigger.handle}" data-on="${on ? "true" : "false"}">
            <strong>${trigger.name}</strong>
            <span class="subdued">${trigger.handle} · ${trigger.fields.map((field) => field.key ?? field.type).join(", ")}</span>
            ${on ? html`<span class="badge badge-success">Workflow on</span>` : html`<span class="badge">No workflow</span>`}
            <form class="inline-form" method="post" action="/admin/flow/workflows">
              <input type="hidden" name="handle" value="${trigger.handle}" />
              <input type="hidden" name="enabled" value="${on ? "false" : "true"}" />
              <button class="btn" type="submit">${on ? "Turn off" : "Turn on a workflow"}</button>
            </form>
            ${refused && workflow.lastCall ? html`<p class="notice notice-critical" role="alert" data-testid="flow-workflow-refused">${refusal(workflow.lastCall)}</p>` : ""}
          </li>`;
        })}
      </ul>
      ${
        others.length === 0
          ? ""
          : html`<h2>The app's other Flow extensions</h2>
              <ul>
                ${others.map(
                  (extension) =>
                    html`<li>
                      <strong>${extension.name}</strong>
                      <span class="subdued">${extension.type} · ${extension.handle}</span>
                    </li>`,
                )}
              </ul>`
      }
    </div>
    <div class="card">
      ${
        input.runs.length === 0
          ? html`<p class="empty">
              No trigger received yet. Consign sends one when it buys a label, and when a parcel is delivered or needs attention, if a workflow uses it.
            </p>`
          : html`<table class="orders">
              <thead>
                <tr>
                  <th>Received</th>
                  <th>Trigger</th>
                  <th>Workflow</th>
                  <th>Payload</th>
                </tr>
              </thead>
              <tbody>
                ${input.runs.map(
                  (run) =>
                    html`<tr data-testid="flow-trigger-run">
                      <td>${formatDate(run.received_at, timeZone)}</td>
                      <td class="order-name">${run.handle}</td>
                      <td>${run.workflow_on === null ? "" : run.workflow_on ? "ran" : "none on: nothing ran"}</td>
                      <td><code>${JSON.stringify(run.payload)}</code></td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
    </div>`;
  return layout(chrome, "Flow", body, []);
}

function addressLines(address: Address): Html {
  const name = [address.firstName, address.lastName].filter(Boolean).join(" ");
  const cityLine = [address.city, address.provinceCode ?? address.province, address.zip].filter(Boolean).join(" ");
  const lines = [name, address.company, address.address1, address.address2, cityLine, address.country ?? address.countryCode, address.phone];
  return html`${lines.filter((line): line is string => Boolean(line)).map((line) => html`<div>${line}</div>`)}`;
}

/** An admin block extension on a details page: its name and the host page that runs it (an iframe). */
export interface ExtensionBlock {
  name: string;
  handle: string;
  src: string;
}

function extensionBlocks(blocks: readonly ExtensionBlock[]): Html {
  return html`${blocks.map(
    (block) =>
      html`<section class="card extension-block" data-testid="extension-block" data-extension-handle="${block.handle}">
        <iframe title="${block.name}" src="${block.src}" data-extension-block="${block.handle}"></iframe>
      </section>`,
  )}`;
}

/**
 * An order, with its Print menu (the app's `admin.order-details.print-action.render` actions), the admin link the order-details action (`admin.order-details.action.link`) opens: `?id=<gid>`,
 * and the app's order-details blocks (`admin.order-details.block.render`) below the order's own cards.
 */
export function renderOrderPage(
  chrome: ShellChrome,
  detail: ShellOrderDetail,
  timeZone: string,
  blocks: readonly ExtensionBlock[] = [],
  print?: PrintMenu,
  actions?: ActionMenu,
  flow: OrderFlow = { actions: [], calls: [] },
): Html {
  const { order } = detail;
  const tags = JSON.parse(order.tags_json) as string[];
  const action = `/admin/apps/${chrome.app.handle}/app/quotes/new?${new URLSearchParams({ id: detail.gid }).toString()}`;
  const body = html` <div class="page-header">
      <a class="back" href="/admin" aria-label="Back to orders">←</a>
      <h1 data-testid="order-title">${order.name}</h1>
      ${statusBadge(order.display_fulfillment_status, order.cancelled_at !== null)}
      <span class="subdued">${formatDate(order.created_at, timeZone)}</span>
      <span class="push-right title-actions">
        ${print ? printMenu(print, [detail.gid], false) : ""} ${actions ? moreActions(actions, [detail.gid], false) : ""}
        <a class="btn btn-primary" href="${action}">Create shipping label</a>
      </span>
    </div>
    <div class="columns">
      <div class="column-main">
        <section class="card section">
          <h2>Items</h2>
          <table class="orders">
            <thead>
              <tr>
                <th>Product</th>
                <th>SKU</th>
                <th class="num">Quantity</th>
                <th class="num">Price</th>
              </tr>
            </thead>
            <tbody>
              ${detail.lines.map(
                (line) =>
                  html`<tr>
                    <td>
                      ${line.title}${line.variant_title ? html` <span class="subdued">· ${line.variant_title}</span>` : ""}${
                        line.requires_shipping ? "" : html` <span class="badge badge-info">No shipping</span>`
                      }
                    </td>
                    <td>${line.sku ?? "—"}</td>
                    <td class="num">${line.quantity}</td>
                    <td class="num">${line.price} ${order.currency_code}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </section>
        <section class="card section">
          <h2>Fulfillment orders</h2>
          ${detail.fulfillmentOrders.map(
            ({ row, location, holds }) =>
              html`<div class="row-line">
                ${statusBadge(row.status, false)} <strong>${location}</strong>
                <span class="subdued">${humanize(row.delivery_method_type)}${row.delivery_presented_name ? ` · ${row.delivery_presented_name}` : ""}</span>
                ${holds.map((reason) => html` <span class="badge badge-critical">On hold: ${humanize(reason)}</span>`)}
              </div>`,
          )}
        </section>
        <section class="card section">
          <h2>Fulfillments</h2>
          ${
            detail.fulfillments.length === 0
              ? html`<p class="subdued">None yet.</p>`
              : detail.fulfillments.map(
                  ({ row, tracking, events }) =>
                    html`<div
                      class="row-line"
                      data-testid="fulfillment"
                      data-display-status="${row.display_status ?? ""}"
                      data-notify-customer="${row.notify_customer ? "true" : "false"}"
                    >
                      ${statusBadge(row.status, row.status === "CANCELLED")} <strong>${row.name}</strong>
                      ${row.display_status ? html`<span class="subdued">${humanize(row.display_status)}</span>` : ""}
                      ${tracking.map(
                        (info) =>
                          html` <span class="tracking" data-tracking-number="${info.number ?? ""}"
                            >${info.company ?? "Carrier"}
                            ${
                              info.url ? html`<a href="${info.url}" target="_blank" rel="noreferrer">${info.number ?? info.url}</a>` : (info.number ?? "")
                            }</span
                          >`,
                      )}
                      <span class="subdued"
                        >${row.notify_customer ? "Customer notified" : "Customer not notified"} · ${formatDate(row.created_at, timeZone)}</span
                      >
                      ${
                        row.delivered_at
                          ? html`<span class="subdued" data-testid="delivered-at"> · Delivered ${formatDate(row.delivered_at, timeZone)}</span>`
                          : row.estimated_delivery_at
                            ? html`<span class="subdued"> · Estimated delivery ${formatDate(row.estimated_delivery_at, timeZone)}</span>`
                            : ""
                      }
                      ${
                        events.length === 0
                          ? ""
                          : html`<ol class="timeline" data-testid="fulfillment-events">
                              ${events.map(
                                (event) =>
                                  html`<li data-testid="fulfillment-event" data-status="${event.status}">
                                    <strong>${humanize(event.status)}</strong> <span class="subdued">${formatDate(event.happened_at, timeZone)}</span>
                                    ${event.message ? html` · ${event.message}` : ""}
                                    ${[event.city, event.province, event.country].some(Boolean) ? html` <span class="subdued">· ${[event.city, event.province, event.country].filter(Boolean).join(", ")}</span>` : ""}
                                  </li>`,
                              )}
                            </ol>`
                      }
                    </div>`,
                )
          }
        </section>
        ${returnsCard(detail, timeZone)} ${extensionBlocks(blocks)}
      </div>
      <aside class="column-side">
        <section class="card section" data-testid="order-tags">
          <h2>Tags</h2>
          ${tags.length === 0 ? html`<span class="subdued">No tags</span>` : html`${tags.map((tag) => html`<span class="badge" data-testid="order-tag">${tag}</span> `)}`}
        </section>
        ${
          flow.actions.length === 0
            ? ""
            : html`<section class="card section" data-testid="flow-actions">
                <h2>Shopify Flow</h2>
                ${flow.actions.map(
                  (action) =>
                    html`<form method="post" action="/admin/orders/${String(order.id)}/flow-action">
                      <input type="hidden" name="handle" value="${action.handle}" />
                      <button class="btn" type="submit">Run Flow action: ${action.name}</button>
                    </form>`,
                )}
                ${flow.calls.map(
                  (call) =>
                    html`<div class="subdued" data-testid="flow-action-call" data-status="${String(call.status)}">
                      ${formatDate(call.calledAt, timeZone)} · HTTP ${String(call.status)} · ${JSON.stringify(call.body)}
                    </div>`,
                )}
              </section>`
        }
        <section class="card section">
          <h2>Customer</h2>
          <div>${order.email ?? html`<span class="subdued">No email</span>`}</div>
          ${order.phone ? html`<div>${order.phone}</div>` : ""}
        </section>
        <section class="card section">
          <h2>Shipping address</h2>
          ${detail.shippingAddress ? addressLines(detail.shippingAddress) : html`<span class="subdued">No shipping address</span>`}
        </section>
        <section class="card section">
          <h2>Shipping method</h2>
          ${detail.shippingLine ? html`<div>${detail.shippingLine.title} · ${detail.shippingLine.price} ${order.currency_code}</div>` : html`<span class="subdued">None</span>`}
        </section>
      </aside>
    </div>`;
  return layout(chrome, order.name, body, menuScripts(print, actions));
}

/** The order's returns as Shopify's order page lists them; a requested one has Approve and Decline. */
function returnsCard(detail: ShellOrderDetail, timeZone: string): Html {
  if (detail.returns.length === 0) return html``;
  const base = `/admin/orders/${detail.order.id}/returns`;
  return html`<section class="card section" data-testid="returns">
    <h2>Returns</h2>
    ${detail.returns.map(
      (ret) =>
        html`<div class="return" data-testid="return" data-return-id="${ret.gid}">
          <div class="row-line">
            <strong>${ret.row.name}</strong> ${returnStatusBadge(ret.row.status)}
            <span class="subdued">Requested ${formatDate(ret.row.created_at, timeZone)}</span>
            ${ret.row.status === "DECLINED" && ret.row.decline_reason ? html`<span class="subdued"> · ${humanize(ret.row.decline_reason)}</span>` : ""}
          </div>
          <ul class="return-lines">
            ${returnItemLines(ret)}
          </ul>
          ${reverseDeliveryLines(ret.deliveries)}
          ${
            ret.row.status === "REQUESTED"
              ? html`<div class="row-line return-actions">
                  <form method="post" action="${base}/${ret.row.id}/approve">
                    <button class="btn btn-primary" type="submit" data-testid="approve-return">Approve return</button>
                  </form>
                  <form method="post" action="${base}/${ret.row.id}/decline">
                    <select name="reason" aria-label="Reason to decline">
                      <option value="RETURN_PERIOD_ENDED">Return period ended</option>
                      <option value="FINAL_SALE">Final sale</option>
                      <option value="OTHER">Other</option>
                    </select>
                    <input name="note" maxlength="500" placeholder="Note to the customer (optional)" aria-label="Note to the customer" />
                    <button class="btn btn-critical" type="submit" data-testid="decline-return">Decline</button>
                  </form>
                </div>`
              : ""
          }
        </div>`,
    )}
  </section>`;
}

export interface ExtensionHostInput {
  extension: { name: string; handle: string; target: string; apiVersion: string };
  /** The built module's URL, the app's URL, the app frame's prefix, the token endpoint, the resource. */
  moduleUrl: string;
  appUrl: string;
  framePrefix: string;
  tokenEndpoint: string;
  selected: Array<{ id: string }>;
}

/** The page one block extension runs in (extension-host.js): the extension API and Polaris web components. */
export function renderExtensionHostPage(input: ExtensionHostInput): Html {
  const config = {
    extensionName: input.extension.name,
    target: input.extension.target,
    apiVersion: input.extension.apiVersion,
    moduleUrl: input.moduleUrl,
    appUrl: input.appUrl,
    framePrefix: input.framePrefix,
    tokenEndpoint: input.tokenEndpoint,
    selected: input.selected,
    locale: "en",
  };
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>${input.extension.name}</title>
        <link rel="stylesheet" href="${SHELL_ASSETS}/extension-components.css" />
      </head>
      <body data-extension-config="${JSON.stringify(config)}">
        <script type="module" src="${SHELL_ASSETS}/extension-host.js"></script>
      </body>
    </html>`;
}
