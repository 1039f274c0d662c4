// The local admin's host for admin UI extensions: one of these pages runs in an iframe per block on a
// resource page. It gives the extension what Shopify's admin gives a block target (shopify.extension,
// shopify.data.selected, shopify.auth.idToken, shopify.navigation.navigate, shopify.i18n, fetch to the app
// with the session token) and renders the Polaris web components the extension uses, then imports the
// built module and calls its default export, as Shopify's extension runtime does. A customer account
// extension (the order status stand-in) gets what Shopify's customer accounts give its target instead:
// shopify.sessionToken.get (the signed-in customer's token), shopify.fulfillmentId, shopify.i18n.
const config = JSON.parse(document.body.dataset.extensionConfig);
const appOrigin = new URL(config.appUrl).origin;
const customerAccount = config.target.startsWith("customer-account.");

// The page's own fetch, for the local admin's endpoints; the extension gets the wrapped one below.
const nativeFetch = window.fetch.bind(window);

// ---- session tokens: minted by the local admin, cached until 10 s before they expire ----------------
let cached = null;
async function idToken() {
  if (cached && cached.exp - 10 > Date.now() / 1000) return cached.token;
  const response = await nativeFetch(config.tokenEndpoint, { method: "POST", headers: { accept: "application/json" } });
  if (!response.ok) return null;
  const { token } = await response.json();
  const payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
  cached = { token, exp: payload.exp };
  return token;
}

// ---- fetch: relative URLs resolve against the app's URL; admin requests to the app carry the session token ----
// (customer accounts add none: a customer account extension sends its token itself)
window.fetch = async (input, init) => {
  const raw = input instanceof Request ? input.url : String(input);
  const url = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? new URL(raw) : new URL(raw, `${config.appUrl}/`);
  if (url.origin !== appOrigin) return nativeFetch(input, init);
  const request = new Request(url, input instanceof Request ? input : init);
  if (!customerAccount && !request.headers.has("authorization")) {
    const token = await idToken();
    if (token) request.headers.set("authorization", `Bearer ${token}`);
  }
  return nativeFetch(request);
};

// ---- navigation: app:<path>, shopify:admin/<path>, app-relative paths and the app's own URLs ----------
function adminUrlFor(target) {
  const value = String(target);
  if (value.startsWith("app:")) return `${config.framePrefix}/${value.slice(4).replace(/^\/+/, "")}`;
  const admin = /^shopify:(?:\/\/)?admin\/?(.*)$/.exec(value);
  if (admin) return `/admin/${admin[1]}`;
  if (value.startsWith("/")) return `${config.framePrefix}${value}`;
  const url = new URL(value, `${config.appUrl}/`);
  if (url.origin === appOrigin) return `${config.framePrefix}${url.pathname}${url.search}`;
  return url.href;
}
function navigate(target, how) {
  const url = adminUrlFor(target);
  if (how === "_blank") window.open(url, "_blank");
  else window.top.location.assign(url);
}

const locale = config.locale;
const i18n = {
  translate: (key) => key,
  formatNumber: (number, options) => new Intl.NumberFormat(locale, options).format(number),
  formatCurrency: (number, options) => new Intl.NumberFormat(locale, { style: "currency", ...options }).format(number),
  formatDate: (date, options) => new Intl.DateTimeFormat(locale, options).format(date),
};
const extension = { target: config.target, apiVersion: config.apiVersion };
globalThis.shopify = customerAccount
  ? { extension, sessionToken: { get: idToken }, fulfillmentId: config.selected[0]?.id, i18n }
  : {
      extension,
      data: { selected: config.selected },
      auth: { idToken },
      navigation: { navigate: (url) => navigate(url) },
      i18n,
      // An action's modal: the page that opened it closes it (more-actions.js).
      close: () => window.parent.postMessage({ type: "local-admin:close-action" }, window.location.origin),
    };

