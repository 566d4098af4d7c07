// The on-screen table box: paints the frames the firmware's own renderer drew on the server,
// each at the moment the strip shows it, and presses seats. The contract is
// docs/device-api.md. It holds no connection of its own: the page's live stream
// (static/live.js, docs/live.md) brings the panel anew with every change
// ("companion:live-swapped"), the table's frame after each change ("companion:live-frame")
// and the bridge status ("companion:live-status"). A frame's timeline lists the strip's
// steps (a raid, a countdown: 125 ms each on the box's grid; the disconnected dot) with the
// server's epoch ms each begins at; the panel plays them on its copy of the server's clock.
(function () {
  "use strict";

  // The server's clock, from the quickest trip to /api/device/clock so far (as NTP does: the
  // server read its clock half-way through the trip, so the error is under half the trip).
  // A few trips at load, then one every CLOCK_AGAIN_MS: a quick one comes along even on a
  // busy machine.
  var clock = { offset: 0, trip: Infinity, asked: false, players: [] };
  var CLOCK_TRIPS = 8;
  var CLOCK_AGAIN_MS = 5000;

  function localMs() { return performance.timeOrigin + performance.now(); }
  function serverMs() { return localMs() + clock.offset; }

  async function clockTrip(url) {
    var sent = localMs();
    var answer = await call(url);
    var back = localMs();
    if (back - sent >= clock.trip) return false;
    clock.trip = back - sent;
    clock.offset = answer.now - (sent + back) / 2;
    return true;
  }

  async function setClock(url) {
    if (clock.asked) return;
    clock.asked = true;
    try {
      for (var i = 0; i < CLOCK_TRIPS; i += 1) await clockTrip(url);
    } catch (_error) { /* offline: the local clock until a trip succeeds */ }
    clock.players.forEach(function (advance) { advance(); });  // steps at the right moments
    setInterval(function () {
      clockTrip(url).then(function (better) {
        if (better) clock.players.forEach(function (advance) { advance(); });
      }, function () { /* offline for now */ });
    }, CLOCK_AGAIN_MS);
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_all, key) { return String(values[key]); });
  }

  // A strip level (0..cap per channel) as the screen colour it stands for.
  function screenColour(pixel, cap) {
    var channels = pixel.map(function (level) { return Math.min(255, Math.round(level * 255 / cap)); });
    return "rgb(" + channels.join(", ") + ")";
  }

  function Refusal(message) { this.message = message; }

  // An etag (docs/device-api.md) as numbers that grow with it: version, reveal id, step.
  function etagKey(etag) {
    var parts = String(etag || "0").split(":");
    if (parts.length < 3) return [Number(parts[0]) || 0, 0, 0];
    return [Number(parts[0]) || 0, Number(parts[1]) || 0, parts[2] === "off" ? 99 : Number(parts[2]) || 0];
  }

  function newerEtag(a, b) {
    var x = etagKey(a);
    var y = etagKey(b);
    for (var i = 0; i < x.length; i += 1) {
      if (x[i] !== y[i]) return x[i] > y[i];
    }
    return false;
  }

  // The newest frame painted per table: a panel swapped in from an older page (a live
  // update that was on its way while this panel's own press was painted) shows it at once.
  var newest = {};

  async function call(url, method, body) {
    var options = { method: method || "GET", headers: { Accept: "application/json" } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    var response = await fetch(url, options);
    var answer = await response.json();
    if (!response.ok) throw new Refusal(answer.error);
    return answer;
  }

  function start(root) {
    var data = root.dataset;
    var readonly = data.readonly === "1";  // a viewer's panel: shows, never presses
    var text = JSON.parse(root.querySelector(".device-text").textContent);
    var revealId = data.revealId ? Number(data.revealId) : null;
    var errorBox = root.querySelector(".device-error");
    var fold = root.querySelector(".device-fold");
    var openKey = "companion:box-open:" + data.table;

    // The page draws the panel folded while nothing needs it; one opened by hand stays open
    // through live swaps (each draws it anew) for the rest of the visit.
    function remembered() {
      try { return sessionStorage.getItem(openKey) === "1"; } catch (_error) { return false; }
    }
    function unfold() { if (fold) fold.open = true; }
    if (fold && remembered()) unfold();
    if (fold) {
      fold.querySelector("summary").addEventListener("click", function () {
        setTimeout(function () {
          try { sessionStorage.setItem(openKey, fold.open ? "1" : "0"); } catch (_error) { /* private mode */ }
        }, 0);
      });
    }

    function showError(message) {
      errorBox.textContent = message || "";
      errorBox.hidden = !message;
    }

    function paintSeats(frame) {
      root.querySelectorAll(".seat-button").forEach(function (button) {
        var seat = Number(button.dataset.seat);
        var state = frame.seats[seat];
        var pixel = frame.layout.seat[0] + seat;
        button.dataset.state = state;
        button.disabled = state !== "armed" || readonly;
        button.querySelector(".seat-state").textContent = text.seat[state];
        button.querySelector(".led").style.setProperty("--led", screenColour(frame.pixels[pixel], frame.cap));
      });
    }

    function paintReveal(reveal) {
      var line = text.no_reveal;
      if (reveal && reveal.revealed) line = fill(text.revealed, { id: reveal.id });
      else if (reveal) line = fill(text.progress, { id: reveal.id, locked: reveal.locked.length, armed: reveal.seats.length });
      root.querySelector(".reveal-status").textContent = line;
      var disarm = root.querySelector("[data-action=disarm]");
      if (disarm) disarm.disabled = !reveal;
      revealId = reveal ? reveal.id : null;
      if (reveal && !reveal.revealed) unfold(); // a reveal runs: its seats must be seen
    }

    function paintPixels(shown) {
      root.querySelectorAll(".device-strip .led").forEach(function (led) {
        var pixel = shown.pixels[Number(led.dataset.pixel)];
        led.dataset.level = pixel.join(",");
        led.style.setProperty("--led", screenColour(pixel, shown.cap));
      });
      paintSeats(shown);
    }

    // The strip's timeline: the step it shows now, then each next one at its moment.
    var timeline = null;
    var base = null;  // the frame the timeline belongs to (layout, cap)
    var timer = null;

    function advance() {
      clearTimeout(timer);
      timer = null;
      if (!timeline || !document.contains(root)) return;
      var steps = timeline.steps;
      var loop = timeline.loop_ms;
      var elapsed = serverMs() - timeline.at;
      if (loop) elapsed = ((elapsed % loop) + loop) % loop;
      var now = 0;
      for (var i = 1; i < steps.length && steps[i][0] <= elapsed; i += 1) now = i;
      var step = timeline.frames[steps[now][1]];
      paintPixels({ pixels: step.pixels, seats: step.seats, layout: base.layout, cap: base.cap });
      var next = now + 1 < steps.length ? steps[now + 1][0] : loop ? loop + steps[0][0] : null;
      if (next !== null) timer = setTimeout(advance, Math.max(0, next - elapsed));
    }
    clock.players.push(advance);

    function paint(frame) {
      var known = newest[data.table];
      if (!known || !newerEtag(known.etag, frame.etag)) newest[data.table] = frame;
      base = frame;
      timeline = frame.timeline || { at: 0, steps: [[0, 0]], frames: [frame], loop_ms: null };
      advance();
      paintReveal(frame.reveal);
      root.dataset.animation = frame.animation || "";
    }

    // One frame straight from the app, after this panel's own press (the stream follows).
    async function refresh() {
      paint(await call(data.frameUrl));
    }

    function paintStatus(status) {
      var badge = root.querySelector(".device-badge");
      var follow = root.querySelector(".device-follow");
      var state = status.mode === "virtual" ? "virtual" : status.connected ? "connected" : "disconnected";
      var problem = status.problem && text.badge[status.problem] ? status.problem : null;
      var shownConnected = problem === "port_shared" || problem === "box_fault";
      if (state !== "virtual" && problem && (shownConnected || state !== "connected")) state = problem;
      var programs = (status.holders || []).map(function (h) { return h.name + " (" + h.pid + ")"; });
      // The strip shows the disconnected dot while its bridge cannot reach it: so does the panel.
      var down = status.mode !== "virtual" && !status.connected;
      var wasDown = badge.dataset.down ? badge.dataset.down === "1"
        : ["disconnected", "box_silent", "box_deaf", "port_busy"].indexOf(badge.dataset.state) >= 0;
      badge.dataset.down = down ? "1" : "0";
      if (down !== wasDown) {
        refresh().catch(function () { showError(text.offline); });
      }
      badge.dataset.state = state;
      badge.textContent = text.badge[state].replace("{programs}", programs.join(", ") || text.unknown_holder)
        .replace("{fault}", status.fault || "?");
      if (state === "connected") unfold(); // a box plugged in: show what it shows
      var followed = status.followed === data.table;
      paintOwner(status.followed);
      if (!follow) return;  // a viewer's panel has no follow button
      follow.setAttribute("aria-pressed", String(followed));
      follow.textContent = followed ? text.followed : text.follow;
    }

    // Which table the box shows and who may move it, when the bridge's status says it moved.
    function paintOwner(followed) {
      var owner = root.querySelector(".device-owner");
      if (!owner || followed === undefined) return;
      var state = followed === data.table ? "this" : followed ? "other" : "free";
      if (state !== "other") refuseFollow("");  // this table's rights are enough again
      if (owner.dataset.state === state) return;  // the page's own sentence names the table
      owner.dataset.state = state;
      owner.textContent = text.owner[state];
    }

    // The follow button disabled with its reason beside it, or enabled again ("").
    function refuseFollow(reason) {
      var follow = root.querySelector(".device-follow");
      var why = root.querySelector(".device-follow-refused");
      if (!follow || !why) return;
      follow.disabled = Boolean(reason);
      why.textContent = reason;
      why.hidden = !reason;
    }

    var refused = false;  // the last action was refused (not merely offline)

    async function act(method, url, body) {
      try {
        var answer = await call(url, method, body);
        refused = false;
        showError("");
        await refresh();
        return answer;
      } catch (error) {
        refused = error instanceof Refusal;
        showError(refused ? error.message : text.offline);
        return null;
      }
    }

    root.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button || button.disabled || !root.contains(button)) return;
      if (button.classList.contains("seat-button")) {
        act("POST", data.pressUrl, { id: revealId, seat: Number(button.dataset.seat) });
      } else if (button.dataset.action === "arm") {
        // The page names the seats: a game's pending choice, else every seat at the table.
        var seats = data.armSeats ? data.armSeats.split(",").map(Number) : [];
        act("POST", data.revealUrl, { seats: seats });
      } else if (button.dataset.action === "disarm") {
        act("DELETE", data.revealUrl);
      } else if (button.classList.contains("device-follow")) {
        act("PUT", data.followUrl, { table: data.table }).then(function (answer) {
          // Refused: the box shows a game this device may not move it from; say so here.
          if (!answer && refused) refuseFollow(text.follow_refused);
          if (!answer) return;
          button.setAttribute("aria-pressed", "true");
          button.textContent = text.followed;
        });
      }
    });

    var known = newest[data.table];
    var drawn = JSON.parse(root.querySelector(".device-frame").textContent);
    paint(known && newerEtag(known.etag, data.etag) ? known : drawn);
    setClock(data.clockUrl);

    return {
      root: root,
      table: data.table,
      paint: paint,
      paintStatus: paintStatus,
      offline: function (away) { showError(away ? text.offline : ""); },
    };
  }

  var panels = [];

  // Start every panel not started yet (at load, and after a live swap brought new ones).
  function startAll() {
    panels = panels.filter(function (panel) { return document.contains(panel.root); });
    document.querySelectorAll(".device-panel").forEach(function (root) {
      if (root.dataset.started) return;
      root.dataset.started = "1";
      panels.push(start(root));
    });
  }

  document.addEventListener("companion:live-swapped", startAll);
  document.addEventListener("companion:live-frame", function (event) {
    panels.forEach(function (panel) {
      if (panel.table === event.detail.table) panel.paint(event.detail);
    });
  });
  document.addEventListener("companion:live-status", function (event) {
    panels.forEach(function (panel) { panel.paintStatus(event.detail); });
  });
  document.addEventListener("companion:live-state", function (event) {
    panels.forEach(function (panel) { panel.offline(!event.detail.online); });
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startAll);
  else startAll();
})();
