// A button that opens a menu, closed again by a second click or a click anywhere else: the Print menu and More
// actions (print-menu.js, more-actions.js). Returns the function that shows or hides the menu.
window.localAdminMenu = function (root, button, items) {
  "use strict";
  const show = (open) => {
    items.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
  };
  button.addEventListener("click", () => show(items.hidden));
  document.addEventListener("click", (event) => {
    if (!root.contains(event.target)) show(false);
  });
  return show;
};
