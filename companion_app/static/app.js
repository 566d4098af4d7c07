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

  // Last resort for a decision taller than the screen (many players, a notice, a refusal):
  // a move's page loads at the top; if the controls marked data-decision end below the fold,
  // scroll just enough to show their end, never past their start. The table's head (round and
  // turn banner) sticks to the top of the screen (app.css), so the decision's start stays below
  // it. Only at load and when the tablet is turned, until the reader moves the page: a live
  // swap (static/live.js) keeps the reader's place, and a #anchor (a refusal's panel) or a place
  // the browser restored or the reader scrolled to wins. Scrolling moves no focus.
  // The reader's moves are their input (a swipe, the wheel, a scrolling key, the scroll bar, a
  // tapped panel that scrolled itself), not a changed scroll position: the browser moves the
  // page too when the size changes (clamping or anchoring the scroll), and a full-page capture
  // passes through a 1 px high viewport on its way, so "not where this put it" had taken a
  // browser's clamp for the reader and left the decision below the fold.
  var readerMoved = false;
  var SCROLL_KEYS = ["PageUp", "PageDown", "ArrowUp", "ArrowDown", "Home", "End", " "];
  ["wheel", "touchmove"].forEach(function (kind) {
    window.addEventListener(kind, function () { readerMoved = true; }, { capture: true, passive: true });
  });
  window.addEventListener("keydown", function (event) {
    var typing = event.target.closest && event.target.closest("input, textarea, select");
    if (!typing && SCROLL_KEYS.indexOf(event.key) >= 0) readerMoved = true;
  }, true);
  window.addEventListener("mousedown", function (event) {
    if (event.target === document.documentElement) readerMoved = true; // the scroll bar
  }, true);
  function decisionScroll() {
    var top = Infinity;
    var bottom = 0;
    document.querySelectorAll("[data-decision]").forEach(function (marked) {
      var box = marked.getBoundingClientRect();
      if (!box.height) return;
      top = Math.min(top, box.top + window.scrollY);
      bottom = Math.max(bottom, box.bottom + window.scrollY);
    });
    if (bottom <= window.innerHeight) return 0;
    var head = document.querySelector(".table-head");
    var covered = head && getComputedStyle(head).position === "sticky" ? head.offsetHeight : 0;
    var MARGIN = 8;
    return Math.max(0, Math.min(bottom - window.innerHeight + MARGIN, top - covered - MARGIN));
  }
  // A refusal's page opens at its panel (#anchor), whose top the browser puts at the top of the
  // screen, under the sticky table head: the panels' scroll-margin-top (app.css) is the head's
  // height, set here, and a panel already put under the head is brought out from under it.
  function headRoom() {
    var head = document.querySelector(".table-head");
    var covered = head && getComputedStyle(head).position === "sticky" ? head.offsetHeight : 0;
    document.documentElement.style.setProperty("--head-room", covered + "px");
    var target = location.hash && document.getElementById(location.hash.slice(1));
    if (target && target.getBoundingClientRect().top < covered) target.scrollIntoView();
  }
  function showDecision() {
    headRoom();
    if (location.hash || window.scrollY > 0) {
      readerMoved = true; // the browser restored the reader's place: theirs from now on
      return;
    }
    var wanted = decisionScroll();
    if (wanted) window.scrollTo(0, wanted);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", showDecision);
  else showDecision();
  window.addEventListener("resize", function () {
    if (location.hash || readerMoved) return;
    window.scrollTo(0, decisionScroll());
  });

  // A player chip with data-fill="2,3,4,5" (Klub's society tokens) fills the form's
  // data-filled fields in with that player's values, so only what changed is typed.
  document.addEventListener("change", function (event) {
    var chip = event.target;
    if (!chip.form || !chip.checked || chip.dataset.fill === undefined) return;
    var values = chip.dataset.fill.split(",");
    chip.form.querySelectorAll("[data-filled]").forEach(function (field, index) {
      if (index < values.length) field.value = values[index];
    });
  });

  // A data-either field (Klub's society sum) is the alternative to the data-filled ones: typing
  // in one side clears the other, so pre-filled tokens never contradict a typed sum.
  document.addEventListener("input", function (event) {
    var field = event.target;
    if (!field.form || field.value === "") return;
    var other = field.dataset.either !== undefined ? "[data-filled]"
      : field.dataset.filled !== undefined ? "[data-either]" : null;
    if (!other) return;
    field.form.querySelectorAll(other).forEach(function (each) { each.value = ""; });
  });

  // A typed field with data-or="card" is the alternative to the form's "card" chips: typing
  // unticks the chips and tapping a chip empties the field, so the two never disagree (a
  // form sent without this file has both, and the rules refuse that naming both).
  document.addEventListener("input", function (event) {
    var field = event.target;
    if (!field.form || !field.dataset.or || field.value === "") return;
    field.form.querySelectorAll('input[type="radio"]').forEach(function (chip) {
      if (chip.name === field.dataset.or) chip.checked = false;
    });
  });
  document.addEventListener("change", function (event) {
    var chip = event.target;
    if (!chip.form || chip.type !== "radio" || !chip.checked) return;
    chip.form.querySelectorAll("input[data-or]").forEach(function (field) {
      if (field.dataset.or === chip.name) field.value = "";
    });
  });

  // A panel marked data-show-open (Cech zlodějů's card form) comes fully into view when a tap
  // opens it: scrolled just enough to show its end, never past its start under the sticky head.
  // A panel the page itself opens (a refusal's) stays where the page's anchor put it: its
  // toggle event may come before or after that scroll, and moved the dice out of view when it
  // came first on a busy machine.
  var tapped = null;
  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("details[data-show-open] > summary");
    tapped = summary ? summary.parentElement : null;
  }, true);
  document.addEventListener("toggle", function (event) {
    var panel = event.target;
    if (panel !== tapped) return;
    tapped = null;
    if (!panel.open) return;
    var box = panel.getBoundingClientRect();
    if (box.bottom <= window.innerHeight) return;
    var head = document.querySelector(".table-head");
    var covered = head && getComputedStyle(head).position === "sticky" ? head.offsetHeight : 0;
    var MARGIN = 8;
    var by = Math.min(box.bottom - window.innerHeight + MARGIN, box.top - covered - MARGIN);
    if (by > 0) {
      window.scrollBy(0, by);
      readerMoved = true; // the reader's tap moved the page to the panel: it stays there
    }
  }, true);

  // A number field (pattern="[0-9]*") refuses a non-digit in our words, in the page's language
  // (<meta name="digits-message">), not the browser's English "Please match the requested
  // format.". Any tap in a form or a keystroke clears the sentence, so a field corrected (or
  // emptied by a chip, data-or) never stays refused.
  var digits = document.querySelector('meta[name="digits-message"]');
  document.addEventListener("invalid", function (event) {
    var field = event.target;
    if (!digits || !field.setCustomValidity) return;
    field.setCustomValidity("");
    if (field.validity.patternMismatch) field.setCustomValidity(digits.content);
  }, true);
  function clearDigits(form) {
    if (!form) return;
    form.querySelectorAll("input[pattern]").forEach(function (field) { field.setCustomValidity(""); });
  }
  document.addEventListener("input", function (event) { clearDigits(event.target.form); }, true);
  document.addEventListener("click", function (event) {
    clearDigits(event.target.form || (event.target.closest && event.target.closest("form")));
  }, true);

  // Several cards entered by letter and year chips (Adel's exhibitions, data-advance): a ticked
  // year chip chooses the next letter, since an exhibition's letters follow without a gap, so
  // the next card is its year's one tap (a second card of the same letter: its letter again).
  document.addEventListener("change", function (event) {
    var chip = event.target;
    var entry = chip.closest && chip.closest("[data-advance]");
    var shown = entry && chip.checked && chip.type === "checkbox" && chip.closest("[data-letter]");
    if (!shown) return;
    var next = String.fromCharCode(shown.dataset.letter.charCodeAt(0) + 1);
    var letter = entry.querySelector('input[type="radio"][value="' + next + '"]');
    if (letter) letter.checked = true;
  });

  // One tap for a whole table's choice (Adel's "everyone at the castle", data-tick-all="place"):
  // ticks the button's value in every per-seat group of its form (place0, place1, ...).
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-tick-all]");
    if (!button || !button.form) return;
    var group = new RegExp("^" + button.dataset.tickAll + "[0-9]+$");
    Array.prototype.forEach.call(button.form.querySelectorAll('input[type="radio"]'), function (input) {
      if (group.test(input.name) && input.value === button.value && !input.checked) {
        input.checked = true;
        input.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
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
