// New table: the roster's chips seat people with one tap each; letters typed in a seat filter them.
(function () {
  "use strict";
  // Chips shown before any letter is typed: the people who played most recently.
  var RECENT = 12;
  // Chips shown at most while searching.
  var FOUND = 24;

  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/\s+/g, " ").trim();
  }

  function setUp(box) {
    var form = box.closest("form");
    var seats = Array.prototype.slice.call(form.querySelectorAll('input[name="player"]'));
    var chips = Array.prototype.slice.call(box.querySelectorAll(".roster-chip"));
    var searching = null; // the seat whose letters filter the chips

    function seated() {
      return seats.map(function (seat) { return fold(seat.value); }).filter(Boolean);
    }

    function refresh() {
      var taken = seated();
      var letters = searching ? fold(searching.value) : "";
      var shown = 0;
      var limit = letters ? FOUND : RECENT;
      chips.forEach(function (chip) {
        var name = fold(chip.dataset.name);
        var match = !letters || name.indexOf(letters) !== -1;
        var show = match && taken.indexOf(name) === -1 && shown < limit;
        chip.hidden = !show;
        if (show) shown += 1;
      });
    }

    function target() {
      if (searching && searching.value.trim()) return searching;
      return seats.find(function (seat) { return !seat.value.trim(); }) || null;
    }

    box.addEventListener("click", function (event) {
      var chip = event.target.closest(".roster-chip");
      if (!chip) return;
      var seat = target();
      if (!seat) return;
      seat.value = chip.dataset.name;
      seat.dispatchEvent(new Event("input", { bubbles: true }));
      searching = null;
      refresh();
    });
    seats.forEach(function (seat) {
      seat.addEventListener("input", function (event) {
        if (event.isTrusted) searching = seat;
        refresh();
      });
    });
    box.hidden = false;
    refresh();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-roster]").forEach(setUp);
  });
})();
