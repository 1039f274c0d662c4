// The order list's selection: "select all on this page", the selected count, and enabling the bulk action.
// Submitting the form opens the app frame at /app/quotes/new with one ids[] parameter per selected order,
// as Shopify's order-index selection action (admin link extension) does.
(function () {
  "use strict";
  var form = document.querySelector("[data-orders-form]");
  if (!form) return;
  var selectAll = form.querySelector("[data-select-all]");
  var boxes = Array.prototype.slice.call(form.querySelectorAll('input[name="ids[]"]'));
  var count = form.querySelector("[data-selected-count]");
  var button = form.querySelector("[data-bulk-action]");

  function update() {
    var selected = boxes.filter(function (box) {
      return box.checked;
    }).length;
    count.textContent = selected === 0 ? "No orders selected" : selected + " selected";
    button.disabled = selected === 0;
    boxes.forEach(function (box) {
      box.closest("tr").classList.toggle("selected", box.checked);
    });
    if (selectAll) {
      selectAll.checked = selected > 0 && selected === boxes.length;
      selectAll.indeterminate = selected > 0 && selected < boxes.length;
    }
  }

  if (selectAll) {
    selectAll.addEventListener("change", function () {
      boxes.forEach(function (box) {
        box.checked = selectAll.checked;
      });
      update();
    });
  }
  boxes.forEach(function (box) {
    box.addEventListener("change", update);
  });
  update();
})();
