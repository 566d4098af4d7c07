// The room display (web/room.py): when the tables need more than one screen, show their
// pages in turn, every data-rotate-s seconds; the arrow keys (or a presenter's page keys)
// turn them by hand. A live update (static/live.js) replaces the pages: the one on screen
// stays on screen ("companion:live-swapped").
(function () {
  "use strict";

  var DEFAULT_S = 15;
  var NEXT_KEYS = ["ArrowRight", "ArrowDown", "PageDown", " "];
  var BACK_KEYS = ["ArrowLeft", "ArrowUp", "PageUp"];
  var current = 0;
  var timer = null;

  function show() {
    var pages = document.querySelectorAll("[data-room-page]");
    if (!pages.length) return;
    current = ((current % pages.length) + pages.length) % pages.length;
    pages.forEach(function (page, index) { page.hidden = index !== current; });
    var label = document.querySelector("[data-room-pages]");
    if (label) {
      label.textContent = (current + 1) + " / " + pages.length;
      label.hidden = pages.length < 2;
    }
  }

  function turn(step) {
    current += step;
    show();
  }

  function start() {
    var room = document.querySelector("[data-rotate-s]");
    if (!room) return;
    var seconds = Number(room.dataset.rotateS) || DEFAULT_S;
    if (timer) clearInterval(timer);
    timer = setInterval(function () { turn(1); }, seconds * 1000);
  }

  document.addEventListener("keydown", function (event) {
    var step = NEXT_KEYS.indexOf(event.key) >= 0 ? 1 : BACK_KEYS.indexOf(event.key) >= 0 ? -1 : 0;
    if (!step || event.target.closest("form")) return;
    event.preventDefault();
    turn(step);
    start(); // a page turned by hand gets its full time on screen
  });
  document.addEventListener("companion:live-swapped", function () {
    if (!timer) start();
    show();
  });
  start();
  show();
})();
