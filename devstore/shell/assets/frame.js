// The app frame page's side of the App Bridge stand-in (app-bridge.js runs inside the iframe). It answers
// session-token requests by asking the local admin to mint one, asks the merchant for the optional scopes the app
// requests, and shows what the app reports: title bar, navigation menu, toasts, the loading bar and the
// contextual save bar (with the leave confirmation it brings).
(function () {
  "use strict";
  var root = document.querySelector("[data-app-frame]");
  var iframe = document.getElementById("app-iframe");
  if (!root || !iframe) return;
  var appOrigin = new URL(iframe.src).origin;
  var appName = root.getAttribute("data-app-name") || "";
  var framePrefix = root.getAttribute("data-frame-prefix") || "";
  var tokenEndpoint = root.getAttribute("data-token-endpoint") || "";
  var userEndpoint = root.getAttribute("data-user-endpoint") || "";
  var scopesEndpoint = root.getAttribute("data-scopes-endpoint") || "";
  var adminHomeUrl = root.getAttribute("data-admin-home-url") || "/admin";
  var titleEl = document.getElementById("app-title");
  var titleActions = document.getElementById("app-title-actions");
  var navEl = document.getElementById("app-nav");
  var toastsEl = document.getElementById("toasts");
  var loadingEl = document.getElementById("loading-bar");
  var saveBarEl = document.getElementById("save-bar");

  function send(message) {
    message.source = "consign-shell";
    if (iframe.contentWindow) iframe.contentWindow.postMessage(message, appOrigin);
  }

  function fetchJson(url, method) {
    return fetch(url, { method: method, headers: { accept: "application/json" } }).then(function (response) {
      if (!response.ok) throw new Error(url + " answered " + response.status);
      return response.json();
    });
  }

  // Each request type the stand-in may send, answered with {result} or {error}.
  var requests = {
    "session-token": function () {
      return fetchJson(tokenEndpoint, "POST");
    },
    user: function () {
      return fetchJson(userEndpoint, "GET");
    },
    // shopify.scopes.query(): the app's scopes on this shop.
    "scopes-query": function () {
      return fetchJson(scopesEndpoint, "GET");
    },
    // shopify.scopes.request(scopes): the admin's permission dialog; Allow grants them, Decline leaves them as they are.
    "scopes-request": function (data) {
      var scopes = Array.isArray(data.scopes) ? data.scopes.map(String) : [];
      return fetchJson(scopesEndpoint, "GET").then(function (detail) {
        var missing = scopes.filter(function (scope) {
          return detail.granted.indexOf(scope) === -1;
        });
        if (missing.length === 0) return { result: "granted-all", detail: detail };
        var undeclared = missing.filter(function (scope) {
          return detail.optional.indexOf(scope) === -1;
        });
        if (undeclared.length > 0) throw new Error("Not optional scopes of the app: " + undeclared.join(", "));
        return new Promise(function (resolve, reject) {
          confirmDialog(
            "Allow " + appName + " more access?",
            appName + " asks to: " + missing.map(scopeWords).join("; ") + ". You can remove this access later.",
            "Allow",
            "Decline",
            function () {
              fetch(scopesEndpoint, {
                method: "POST",
                headers: { accept: "application/json", "content-type": "application/json" },
                body: JSON.stringify({ scopes: missing }),
              })
                .then(function (response) {
                  if (!response.ok) throw new Error(scopesEndpoint + " answered " + response.status);
                  return response.json();
                })
                .then(function (granted) {
                  resolve({ result: "granted-all", detail: granted });
                }, reject);
            },
            {
              confirmClass: "btn btn-primary",
              onCancel: function () {
                resolve({ result: "declined-all", detail: detail });
              },
            },
          );
        });
      });
    },
    // shopify.saveBar.leaveConfirmation(): answered when the merchant chooses to leave (never, if they stay).
    "leave-confirmation": function () {
      if (!saveBar) return Promise.resolve(null);
      return new Promise(function (resolve) {
        confirmLeave(function () {
          resolve(null);
        });
      });
    },
  };

  // ------------------------------------------------------------------ the contextual save bar

  // What the app's ui-save-bar reports: null while none shows.
  var saveBar = null;

  function renderSaveBar(data) {
    saveBar = data.showing ? data : null;
    saveBarEl.hidden = !saveBar;
    root.toggleAttribute("data-unsaved-changes", Boolean(saveBar));
    if (!saveBar) return;
    saveBarEl.replaceChildren();
    var message = document.createElement("span");
    message.className = "save-bar-message";
    message.textContent = "Unsaved changes";
    var actions = document.createElement("div");
    actions.className = "save-bar-actions";
    [
      ["discard", "Discard", "btn"],
      ["save", "Save", "btn btn-primary"],
    ].forEach(function (entry) {
      var role = entry[0];
      var described = saveBar[role];
      if (!described) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = entry[2];
      button.textContent = described.label || entry[1];
      button.disabled = Boolean(described.disabled || described.loading);
      if (described.loading) button.setAttribute("aria-busy", "true");
      button.setAttribute("data-save-bar-action", role);
      button.addEventListener("click", function () {
        if (role === "discard" && saveBar && saveBar.discardConfirmation) {
          confirmDialog(
            "Discard all unsaved changes?",
            "If you discard them, the edits you made since you last saved are lost.",
            "Discard changes",
            "Continue editing",
            function () {
              send({ type: "save-bar:click", role: role });
            },
          );
        } else {
          send({ type: "save-bar:click", role: role });
        }
      });
      actions.appendChild(button);
    });
    saveBarEl.append(message, actions);
  }

  // What a scope lets the app do, in the admin's words (the handle itself for one not listed).
  var SCOPE_WORDS = {
    write_products: "edit products (write_products)",
    read_products: "view products (read_products)",
    write_orders: "edit orders (write_orders)",
  };
  function scopeWords(scope) {
    return SCOPE_WORDS[scope] || scope;
  }

  // A modal dialog of the admin's own: `onConfirm` runs only when the merchant confirms; `options.onCancel` when
  // they close it any other way; `options.confirmClass` styles the confirming button (critical by default).
  function confirmDialog(title, text, confirmLabel, cancelLabel, onConfirm, options) {
    var confirmed = false;
    var dialog = document.createElement("dialog");
    dialog.className = "confirm-dialog";
    dialog.setAttribute("aria-labelledby", "confirm-dialog-title");
    var heading = document.createElement("h2");
    heading.id = "confirm-dialog-title";
    heading.textContent = title;
    var body = document.createElement("p");
    body.textContent = text;
    var buttons = document.createElement("div");
    buttons.className = "confirm-dialog-actions";
    var cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "btn";
    cancel.textContent = cancelLabel;
    var confirm = document.createElement("button");
    confirm.type = "button";
    confirm.className = (options && options.confirmClass) || "btn btn-critical";
    confirm.textContent = confirmLabel;
    buttons.append(cancel, confirm);
    dialog.append(heading, body, buttons);
    document.body.appendChild(dialog);
    cancel.addEventListener("click", function () {
      dialog.close();
    });
    confirm.addEventListener("click", function () {
      confirmed = true;
      dialog.close();
      onConfirm();
    });
    dialog.addEventListener("close", function () {
      dialog.remove();
      if (!confirmed && options && options.onCancel) options.onCancel();
    });
    dialog.showModal();
    cancel.focus();
  }

  function confirmLeave(leave) {
    confirmDialog("Leave page with unsaved changes?", "If you leave this page, your unsaved changes are lost.", "Leave page", "Stay", leave);
  }

  // While the save bar shows, every way out through the admin (its sidebar, the app's navigation, its header
  // links) asks first, as Shopify's admin does. Staying keeps the app's page and its edits as they are.
  document.addEventListener(
    "click",
    function (event) {
      if (!saveBar) return;
      var link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      confirmLeave(function () {
        var appHref = link.getAttribute("data-app-href");
        if (appHref) send({ type: "navigate", href: appHref });
        else location.assign(link.href);
      });
    },
    true,
  );

  function renderTitle(data) {
    var title = data.title || appName;
    titleEl.textContent = title;
    document.title = title + " · " + appName;
    titleActions.replaceChildren();
    (data.buttons || []).forEach(function (button) {
      var element = document.createElement("button");
      element.type = "button";
      element.className = button.primary ? "btn btn-primary" : "btn";
      element.textContent = button.label;
      element.addEventListener("click", function () {
        send({ type: "title-bar:click", index: button.index });
      });
      titleActions.appendChild(element);
    });
  }

  function renderNav(items) {
    navEl.replaceChildren();
    items
      .filter(function (item) {
        return !item.home;
      })
      .forEach(function (item) {
        var link = document.createElement("a");
        link.href = framePrefix + item.href;
        link.textContent = item.label;
        link.setAttribute("data-app-href", item.href);
        navEl.appendChild(link);
      });
    var home = items.find(function (item) {
      return item.home;
    });
    var appLink = document.querySelector("[data-app-home-link]");
    if (home && appLink) appLink.setAttribute("data-app-href", home.href);
    markCurrent();
  }

  var currentPath = location.pathname.slice(framePrefix.length) || "/";

  // The app's sidebar entry stays current on every app page; its sub-entries follow the app's path.
  function markCurrent() {
    navEl.querySelectorAll("a[data-app-href]").forEach(function (link) {
      var href = link.getAttribute("data-app-href");
      link.classList.toggle("current", href === currentPath.split("?")[0]);
    });
  }

  // A nav click becomes a client-side navigation inside the app; the admin's URL follows the app's.
  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest("a[data-app-href]") : null;
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    send({ type: "navigate", href: link.getAttribute("data-app-href") });
  });

  function showToast(data) {
    var toast = document.createElement("div");
    toast.className = data.isError ? "toast toast-error" : "toast";
    toast.setAttribute("role", "status");
    toast.setAttribute("data-toast-id", data.id);
    toast.textContent = data.message;
    toastsEl.appendChild(toast);
    setTimeout(function () {
      toast.remove();
    }, data.duration || 5000);
  }

  // _top/_parent opens from the app. Shopify admin URLs map onto the local admin; the app's own URLs reload
  // the frame; anything else replaces the admin page, as it would replace Shopify's.
  function openTop(url) {
    var target = new URL(url);
    var adminPath = /^\/store\/[^/]+(\/.*)?$/.exec(target.pathname);
    if (target.hostname === "admin.shopify.com" && adminPath) {
      location.assign(adminHomeUrl + (adminPath[1] || "") + target.search);
    } else if (target.origin === appOrigin) {
      location.assign(framePrefix + target.pathname + target.search);
    } else {
      location.assign(target.href);
    }
  }

  var events = {
    nav: function (data) {
      renderNav(data.items || []);
    },
    title: renderTitle,
    "save-bar": renderSaveBar,
    toast: showToast,
    "toast:hide": function (data) {
      var toast = toastsEl.querySelector('[data-toast-id="' + CSS.escape(String(data.id)) + '"]');
      if (toast) toast.remove();
    },
    loading: function (data) {
      loadingEl.hidden = !data.on;
    },
    location: function (data) {
      currentPath = String(data.path || "/");
      history.replaceState(null, "", framePrefix + currentPath);
      markCurrent();
    },
    open: function (data) {
      openTop(String(data.url));
    },
    ready: function () {
      root.setAttribute("data-app-ready", "true");
    },
  };

  window.addEventListener("message", function (event) {
    if (event.origin !== appOrigin || event.source !== iframe.contentWindow) return;
    var data = event.data;
    if (!data || data.source !== "consign-app-bridge" || typeof data.type !== "string") return;
    if (Object.prototype.hasOwnProperty.call(requests, data.type)) {
      requests[data.type](data).then(
        function (result) {
          send({ type: "response", requestId: data.requestId, result: result });
        },
        function (error) {
          send({ type: "response", requestId: data.requestId, error: String(error && error.message) });
        },
      );
    } else if (Object.prototype.hasOwnProperty.call(events, data.type)) {
      events[data.type](data);
    }
  });

  iframe.addEventListener("load", function () {
    loadingEl.hidden = true;
  });
})();
