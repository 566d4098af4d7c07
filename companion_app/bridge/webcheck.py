"""The first-plug check run by the bridge for the box page: the page is the builder.

The page asks for a check (device/check.py in the app); the bridge sees it in the device
view, closes its session and runs `BoxCheck` (bridge/check.py) on the port with a
`PageBuilder`: each question goes to the app (`PUT /api/device/check`) and the answer comes
back by long poll (`GET /api/device/check?wait=`). The page stopping the check, or leaving a
question unanswered for ANSWER_S, ends it; the bridge then takes the box back for the table.
The bridge stopping ends it too, within one long poll (its stop waits for the check's thread).
"""

import logging
import time
from urllib.parse import quote

from companion_app.bridge.appclient import AppClient, AppUnreachable
from companion_app.bridge.check import BoxCheck, Builder, CheckStopped

log = logging.getLogger(__name__)
OK = 200
ANSWER_S = 300.0  # a question nobody answers this long stops the check
POLL_S = 30.0  # client timeout of one long poll (the app answers within 20 s)


class PageBuilder(Builder):
    """The box page as the builder: questions put to the app, answers read back."""

    press_timeout_s = 60.0  # the builder reads the question, walks to the box, presses

    def __init__(self, client, number, clock=time.monotonic, stopping=lambda: False):
        self.client = client
        self.number = number
        self.clock = clock
        self.stopping = stopping  # True once the bridge stops: no answer is waited for then
        self.etag = None

    def start(self):
        """Say the check has begun (CheckStopped if the page stopped it meanwhile)."""
        self._put({"start": True})

    def sees(self, led, colour):
        return self._ask({"kind": "led", "led": led.as_json(), "colour": colour})

    def press(self, seat):
        self._put({"question": {"kind": "press", "seat": seat}})
        return None  # the check waits for the box to report the press

    def heard_beep(self, since):
        return self._ask({"kind": "beep"})

    def finish(self, report):
        """Put the report on the page."""
        self._put({"report": report.as_json()})

    def _ask(self, question):
        """Put a question and wait for its answer: True or False."""
        state = self._put({"question": question})
        asked = state["question"]["id"]
        deadline = self.clock() + ANSWER_S
        while self.clock() < deadline:
            answer = state.get("answer")
            if answer and answer.get("question") == asked:
                return bool(answer["yes"])
            if state.get("state") != "running":
                raise CheckStopped("the check was stopped on the box page")
            if self.stopping():
                raise CheckStopped("the bridge is stopping")
            state = self._get(wait=True)
        raise CheckStopped(f"no answer on the box page for {ANSWER_S:.0f} s")

    def _put(self, fields):
        """PUT a step of check `number`; the check's state (CheckStopped if refused)."""
        status, state = self.client.request(
            "PUT", "/api/device/check", {"number": self.number, **fields}
        )
        if status != OK:
            raise CheckStopped(f"the app refused the check's step: {state}")
        self.etag = state["etag"]
        return state

    def _get(self, wait):
        """The check's state, after it changes when `wait`."""
        path = "/api/device/check"
        if wait and self.etag:
            path += f"?wait={quote(self.etag, safe='')}"
        status, state = self.client.request("GET", path, timeout=POLL_S)
        if status != OK:
            raise CheckStopped(f"the app answered {status}")
        self.etag = state["etag"]
        if state.get("number") != self.number:
            raise CheckStopped("another check was asked for")
        return state


def run_page_check(base_url, path, number, stopping=lambda: False):
    """Check the box on `path` for the page's check `number` (the port must be free); it ends
    early once `stopping()` says the bridge stops."""
    client = AppClient(base_url)
    builder = PageBuilder(client, number, stopping=stopping)
    try:
        builder.start()
        report = BoxCheck(path, builder).run()
        if report.stopped is None:
            builder.finish(report)
        else:
            log.info("the box check stopped: %s", report.stopped)
    except (AppUnreachable, CheckStopped) as exc:
        log.info("the box check stopped: %s", exc)
    finally:
        client.close()