// ---- Polaris web components: enough to read and click ---------------------------------------------
const SHADOW_STYLE = `
  :host { font: inherit; }
  button, a.link { font: inherit; cursor: pointer; }
  button { padding: 6px 12px; border-radius: 8px; border: 1px solid #d4d4d4; background: #fff; font-weight: 550; color: #303030; }
  :host([variant="primary"]) button { background: #303030; border-color: #303030; color: #fff; }
  :host([variant="tertiary"]) button { border-color: transparent; background: transparent; }
  :host([disabled]) button { opacity: .45; cursor: default; }
  a.link { color: #005bd3; text-decoration: underline; }
  .badge { display: inline-block; padding: 2px 8px; border-radius: 8px; font-size: 12px; font-weight: 550; background: #e3e3e3; }
  .badge[data-tone="success"] { background: #cdfee1; color: #0c5132; }
  .badge[data-tone="warning"] { background: #ffef9d; color: #4f4700; }
  .badge[data-tone="critical"] { background: #fedad9; color: #8e0b21; }
  .badge[data-tone="info"] { background: #e0f0ff; color: #00527c; }
  .banner { padding: 10px 12px; border-radius: 10px; background: #e0f0ff; }
  .banner[data-tone="warning"] { background: #fff1c2; }
  .banner[data-tone="critical"] { background: #fedad9; }
  .banner[data-tone="success"] { background: #cdfee1; }
  .banner strong { display: block; margin-bottom: 4px; }
  h2 { font-size: 14px; margin: 0 0 10px; }
  .action { display: flex; flex-direction: column; gap: 12px; }
  .action-heading { font-size: 16px; margin: 0; }
  .action-footer { display: flex; justify-content: flex-end; gap: 8px; padding-top: 12px; border-top: 1px solid #e3e3e3; }
  progress { width: 100%; }
`;

/** A custom element with an open shadow root rendered from its attributes; children stay in the light DOM (slot). */
function defineElement(tag, render, observed, setup) {
  customElements.define(
    tag,
    class extends HTMLElement {
      static observedAttributes = observed;
      constructor() {
        super();
        this.attachShadow({ mode: "open" });
        setup?.(this);
      }
      connectedCallback() {
        this.shadowRoot.innerHTML = `<style>${SHADOW_STYLE}</style>`;
        this.shadowRoot.append(render(this));
      }
      attributeChangedCallback() {
        if (this.isConnected) this.connectedCallback();
      }
    },
  );
}

function element(name, attributes, children) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) if (value !== null && value !== undefined) node.setAttribute(key, value);
  node.append(...children);
  return node;
}
const slot = () => document.createElement("slot");

/** s-button / s-link with href: the extension's onClick runs first, then the admin follows the href. */
function followHref(host) {
  host.addEventListener("click", (event) => {
    if (host.hasAttribute("disabled")) {
      event.stopImmediatePropagation();
      return;
    }
    const href = host.getAttribute("href");
    if (!href) return;
    setTimeout(() => {
      if (!event.defaultPrevented) navigate(href, host.getAttribute("target"));
    });
  });
}

defineElement(
  "s-admin-block",
  (host) => element("section", {}, [element("h2", { part: "heading" }, [host.getAttribute("heading") || config.extensionName]), slot()]),
  ["heading"],
);
defineElement(
  "s-button",
  (host) =>
    element(
      "button",
      { type: "button", part: "button", disabled: host.hasAttribute("disabled") ? "" : null, "aria-label": host.getAttribute("accessibilitylabel") },
      [slot()],
    ),
  ["disabled", "variant", "accessibilitylabel"],
  followHref,
);
defineElement(
  "s-link",
  (host) => element("a", { class: "link", role: "link", tabindex: "0", "aria-label": host.getAttribute("accessibilitylabel") }, [slot()]),
  ["href", "accessibilitylabel"],
  followHref,
);
defineElement(
  "s-admin-action",
  (host) =>
    element("div", { class: "action" }, [
      element("h2", { class: "action-heading" }, [host.getAttribute("heading") || config.extensionName]),
      element("div", { class: "action-body", "aria-busy": host.hasAttribute("loading") ? "true" : null }, [slot()]),
      element("footer", { class: "action-footer" }, [
        Object.assign(document.createElement("slot"), { name: "secondary-actions" }),
        Object.assign(document.createElement("slot"), { name: "primary-action" }),
      ]),
    ]),
  ["heading", "loading"],
);
defineElement(
  "s-progress",
  (host) =>
    element(
      "progress",
      { value: host.getAttribute("value"), max: host.getAttribute("max") || "1", "aria-label": host.getAttribute("accessibilitylabel") || "Progress" },
      [],
    ),
  ["value", "max", "accessibilitylabel"],
);
defineElement(
  "s-section",
  (host) => element("section", {}, [...(host.getAttribute("heading") ? [element("h2", {}, [host.getAttribute("heading")])] : []), slot()]),
  ["heading"],
);
defineElement("s-badge", (host) => element("span", { class: "badge", "data-tone": host.getAttribute("tone") }, [slot()]), ["tone"]);
defineElement(
  "s-banner",
  (host) =>
    element("div", { class: "banner", role: host.getAttribute("tone") === "critical" ? "alert" : "status", "data-tone": host.getAttribute("tone") }, [
      ...(host.getAttribute("heading") ? [element("strong", {}, [host.getAttribute("heading")])] : []),
      slot(),
    ]),
  ["heading", "tone"],
);
defineElement(
  "s-spinner",
  (host) => element("span", { role: "progressbar", "aria-label": host.getAttribute("accessibilitylabel") || "Loading" }, ["Loading…"]),
  ["accessibilitylabel"],
);

