// The builder's first-plug check on the box page (templates/device/box.html): asks the bridge
// for a check, shows each question it puts (an LED to look at, a button to press, a beep to
// listen for), sends the answers and shows the report in the page's language, with a copy to
// keep. It follows the check by long poll (GET /api/device/check?wait=<etag>, held by the
// server front without a thread); the check's words come with the page (web/boxcheck.py).
// A live update of the page brings the section anew: it is found again on every paint.
(function () {
  "use strict";

  var RETRY_MS = 1000;
  var current = null;  // the check's last state
  var following = false;

  function section() { return document.querySelector("[data-testid=box-check]"); }
  function words(root) { return JSON.parse(root.querySelector(".box-check-words").textContent); }
  function lang() { return document.documentElement.lang || "en"; }

  // A number as the server's i18n/formats.py writes it: the page's separators, at most one
  // decimal, the minus sign U+2212 (Intl writes a hyphen).
  function number(value) {
    var n = Number(value);
    return typeof value === "string" && value !== "" && !isNaN(n)
      ? n.toLocaleString(lang(), { maximumFractionDigits: 1 }).replace(/^-/, "\u2212") : value;
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_all, key) { return String(number(values[key])); });
  }

  function ledWords(text, led) {
    return fill(text.led[led.segment], { number: led.number, position: led.index + 1 });
  }

  // One finding (bridge/checkreport.py: a code and its numbers) in the page's language.
  function finding(text, result) {
    var params = Object.assign({}, result.params);
    if (params.led) params.led = ledWords(text, params.led);
    if (params.colour) params.colour = text.colours[params.colour];
    var found = fill(text.findings[result.code], params);
    return fill(text.items[result.item], params) + ": " + found.charAt(0).toLowerCase() + found.slice(1);
  }

  function question(text, asked) {
    if (asked.kind === "press") return fill(text.questions.press, { seat: asked.seat });
    if (asked.kind === "beep") return text.questions.beep;
    var line = fill(text.questions.led, { led: ledWords(text, asked.led), colour: text.colours[asked.colour] });
    if (asked.led.segment === "police" && asked.led.number === 7) line = text.questions.raid + " " + line;
    return line;
  }

  async function call(url, method, body) {
    var options = { method: method || "GET", headers: { Accept: "application/json" } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    var response = await fetch(url, options);
    var answer = await response.json();
    if (!response.ok) throw new Error(answer.error);
    return answer;
  }

  function showError(root, message) {
    var box = root.querySelector("[data-testid=box-check-error]");
    box.textContent = message || "";
    box.hidden = !message;
  }

  function reportText(text, report) {
    var hello = report.hello || {};
    var lines = [
      fill(text.report_title, { started: report.started || "" }),
      report.passed ? text.passed : fill(text.failed, {
        failed: report.results.filter(function (r) { return r.verdict === "fail"; }).length,
        total: report.results.length,
      }),
      fill(text.firmware_line, { fw: hello.fw || "?", proto: hello.proto || "?", uid: hello.uid || "?" }),
    ];
    report.results.forEach(function (result) {
      lines.push(text.verdicts[result.verdict] + "  " + finding(text, result));
    });
    return lines;
  }

  function paintReport(root, text, report) {
    var lines = reportText(text, report);
    root.querySelector("[data-testid=box-check-verdict]").textContent = lines[1];
    var list = root.querySelector("[data-testid=box-check-results]");
    list.textContent = "";
    report.results.forEach(function (result) {
      var item = document.createElement("li");
      item.dataset.verdict = result.verdict;
      item.textContent = finding(text, result);
      list.appendChild(item);
    });
    var keep = root.querySelector("[data-testid=box-check-keep]");
    keep.href = URL.createObjectURL(new Blob([lines.join("\n") + "\n"], { type: "text/plain" }));
    keep.download = "box-check-" + ((report.hello || {}).uid || "box") + ".txt";
  }

  // Show the check as it is now: the question on screen, the report, or the start button.
  function paint() {
    var root = section();
    if (!root || !current) return;
    var text = words(root);
    // Another table's check is not this page's to answer or stop (issue 33, item 4).
    var mine = !current.table || current.table === root.dataset.table;
    var running = mine && (current.state === "asked" || current.state === "running");
    var asked = running ? current.question : null;
    var step = root.querySelector("[data-testid=box-check-step]");
    step.hidden = !running;
    step.dataset.question = asked ? asked.id : "";
    root.querySelector("[data-testid=box-check-question]").textContent = asked ? question(text, asked) : text.waiting;
    root.querySelector(".box-check-answers").hidden = !asked || asked.kind === "press";
    root.querySelector("[data-testid=box-check-start]").hidden = running;
    root.querySelector("[data-testid=box-check-stop]").hidden = !running;
    var report = root.querySelector("[data-testid=box-check-report]");
    report.hidden = !mine || current.state !== "done" || !current.report;
    if (!report.hidden) paintReport(root, text, current.report);
    if (mine && current.state === "cancelled") showError(root, text.stopped);
    if (running && asked) step.scrollIntoView({ block: "nearest" });  // the next decision
  }

  async function follow() {
    if (following) return;
    following = true;
    var root = section();
    var url = root.dataset.stateUrl;
    while (section()) {
      try {
        var join = url.indexOf("?") < 0 ? "?" : "&";
        var wait = current ? join + "wait=" + encodeURIComponent(current.etag) : "";
        current = await call(url + wait);
        paint();
      } catch (_error) {
        await new Promise(function (done) { setTimeout(done, RETRY_MS); });
      }
    }
    following = false;
  }

  document.addEventListener("click", async function (event) {
    var root = section();
    var button = event.target.closest("button");
    if (!root || !button || !root.contains(button)) return;
    try {
      if (button.dataset.action === "check") {
        showError(root, "");
        current = await call(root.dataset.askUrl, "POST", {});
      } else if (button.dataset.action === "stop") {
        current = await call(root.dataset.cancelUrl, "POST", {});
      } else if (button.dataset.answer && current && current.question) {
        current = await call(root.dataset.answerUrl, "POST", {
          question: current.question.id, yes: button.dataset.answer === "yes",
        });
      } else {
        return;
      }
      paint();
    } catch (error) {
      showError(root, error.message);
    }
  });

  function start() {
    if (!section()) return;
    paint();
    follow();
  }

  document.addEventListener("companion:live-swapped", start);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
