// Small progressive enhancements; every page works without this file.
(function () {
  "use strict";

  // New table: highlight the variant row for the number of names typed.
  function markVariant() {
    var inputs = document.querySelectorAll('.players-form input[name="player"]');
    if (!inputs.length) return;
    var count = 0;
    inputs.forEach(function (input) { if (input.value.trim()) count += 1; });
    document.querySelectorAll(".variants tr[data-players]").forEach(function (row) {
      row.classList.toggle("match", Number(row.dataset.players) === count);
    });
  }
  document.addEventListener("input", markVariant);
  document.addEventListener("DOMContentLoaded", markVariant);
  document.addEventListener("companion:live-swapped", markVariant); // static/live.js

  // A form with data-auto-submit="N" (For Sale's checks) is sent by the tap that ticks its
  // N-th box: the table turned over exactly N cards, so a separate Enter tap adds nothing.
  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (!form || !form.dataset.autoSubmit || !event.target.checked) return;
    var ticked = form.querySelectorAll('input[type="checkbox"]:checked').length;
    if (ticked === Number(form.dataset.autoSubmit)) form.requestSubmit();
  });

  // Any move form: block a second tap while the first post is on its way.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset.sent) { event.preventDefault(); return; }
    form.dataset.sent = "1";
  });
})();

// Coming back through the browser's history: forms may be sent again.
window.addEventListener("pageshow", function () {
  document.querySelectorAll("form[data-sent]").forEach(function (form) { delete form.dataset.sent; });
});
