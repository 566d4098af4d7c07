// New table: the roster's chips seat people with one tap each; letters typed in a seat filter them.
// Each seat says what its name is to the roster (/people/match: the server's rule): in the
// roster, "matches: Cýril" (then the "new person" tick shows) or a new person.
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

    // The seat being typed in does not take its chip away: "Cyril" keeps "Cýril" in view.
    function seated() {
      return seats.filter(function (seat) { return seat !== searching; })
        .map(function (seat) { return fold(seat.value); }).filter(Boolean);
    }

    var asked = 0;
    function says(key, name) {
      return (form.dataset[key] || "").replace("{name}", name);
    }
    function showMatch(seat) {
      var label = seat.closest(".seat-input");
      var out = label.querySelector("[data-seat-match]");
      var tick = label.nextElementSibling;
      var name = seat.value.trim();
      if (!name) {
        seat.dataset.matched = "";
        out.textContent = "";
        out.classList.remove("near");
        if (tick && tick.hasAttribute("data-new-person")) tick.hidden = true;
        return;
      }
      var ask = ++asked;
      seat.dataset.asked = String(ask);
      fetch(form.dataset.matchUrl + "?name=" + encodeURIComponent(name), { headers: { Accept: "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (found) {
          if (!found || seat.dataset.asked !== String(ask)) return;
          var near = found.kind === "near";
          seat.dataset.matched = found.name || "";
          refresh();
          out.textContent = near ? says("saysNear", found.name) :
            found.kind === "known" ? says("saysKnown", found.name) : says("saysNew", name);
          out.classList.toggle("near", near);
          if (tick && tick.hasAttribute("data-new-person")) {
            tick.hidden = !near;
            var text = tick.querySelector("[data-tick-text]");
            if (near && text) text.textContent = says("saysTick", found.name);
            if (!near) tick.querySelector("input").checked = false;
          }
        })
        .catch(function () { /* the form still refuses a near name on the server */ });
    }

    function refresh() {
      var taken = seated();
      var letters = searching ? fold(searching.value) : "";
      var shown = 0;
      var limit = letters ? FOUND : RECENT;
      var pinned = searching && searching.dataset.matched ? fold(searching.dataset.matched) : "";
      chips.forEach(function (chip) {
        var name = fold(chip.dataset.name);
        // The person the server matched (look-alike letters too) stays in view.
        var match = !letters || name.indexOf(letters) !== -1 || name === pinned;
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
      searching = null;
      seat.dispatchEvent(new Event("input", { bubbles: true }));
      refresh();
    });
    seats.forEach(function (seat) {
      seat.addEventListener("input", function (event) {
        if (event.isTrusted) searching = seat;
        refresh();
        showMatch(seat);
      });
      // Moving on to another seat ends the search of the last one: all chips again.
      seat.addEventListener("focus", function () {
        searching = seat.value.trim() ? seat : null;
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
