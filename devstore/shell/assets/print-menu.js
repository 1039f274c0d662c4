// The Print menu of the order page and of the order list's selection: it lists the app's print actions
// (admin.order-details.print-action.render, admin.order-index.selection-print-action.render) and opens one in
// a dialog, as Shopify's admin does: the extension runs on the left (extension-host.js, on the order or the
// selected orders); the document its s-admin-print-action `src` names is fetched from the app with a session
// token as Bearer and shown on the right; Print prints it.
(function () {
  "use strict";
  for (const root of document.querySelectorAll("[data-print-menu]")) setUp(root);

  function setUp(root) {
    const config = JSON.parse(root.dataset.printConfig);
    const appOrigin = new URL(config.appUrl).origin;
    const button = root.querySelector("[data-print-button]");
    const items = root.querySelector("[data-print-items]");
    const dialog = root.nextElementSibling;
    const title = dialog.querySelector("[data-print-title]");
    const extension = dialog.querySelector("[data-print-extension]");
    const status = dialog.querySelector("[data-print-status]");
    const preview = dialog.querySelector("[data-print-preview]");
    const submit = dialog.querySelector("[data-print-submit]");
    let documentUrl = null;
    let loading = 0;

    // On the order list the menu prints the selection: enabled while orders are selected.
    const form = root.closest("form");
    const selected = () => (config.resources.length > 0 ? config.resources : [...form.querySelectorAll('input[name="ids[]"]:checked')].map((box) => box.value));
    if (form && config.resources.length === 0) {
      const update = () => (button.disabled = selected().length === 0);
      form.addEventListener("change", update);
      update();
    }

    const showMenu = window.localAdminMenu(root, button, items);
    for (const item of root.querySelectorAll("[data-print-action]")) {
      item.addEventListener("click", () => {
        showMenu(false);
        open(config.actions.find((action) => action.handle === item.dataset.printAction));
      });
    }

    function open(action) {
      title.textContent = action.name;
      showDocument(null, "Choose what to print.");
      const query = new URLSearchParams(selected().map((id) => ["resource", id]));
      extension.src = `${action.src}?${query.toString()}`;
      dialog.showModal();
    }
    for (const close of dialog.querySelectorAll("[data-print-close]")) close.addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => {
      extension.removeAttribute("src");
      showDocument(null, "Choose what to print.");
    });

    function showDocument(url, message, failed = false) {
      if (documentUrl) URL.revokeObjectURL(documentUrl);
      documentUrl = url;
      status.textContent = message;
      status.hidden = message === "";
      status.setAttribute("role", failed ? "alert" : "status");
      preview.hidden = url === null;
      // The browser's PDF viewer, without its page thumbnails, the page fitted to the width.
      if (url) preview.src = `${url}#navpanes=0&view=FitH`;
      else preview.removeAttribute("src");
      submit.disabled = url === null;
    }

    async function token() {
      const response = await fetch(config.tokenEndpoint, { method: "POST", headers: { accept: "application/json" } });
      return response.ok ? (await response.json()).token : null;
    }

    async function load(src) {
      const attempt = ++loading;
      if (!src) return showDocument(null, "Choose what to print.");
      showDocument(null, "Loading the document…");
      const url = new URL(src);
      const headers = {};
      if (url.origin === appOrigin) {
        const bearer = await token();
        if (bearer) headers.authorization = `Bearer ${bearer}`;
      }
      let response;
      try {
        response = await fetch(url, { headers });
      } catch {
        if (attempt === loading) showDocument(null, "The app could not be reached. Close this and print again.", true);
        return;
      }
      if (attempt !== loading) return;
      if (!response.ok) {
        const text = await response.text();
        let message = text;
        try {
          message = JSON.parse(text).error ?? text;
        } catch {
          // a refusal in plain words
        }
        return showDocument(null, `The app could not make this document: ${message}`, true);
      }
      const blob = await response.blob();
      if (attempt !== loading) return;
      preview.dataset.documentSrc = url.href;
      showDocument(URL.createObjectURL(blob), "");
    }

    window.addEventListener("message", (event) => {
      if (event.origin !== window.location.origin || event.source !== extension.contentWindow) return;
      if (event.data?.type === "local-admin:print-action-src") void load(event.data.src);
    });

    // Print: the browser's print of the document shown; where it cannot print a framed PDF, the document opens in a tab to print from.
    submit.addEventListener("click", () => {
      try {
        preview.contentWindow.focus();
        preview.contentWindow.print();
      } catch {
        window.open(documentUrl, "_blank");
      }
    });
  }
})();
