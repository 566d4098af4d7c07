// The room display (web/room.py): when the tables need more than one screen, show their
// pages in turn, every data-rotate-s seconds. A live update (static/live.js) replaces the
// pages; the one on screen stays on screen ("companion:live-swapped").
(function () {
  "use strict";

  var DEFAULT_S = 15;
  var current = 0;
  var timer = null;

  function show() {
    var pages = document.querySelectorAll("[data-room-page]");
    if (!pages.length) return;
    current = current % pages.length;
    pages.forEach(function (page, index) { page.hidden = index !== current; });
    var label = document.querySelector("[data-room-pages]");
    if (label) {
      label.textContent = (current + 1) + " / " + pages.length;
      label.hidden = pages.length < 2;
    }
  }

  function start() {
    var room = document.querySelector("[data-rotate-s]");
    if (!room || timer) return;
    var seconds = Number(room.dataset.rotateS) || DEFAULT_S;
    timer = setInterval(function () {
      current += 1;
      show();
    }, seconds * 1000);
    show();
  }

  document.addEventListener("companion:live-swapped", function () {
    start();
    show();
  });
  start();
})();
