// Live pages: a table, history, box or results page follows its table through one
// server-sent event stream (docs/live.md) and shows every newer version without a reload.
//
// <main data-live-url data-live-version data-live-role> marks a live page. A viewer swaps in
// the HTML the stream pushes (rendered once for every viewer); an editor fetches its own page
// (its forms follow its own rights) and swaps in that page's <main>. A swap waits while a
// form in the page is being filled in, and never puts back an older version. After a swap
// the page's scripts start again on the new content ("companion:live-swapped"); frames of the
// box's strip and the bridge status are passed on as "companion:live-frame" and
// "companion:live-status" (static/device/device.js).
//
// The room display gets its page once, then only what changed (server/live/parts.py):
// `part` events (one tile's HTML, put in place of the element with its data-live-part) and,
// when tables come or go, a `layout` (the page with a slot for each part, filled with the
// parts the page has).
(function () {
  "use strict";

  var main = document.querySelector("main[data-live-url]");
  if (!main || !window.EventSource) return;

  var RETRY_MS = 5000; // after the server refused or dropped the stream for good
  var MAX_RETRY_MS = 60000;
  var retryMs = RETRY_MS;
  var pending = null; // {version, html, own}: a newer version waiting to be shown
  // (its version stands in <main data-live-pending> while a form being filled in holds it)
  var changes = []; // parts and layouts waiting to be shown (after `pending`, if any)
  var loose = {}; // parts not on the page yet: the next layout places them
  var fetching = false;
  var refetch = false;
  var source = null;

  function parts(version) {
    return String(version || "0").split(".").map(Number);
  }

  // True if version a is newer than version b (dotted integers, compared part by part).
  function newer(a, b) {
    var x = parts(a);
    var y = parts(b);
    for (var i = 0; i < Math.max(x.length, y.length); i += 1) {
      var left = x[i] || 0;
      var right = y[i] || 0;
      if (left !== right) return left > right;
    }
    return false;
  }

  function emit(name, detail) {
    document.dispatchEvent(new CustomEvent(name, { detail: detail }));
  }

  // A form control whose value differs from the one the page was rendered with.
  function changed(control) {
    if (control.type === "checkbox" || control.type === "radio") {
      return control.checked !== control.defaultChecked;
    }
    if (control.tagName === "SELECT") {
      var options = Array.prototype.slice.call(control.options);
      var chosen = options.filter(function (option) { return option.defaultSelected; });
      if (!chosen.length && !control.multiple) return control.selectedIndex > 0;
      return options.some(function (option) { return option.selected !== option.defaultSelected; });
    }
    if (/^(hidden|submit|button|reset|image|file)$/.test(control.type)) return false;
    return "defaultValue" in control && control.value !== control.defaultValue;
  }

  // True while someone is filling in a form of this page: the swap waits.
  // A tap under way (pointer down, not yet up) holds a swap back until its click has been
  // dispatched: a swap between the two halves of a tap lost the tap (the box panel's seat
  // buttons, tapped one after the other while each press's update came in).
  var pressing = false;

  function busy() {
    if (pressing) return true;
    var active = document.activeElement;
    if (active && main.contains(active) && active.matches(
      "input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]), textarea, select"
    )) return true;
    return Array.prototype.some.call(main.querySelectorAll("form"), function (form) {
      // A refused entry drawn again (templates/_entry.html) counts as being filled in.
      if (form.dataset.kept) return true;
      return Array.prototype.some.call(form.elements, changed);
    });
  }

  function absolute(url) {
    return new URL(url, location.href).href;
  }

  function parsed(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    return template.content;
  }

  // Put `html` (or a parsed fragment) into <main>: stylesheets already loaded stay, scripts
  // load only once.
  function swap(html) {
    var fresh = typeof html === "string" ? parsed(html) : html;
    var wanted = {};
    fresh.querySelectorAll("link[rel=stylesheet]").forEach(function (link) {
      wanted[absolute(link.getAttribute("href"))] = link;
    });
    var kept = {};
    main.querySelectorAll(":scope > link[rel=stylesheet]").forEach(function (link) {
      if (wanted[link.href]) kept[link.href] = true;
    });
    Object.keys(kept).forEach(function (href) { wanted[href].remove(); });
    fresh.querySelectorAll("script[src]").forEach(function (script) {
      var src = absolute(script.getAttribute("src"));
      var loaded = Array.prototype.some.call(document.scripts, function (known) { return known.src === src; });
      script.remove();
      if (!loaded) {
        var load = document.createElement("script");
        load.src = src;
        load.defer = true;
        document.head.appendChild(load);
      }
    });
    Array.prototype.slice.call(main.childNodes).forEach(function (node) {
      if (!(node.nodeName === "LINK" && kept[node.href])) main.removeChild(node);
    });
    main.appendChild(fresh);
  }

  function show(version, html) {
    swap(html);
    main.dataset.liveVersion = version;
    emit("companion:live-swapped", { version: version });
  }

  // An editor's own page: its <main> replaces ours if it is newer.
  async function fetchOwn() {
    if (fetching) {
      refetch = true;
      return;
    }
    fetching = true;
    refetch = false;
    try {
      var response = await fetch(location.pathname + location.search, {
        credentials: "same-origin",
        cache: "no-store",
        headers: { Accept: "text/html" },
      });
      var page = new DOMParser().parseFromString(await response.text(), "text/html");
      var theirs = page.querySelector("main[data-live-version]");
      if (theirs && newer(theirs.dataset.liveVersion, main.dataset.liveVersion)) {
        main.dataset.liveRole = theirs.dataset.liveRole || main.dataset.liveRole;
        hold({ version: theirs.dataset.liveVersion, html: theirs.innerHTML, own: true });
      }
    } catch (_error) {
      // offline for a moment: the next update (or the reconnect's first event) tries again
    } finally {
      fetching = false;
    }
    if (refetch) fetchOwn();
    else flush();
  }

  function hold(next) {
    pending = next;
    if (next) main.dataset.livePending = next.version;
    else delete main.dataset.livePending;
  }

  function flush() {
    if (busy()) return;
    if (pending) {
      var next = pending;
      hold(null);
      if (newer(next.version, main.dataset.liveVersion)) {
        if (main.dataset.liveRole === "editor" && !next.own) fetchOwn();
        else show(next.version, next.html);
      }
    }
    applyChanges();
  }

  function partOnPage(id) {
    return main.querySelector('[data-live-part="' + CSS.escape(id) + '"]');
  }

  // One part in place of the page's (or kept for the next layout, for a new table's tile).
  function putPart(data) {
    var node = parsed(data.html).firstElementChild;
    var old = partOnPage(data.id);
    if (!node) return;
    if (old) old.replaceWith(node);
    else loose[data.id] = node;
  }

  // A new layout, each slot filled with the part the page has or was just sent.
  function putLayout(data) {
    var fresh = parsed(data.html);
    var missing = false;
    fresh.querySelectorAll("template[data-live-slot]").forEach(function (slot) {
      var id = slot.dataset.liveSlot;
      var node = loose[id] || partOnPage(id);
      if (node) slot.replaceWith(node);
      else {
        missing = true;
        slot.remove();
      }
    });
    loose = {};
    swap(fresh);
    return missing;
  }

  // Parts and layouts as they came, none older than what the page shows.
  function applyChanges() {
    if (!changes.length) return;
    var missing = false;
    changes.splice(0).forEach(function (change) {
      if (newer(main.dataset.liveVersion, change.data.version)) return;
      if (change.kind === "part") putPart(change.data);
      else missing = putLayout(change.data) || missing;
      main.dataset.liveVersion = change.data.version;
    });
    emit("companion:live-swapped", { version: main.dataset.liveVersion });
    if (missing) reconnect(); // a part never sent: a new stream starts with the whole page
  }

  function change(kind, event) {
    var data = parse(event);
    if (!data) return;
    changes.push({ kind: kind, data: data });
    flush();
  }

  function offer(version, html) {
    if (!newer(version, main.dataset.liveVersion)) return;
    if (pending && !newer(version, pending.version)) return;
    hold({ version: version, html: html, own: false });
    flush();
  }

  function parse(event) {
    try {
      return JSON.parse(event.data);
    } catch (_error) {
      return null;
    }
  }

  function connect() {
    if (source) source.close(); // one stream per page, however the reconnects cross
    source = new EventSource(main.dataset.liveUrl);
    source.addEventListener("open", function () {
      retryMs = RETRY_MS;
      emit("companion:live-state", { online: true });
    });
    source.addEventListener("update", function (event) {
      var data = parse(event);
      if (data) offer(String(data.version), data.html);
    });
    source.addEventListener("part", function (event) { change("part", event); });
    source.addEventListener("layout", function (event) { change("layout", event); });
    source.addEventListener("frame", function (event) {
      var data = parse(event);
      if (data) emit("companion:live-frame", data);
    });
    source.addEventListener("status", function (event) {
      var data = parse(event);
      if (data) emit("companion:live-status", data);
    });
    source.addEventListener("error", function () {
      emit("companion:live-state", { online: false });
      if (source.readyState !== EventSource.CLOSED) return; // the browser reconnects itself
      // Refused (too many pages, the server stopping): try again later, less and less often.
      setTimeout(connect, retryMs + Math.random() * retryMs);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    });
  }

  document.addEventListener("pointerdown", function () { pressing = true; }, true);
  function released() {
    pressing = false;
    setTimeout(flush, 0); // after the click this release makes
  }
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
  window.addEventListener("blur", released); // a release the page never saw
  // A deferred swap happens once the form is left alone (focus leaves it, or it is reset).
  document.addEventListener("focusout", function () { setTimeout(flush, 0); });
  document.addEventListener("reset", function () { setTimeout(flush, 0); });
  // Sending a form loads the page anew: nothing is left to swap.
  document.addEventListener("submit", function () { hold(null); });
  window.addEventListener("pagehide", function () { if (source) source.close(); });
  // A phone that slept may hold a stream its network dropped without a word: on waking (the
  // page shown again, the network back, the page restored from the back-forward cache) open a
  // fresh one, whose first event brings the page up to date.
  function reconnect() {
    retryMs = RETRY_MS;
    connect();
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") reconnect();
  });
  window.addEventListener("online", reconnect);
  window.addEventListener("pageshow", function (event) { if (event.persisted) reconnect(); });

  connect();
})();
