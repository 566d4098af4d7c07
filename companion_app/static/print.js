// Print buttons: one tap opens the browser's print dialog (the page's print stylesheet lays it out).
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-print]");
    if (!button) return;
    event.preventDefault();
    window.print();
  });
})();
