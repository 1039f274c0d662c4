// The local admin's App Bridge stand-in, served at /app-bridge.js. The app loads it instead of Shopify's CDN
// script (APP_BRIDGE_URL), on its pages (AppProvider) and on the library's /auth/session-token bounce page.
// It runs inside the app's iframe and talks to the local admin's app frame page (frame.js) over postMessage.
// See devstore/README.md ("App Bridge stand-in") for what it supports and what it does not.
(function () {
  "use strict";
  if (window.shopify) return;

  var script = document.currentScript;
  var adminOrigin = script && script.src ? new URL(script.src).origin : null;
  var apiKey = (script && script.getAttribute("data-api-key")) || "";
  var params = new URLSearchParams(location.search);
  var embedded = window.parent !== window && adminOrigin !== null;
  var SOURCE = "consign-app-bridge";
  var SESSION_TOKEN_PATH = "/auth/session-token";
  // Tokens are renewed this long before they expire (shopify-api allows 10 s of clock skew on top).
  var RENEW_BEFORE_MS = 10000;

  // ------------------------------------------------------------------ messaging with the admin frame page

  var nextRequestId = 1;
  var pending = new Map();

  function post(message) {
    if (!embedded) return;
    message.source = SOURCE;
    window.parent.postMessage(message, adminOrigin);
  }

  function request(type, payload, timeoutMs) {
    if (!embedded) return Promise.reject(new Error("App Bridge stand-in: the app is not inside the local admin's frame"));
    var id = nextRequestId++;
    return new Promise(function (resolve, reject) {
      // A timeout of 0 waits for as long as the merchant takes (a confirmation dialog).
      var timer =
        timeoutMs === 0
          ? null
          : setTimeout(function () {
              pending.delete(id);
              reject(new Error("App Bridge stand-in: no answer from the admin to " + type));
            }, timeoutMs || 10000);
      pending.set(id, { resolve: resolve, reject: reject, timer: timer });
      post(Object.assign({ type: type, requestId: id }, payload || {}));
    });
  }

  var handlers = {
    response: function (data) {
      var entry = pending.get(data.requestId);
      if (!entry) return;
      pending.delete(data.requestId);
      if (entry.timer) clearTimeout(entry.timer);
      if (data.error) entry.reject(new Error(data.error));
      else entry.resolve(data.result);
    },
    navigate: function (data) {
      navigateFromAdmin(String(data.href || ""));
    },
    "title-bar:click": function (data) {
      var bar = document.querySelector("ui-title-bar");
      var button = bar && bar.querySelectorAll("button, a")[data.index];
      if (button) button.click();
    },
    "save-bar:click": function (data) {
      var bar = showingSaveBar();
      var button = bar && saveBarButton(bar, data.role);
      if (button && !button.disabled) button.click();
    },
  };

  window.addEventListener("message", function (event) {
    if (event.origin !== adminOrigin || event.source !== window.parent) return;
    var data = event.data;
    if (!data || data.source !== "consign-shell" || !Object.prototype.hasOwnProperty.call(handlers, data.type)) return;
    handlers[data.type](data);
  });

  // ------------------------------------------------------------------ session tokens

  var cachedToken = null;
  var cachedExpiresAt = 0;
  var inflightToken = null;

  function tokenExpiry(token) {
    try {
      var payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
      return payload.exp * 1000;
    } catch {
      return 0;
    }
  }

  function useToken(token) {
    cachedToken = token;
    cachedExpiresAt = tokenExpiry(token);
  }

  function idToken() {
    if (cachedToken && Date.now() < cachedExpiresAt - RENEW_BEFORE_MS) return Promise.resolve(cachedToken);
    if (!inflightToken) {
      inflightToken = request("session-token")
        .then(function (result) {
          useToken(result.token);
          return result.token;
        })
        .finally(function () {
          inflightToken = null;
        });
    }
    return inflightToken;
  }

  function forgetToken() {
    cachedToken = null;
    cachedExpiresAt = 0;
  }

  // The frame page loads the app with a fresh id_token in the URL: start from it.
  if (params.get("id_token")) useToken(params.get("id_token"));

  // ------------------------------------------------------------------ fetch: Bearer token, retry, reauthorize

  var originalFetch = window.fetch.bind(window);

  function withBearer(req, token) {
    var headers = new Headers(req.headers);
    headers.set("Authorization", "Bearer " + token);
    return new Request(req, { headers: headers });
  }

  window.fetch = function (input, init) {
    var req = new Request(input, init);
    if (!embedded || new URL(req.url).origin !== location.origin || req.headers.has("Authorization")) {
      return originalFetch(req);
    }
    var retryCopy = req.clone();
    return idToken().then(function (token) {
      return originalFetch(withBearer(req, token)).then(function (response) {
        if (response.headers.get("X-Shopify-Retry-Invalid-Session-Request") === "1") {
          forgetToken();
          return idToken().then(function (fresh) {
            return originalFetch(withBearer(retryCopy, fresh)).then(followReauthorize);
          });
        }
        return followReauthorize(response);
      });
    });
  };

  // The library answers a data request that must leave the iframe (re-authorization, redirect with target
  // _top/_parent) with 401 and this header; App Bridge then navigates the admin there.
  function followReauthorize(response) {
    var url = response.headers.get("X-Shopify-API-Request-Failure-Reauthorize-Url");
    if (url) openTop(url);
    return response;
  }

  // ------------------------------------------------------------------ window.open

  var originalOpen = window.open.bind(window);

  function openTop(url) {
    post({ type: "open", url: new URL(url, location.href).href });
  }

  // Like App Bridge: _top and _parent navigate the admin (the frame page decides what that means locally);
  // every other target (default _blank) opens a new window or tab, as for label PDFs.
  window.open = function (url, target, features) {
    if (embedded && (target === "_top" || target === "_parent")) {
      openTop(String(url));
      return null;
    }
    return originalOpen(url, target === undefined ? "_blank" : target, features);
  };

  // ------------------------------------------------------------------ navigation reporting and requests

  function reportLocation() {
    var url = new URL(location.href);
    ["id_token", "shop", "host", "embedded", "hmac", "timestamp", "locale", "session"].forEach(function (key) {
      url.searchParams.delete(key);
    });
    post({ type: "location", path: url.pathname + url.search + url.hash });
  }

  ["pushState", "replaceState"].forEach(function (method) {
    var original = history[method].bind(history);
    history[method] = function () {
      var result = original.apply(null, arguments);
      reportLocation();
      return result;
    };
  });
  window.addEventListener("popstate", reportLocation);

  // The admin asked for one of the nav menu's destinations. The app's router listens for shopify:navigate on
  // window and reads the link the event came from (shopify-app-remix's AppProvider), which keeps it a
  // client-side navigation. Until that listener exists (the app is still hydrating) the request waits; an
  // app that never listens gets a document navigation.
  var navigateListeners = 0;
  var queuedLink = null;
  var NAVIGATE_FALLBACK_MS = 5000;
  var originalAddEventListener = window.addEventListener;
  var originalRemoveEventListener = window.removeEventListener;

  // Only window's own methods are replaced; the app calls them unqualified (this is then undefined).
  window.addEventListener = function (type) {
    var result = originalAddEventListener.apply(window, arguments);
    if (type === "shopify:navigate") {
      navigateListeners++;
      if (queuedLink) {
        var link = queuedLink;
        queuedLink = null;
        dispatchNavigate(link);
      }
    }
    return result;
  };
  window.removeEventListener = function (type) {
    if (type === "shopify:navigate") navigateListeners = Math.max(0, navigateListeners - 1);
    return originalRemoveEventListener.apply(window, arguments);
  };

  function dispatchNavigate(link) {
    link.dispatchEvent(new CustomEvent("shopify:navigate", { bubbles: true, composed: true }));
  }

  function navigateFromAdmin(href) {
    var target = new URL(href, location.href);
    if (target.origin !== location.origin) return;
    var links = document.querySelectorAll("ui-nav-menu a[href]");
    for (var i = 0; i < links.length; i++) {
      if (new URL(links[i].getAttribute("href"), location.href).href !== target.href) continue;
      if (navigateListeners > 0) {
        dispatchNavigate(links[i]);
      } else {
        var queued = links[i];
        queuedLink = queued;
        setTimeout(function () {
          if (queuedLink !== queued) return;
          queuedLink = null;
          location.assign(target.href);
        }, NAVIGATE_FALLBACK_MS);
      }
      return;
    }
    location.assign(target.href);
  }

  // ------------------------------------------------------------------ ui-nav-menu and ui-title-bar

  // Hidden through an adopted stylesheet: adding a <style> node would disturb React's hydration of the document.
  if (typeof CSSStyleSheet === "function" && "adoptedStyleSheets" in document) {
    var sheet = new CSSStyleSheet();
    sheet.replaceSync("ui-nav-menu, ui-title-bar, ui-save-bar { display: none !important; }");
    document.adoptedStyleSheets = document.adoptedStyleSheets.concat([sheet]);
  }

  function observeChildren(element, report) {
    var observer = new MutationObserver(report);
    observer.observe(element, { childList: true, subtree: true, characterData: true, attributes: true });
    return observer;
  }

  function defineReportingElement(name, describe, emptyMessage) {
    if (customElements.get(name)) return;
    customElements.define(
      name,
      class extends HTMLElement {
        connectedCallback() {
          var report = () => {
            if (this.isConnected) post(describe(this));
          };
          this._observer = observeChildren(this, report);
          // Children are parsed (or rendered by React) after the element connects.
          queueMicrotask(report);
          setTimeout(report, 0);
        }
        disconnectedCallback() {
          if (this._observer) this._observer.disconnect();
          if (document.querySelector(name) === null) post(emptyMessage);
        }
      },
    );
  }

  defineReportingElement(
    "ui-nav-menu",
    function (menu) {
      var items = Array.prototype.map.call(menu.querySelectorAll("a[href]"), function (link) {
        return { label: (link.textContent || "").trim(), href: link.getAttribute("href"), home: link.getAttribute("rel") === "home" };
      });
      return { type: "nav", items: items };
    },
    { type: "nav", items: [] },
  );

  defineReportingElement(
    "ui-title-bar",
    function (bar) {
      var buttons = Array.prototype.map.call(bar.querySelectorAll("button, a"), function (button, index) {
        return { index: index, label: (button.textContent || "").trim(), primary: button.getAttribute("variant") === "primary" };
      });
      return { type: "title", title: bar.getAttribute("title") || "", buttons: buttons };
    },
    { type: "title", title: "", buttons: [] },
  );

  // ------------------------------------------------------------------ ui-save-bar and shopify.saveBar

  // The contextual save bar is drawn by the admin, above the app's frame, so it never covers the app's page.
  // The app's own <button> children stay hidden: the admin's Save (the child with variant="primary") and
  // Discard (the other) click them. While a save bar shows, leaving through the admin asks first.
  function saveBarButton(bar, role) {
    var buttons = Array.prototype.slice.call(bar.querySelectorAll("button"));
    return buttons.find(function (button) {
      return (button.getAttribute("variant") === "primary") === (role === "save");
    });
  }

  function describeSaveBarButton(bar, role) {
    var button = saveBarButton(bar, role);
    if (!button) return null;
    return {
      label: (button.textContent || "").trim(),
      disabled: button.disabled || button.hasAttribute("disabled"),
      loading: button.hasAttribute("loading") && button.getAttribute("loading") !== "false",
    };
  }

  function showingSaveBar() {
    var bars = document.querySelectorAll("ui-save-bar");
    for (var i = 0; i < bars.length; i++) if (bars[i].showing) return bars[i];
    return null;
  }

  function reportSaveBar() {
    var bar = showingSaveBar();
    if (!bar) return post({ type: "save-bar", showing: false });
    post({
      type: "save-bar",
      showing: true,
      id: bar.id,
      discardConfirmation: bar.discardConfirmation,
      save: describeSaveBarButton(bar, "save"),
      discard: describeSaveBarButton(bar, "discard"),
    });
  }

  if (!customElements.get("ui-save-bar")) {
    customElements.define(
      "ui-save-bar",
      class extends HTMLElement {
        constructor() {
          super();
          this._showing = false;
        }
        get showing() {
          return this._showing;
        }
        get discardConfirmation() {
          return this.hasAttribute("discardConfirmation") || this.hasAttribute("discard-confirmation");
        }
        set discardConfirmation(value) {
          if (value) this.setAttribute("discardConfirmation", "");
          else this.removeAttribute("discardConfirmation");
        }
        show() {
          return this._set(true);
        }
        hide() {
          return this._set(false);
        }
        toggle() {
          return this._set(!this._showing);
        }
        _set(showing) {
          if (this._showing !== showing) {
            this._showing = showing;
            reportSaveBar();
            this.dispatchEvent(new CustomEvent(showing ? "show" : "hide"));
          }
          return Promise.resolve();
        }
        connectedCallback() {
          this._observer = observeChildren(this, () => {
            if (this._showing) reportSaveBar();
          });
        }
        disconnectedCallback() {
          if (this._observer) this._observer.disconnect();
          if (this._showing) {
            this._showing = false;
            reportSaveBar();
          }
        }
      },
    );
  }

  function saveBarById(id) {
    var bar = document.getElementById(String(id));
    if (!bar || bar.tagName.toLowerCase() !== "ui-save-bar") return Promise.reject(new Error("App Bridge stand-in: no ui-save-bar with id " + id));
    return Promise.resolve(bar);
  }

  var saveBarApi = {
    show: function (id) {
      return saveBarById(id).then(function (bar) {
        return bar.show();
      });
    },
    hide: function (id) {
      return saveBarById(id).then(function (bar) {
        return bar.hide();
      });
    },
    toggle: function (id) {
      return saveBarById(id).then(function (bar) {
        return bar.toggle();
      });
    },
    // Resolves at once when no save bar shows, or when the merchant chooses to leave; stays pending if they stay.
    leaveConfirmation: function () {
      if (!showingSaveBar()) return Promise.resolve();
      return request("leave-confirmation", {}, 0).then(function () {
        return undefined;
      });
    },
  };

  // ------------------------------------------------------------------ the shopify global

  var host = params.get("host") || "";
  var shop = params.get("shop") || "";
  if (!shop && host) {
    try {
      shop = atob(host).split("/store/")[1] + ".myshopify.com";
    } catch {
      shop = "";
    }
  }

  var toastSeq = 0;

  window.shopify = {
    config: { apiKey: apiKey, shop: shop, host: host, locale: params.get("locale") || navigator.language || "en" },
    environment: { embedded: embedded, mobile: false, pos: false },
    origin: adminOrigin,
    idToken: idToken,
    toast: {
      show: function (message, options) {
        var id = "toast-" + ++toastSeq;
        post({
          type: "toast",
          id: id,
          message: String(message),
          isError: Boolean(options && options.isError),
          duration: (options && options.duration) || 5000,
        });
        return id;
      },
      hide: function (id) {
        post({ type: "toast:hide", id: id });
      },
    },
    loading: function (on) {
      post({ type: "loading", on: on !== false });
    },
    user: function () {
      return request("user");
    },
    saveBar: saveBarApi,
    // Optional scopes: query() answers ScopesDetail; request() shows the admin's permission dialog and answers
    // {result: "granted-all" | "declined-all", detail} when the merchant chooses (revoke is not supported).
    scopes: {
      query: function () {
        return request("scopes-query");
      },
      request: function (scopes) {
        return request("scopes-request", { scopes: Array.prototype.slice.call(scopes || []) }, 0);
      },
    },
  };

  // ------------------------------------------------------------------ the library's session-token bounce page

  if (location.pathname === SESSION_TOKEN_PATH && params.get("shopify-reload")) {
    var reload = new URL(params.get("shopify-reload"), location.href);
    if (reload.origin === location.origin) {
      forgetToken();
      idToken().then(function (token) {
        reload.searchParams.set("id_token", token);
        location.replace(reload.href);
      });
    }
    return;
  }

  reportLocation();
  post({ type: "ready" });
})();