// ---- choices: s-choice-list (its `values`, change and input events) and s-choice ---------------------
class ChoiceList extends HTMLElement {
  static observedAttributes = ["label"];
  #values = [];
  constructor() {
    super();
    this.attachShadow({ mode: "open" });
    this.addEventListener("s-choice-select", (event) => {
      event.stopPropagation();
      this.#values = [event.detail];
      this.#sync();
      this.dispatchEvent(new Event("input", { bubbles: true }));
      this.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }
  get values() {
    return [...this.#values];
  }
  set values(values) {
    this.#values = Array.isArray(values) ? values.map(String) : [];
    this.#sync();
  }
  #sync() {
    for (const choice of this.querySelectorAll("s-choice")) choice.checked = this.#values.includes(choice.getAttribute("value") ?? "");
  }
  connectedCallback() {
    this.shadowRoot.innerHTML = `<style>${SHADOW_STYLE} fieldset { border: 0; margin: 0; padding: 0; display: grid; gap: 8px; } legend { font-weight: 650; margin-bottom: 8px; padding: 0; }</style>`;
    this.shadowRoot.append(element("fieldset", {}, [element("legend", {}, [this.getAttribute("label") ?? ""]), slot()]));
    this.#sync();
  }
  attributeChangedCallback() {
    if (this.isConnected) this.connectedCallback();
  }
}
class Choice extends HTMLElement {
  static observedAttributes = ["value", "disabled"];
  #checked = false;
  constructor() {
    super();
    this.attachShadow({ mode: "open" });
  }
  get checked() {
    return this.#checked;
  }
  set checked(checked) {
    this.#checked = Boolean(checked);
    const input = this.shadowRoot.querySelector("input");
    if (input) input.checked = this.#checked;
  }
  connectedCallback() {
    const list = this.closest("s-choice-list");
    if (list) this.#checked = list.values.includes(this.getAttribute("value") ?? "");
    const input = element("input", { type: "radio", checked: this.#checked ? "" : null, disabled: this.hasAttribute("disabled") ? "" : null }, []);
    input.addEventListener("change", () => this.dispatchEvent(new CustomEvent("s-choice-select", { bubbles: true, detail: this.getAttribute("value") ?? "" })));
    this.shadowRoot.innerHTML = `<style>${SHADOW_STYLE} label { display: flex; gap: 8px; align-items: center; cursor: pointer; } :host([disabled]) label { color: #8a8a8a; cursor: default; }</style>`;
    this.shadowRoot.append(element("label", {}, [input, slot()]));
  }
  attributeChangedCallback() {
    if (this.isConnected) this.connectedCallback();
  }
}
customElements.define("s-choice-list", ChoiceList);
customElements.define("s-choice", Choice);

// ---- print actions: s-admin-print-action tells the admin page which document it names ---------------
// Shopify's admin previews and prints the `src` (relative to the app's URL); here the page that opened the
// print dialog (print-menu.js) does, and is told each time the extension changes it.
let announcedSrc;
function announceSrc(host) {
  const raw = host.getAttribute("src");
  const src = raw ? new URL(raw, `${config.appUrl}/`).href : null;
  if (src === announcedSrc) return;
  announcedSrc = src;
  window.parent.postMessage({ type: "local-admin:print-action-src", src }, window.location.origin);
}
class AdminPrintAction extends HTMLElement {
  static observedAttributes = ["src"];
  constructor() {
    super();
    this.attachShadow({ mode: "open" }).append(slot());
  }
  connectedCallback() {
    announceSrc(this);
  }
  attributeChangedCallback() {
    announceSrc(this);
  }
  disconnectedCallback() {
    announcedSrc = undefined;
    window.parent.postMessage({ type: "local-admin:print-action-src", src: null }, window.location.origin);
  }
}
customElements.define("s-admin-print-action", AdminPrintAction);

// ---- run the extension ---------------------------------------------------------------------------
const resize = () => {
  if (window.frameElement) window.frameElement.style.height = `${document.documentElement.scrollHeight}px`;
};
new ResizeObserver(resize).observe(document.body);

try {
  const module = await import(config.moduleUrl);
  // A should-render target renders nothing: it tells the page whether its action is listed.
  if (config.target.endsWith(".should-render")) {
    const output = await module.default();
    window.parent.postMessage({ type: "local-admin:should-render", display: output?.display !== false }, window.location.origin);
  } else await module.default();
} catch (error) {
  console.error(error);
  document.body.replaceChildren(
    element("p", { class: "extension-error", role: "alert" }, [`The extension ${config.extensionName} failed to load: ${error?.message ?? error}`]),
  );
}
