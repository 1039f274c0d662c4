// More actions on the order page and on the order list's selection: the app's action extensions
// (admin.order-details.action.render, admin.order-index.selection-action.render), each opened in a modal over
// the page with the order or the selected orders, as Shopify's admin does; the extension closes it with
// shopify.close(). On the order list, an action's should-render (admin.order-index.selection-action.should-render)
// runs for the current selection in a hidden host page and says whether the action is listed.
(function () {
  "use strict";
  for (const root of document.querySelectorAll("[data-more-actions]")) setUp(root);

  function setUp(root) {
    const config = JSON.parse(root.dataset.actionsConfig);
    const button = root.querySelector("[data-actions-button]");
    const items = root.querySelector("[data-actions-items]");
    const empty = root.querySelector("[data-actions-empty]");
    const checks = root.querySelector("[data-should-render]");
    const dialog = root.nextElementSibling;
    const frame = dialog.querySelector("[data-action-extension]");

    const form = root.closest("form");
    const selected = () => (config.resources.length > 0 ? config.resources : [...form.querySelectorAll('input[name="ids[]"]:checked')].map((box) => box.value));
    const query = () => new URLSearchParams(selected().map((id) => ["resource", id])).toString();

    // Each should-render answers once per selection; until then (or without one) the action is listed.
    const display = new Map();
    let asked = "";
    function askShouldRender() {
      const selection = query();
      if (selection === asked) return;
      asked = selection;
      display.clear();
      checks.replaceChildren();
      for (const action of config.actions) {
        if (!action.shouldRender || selected().length === 0) continue;
        const probe = document.createElement("iframe");
        probe.hidden = true;
        probe.dataset.shouldRenderFor = action.handle;
        probe.src = `${action.shouldRender}?${selection}`;
        checks.append(probe);
      }
      renderItems();
    }
    window.addEventListener("message", (event) => {
      if (event.origin !== window.location.origin || event.data?.type !== "local-admin:should-render") return;
      const probe = [...checks.children].find((candidate) => candidate.contentWindow === event.source);
      if (!probe) return;
      display.set(probe.dataset.shouldRenderFor, event.data.display !== false);
      renderItems();
    });
    function renderItems() {
      let shown = 0;
      for (const item of items.querySelectorAll("[data-action]")) {
        item.hidden = display.get(item.dataset.action) === false;
        if (!item.hidden) shown++;
      }
      empty.hidden = shown > 0;
    }

    if (form && config.resources.length === 0) {
      const update = () => {
        button.disabled = selected().length === 0;
        askShouldRender();
      };
      form.addEventListener("change", update);
      update();
    }

    const showMenu = window.localAdminMenu(root, button, items);
    for (const item of items.querySelectorAll("[data-action]")) {
      item.addEventListener("click", () => {
        showMenu(false);
        const action = config.actions.find((candidate) => candidate.handle === item.dataset.action);
        frame.title = action.name;
        frame.src = `${action.src}?${query()}`;
        dialog.showModal();
      });
    }

    // shopify.close() from the extension, or Escape.
    window.addEventListener("message", (event) => {
      if (event.origin === window.location.origin && event.source === frame.contentWindow && event.data?.type === "local-admin:close-action") dialog.close();
    });
    dialog.addEventListener("close", () => frame.removeAttribute("src"));
  }
})();
