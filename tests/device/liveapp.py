"""The real companion app served on a free loopback port in a thread, with a request log."""

import contextlib
import gc
import io
import json
import threading
import time
import urllib.error
import urllib.request

from companion_app import create_app
from companion_app.device.status import get_status
from tests.live import json_request, served

REQUEST_TIMEOUT_S = 10.0
#: How long a test waits for what follows at once (the strip showing a change, a press locking
#: a seat, the status seeing the box): a liveness bound, not a speed one, so long that a host
#: whose cores are all busy still makes it. The box's speed is held by the fault suite and the
#: panel/strip test, which run alone (marker `alone`).
SHOWN_S = 15.0
#: Tests hold long polls this long (the app's default is 20 s), so closing joins them quickly.
TEST_LONG_POLL_S = 0.5
SERVER_ERROR = 500


class RequestLog:
    """WSGI middleware: every request's method, path and status; press answers' bodies."""

    def __init__(self, wsgi):
        self.wsgi = wsgi
        self.lock = threading.Condition()
        self.entries = []  # (method, path, status)
        self.presses = []  # (request JSON, status, answer JSON) of every POST .../reveal/press
        self.pressing = 0  # presses the app is answering, not yet in `presses`

    def __call__(self, environ, start_response):
        seen = {}
        method, path = environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")
        is_press = method == "POST" and path.endswith("/reveal/press")
        if is_press:
            size = int(environ.get("CONTENT_LENGTH") or 0)
            asked = environ["wsgi.input"].read(size)
            environ["wsgi.input"] = io.BytesIO(asked)
            with self.lock:
                self.pressing += 1

        def recording_start(status, headers, exc_info=None):
            """Note the status on the way out."""
            seen["status"] = int(status.split()[0])
            return start_response(status, headers, exc_info)

        try:
            answer = self.wsgi(environ, recording_start)
            try:
                body = b"".join(answer)
            finally:
                if hasattr(answer, "close"):  # a file sent (static/): the WSGI server closes it
                    answer.close()
            with self.lock:
                self.entries.append((method, path, seen["status"]))
                if is_press:
                    self.presses.append((json.loads(asked), seen["status"], json.loads(body)))
        finally:
            if is_press:
                with self.lock:
                    self.pressing -= 1
                    self.lock.notify_all()
        return [body]

    def server_errors(self):
        """Requests answered with a 5xx."""
        with self.lock:
            return [e for e in self.entries if e[2] >= SERVER_ERROR]

    def taken(self, settle_s=REQUEST_TIMEOUT_S):
        """(reveal id, seat) of every press the app took as new (200, not a duplicate).

        Waits for the presses the app is still answering: the app stores a press (and shows it)
        before this log, which notes it on the way out, has it.
        """
        with self.lock:
            self.lock.wait_for(lambda: self.pressing == 0, settle_s)
            return [
                (asked["id"], asked["seat"])
                for asked, status, answer in self.presses
                if status == 200 and not answer["duplicate"]
            ]


class LiveApp:
    """create_app on a temporary instance, served by werkzeug; `call()` talks JSON to it."""

    def __init__(self, instance_path, long_poll_s=TEST_LONG_POLL_S, port=0):
        config = {"TESTING": True, "SECRET_KEY": "test", "DEVICE_LONG_POLL_S": long_poll_s}
        self.app = create_app(config, instance_path=str(instance_path))
        self.log = RequestLog(self.app.wsgi_app)
        self.app.wsgi_app = self.log
        self._serving = contextlib.ExitStack()
        self.server = self._serving.enter_context(served(self.app, port))
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    @property
    def status(self):
        """The app's in-process bridge status object."""
        return get_status(self.app)

    def close(self):
        """Release waiting long polls, stop serving, join every request thread."""
        self._serving.close()
        gc.collect()  # the dead request threads' SQLite connections (thread-locals) close now

    @staticmethod
    def get(url, path):
        """The JSON of a GET that must succeed, from any app at `url`."""
        with urllib.request.urlopen(url + path, timeout=REQUEST_TIMEOUT_S) as response:
            return json.loads(response.read())

    def call(self, method, path, body=None):
        """(status, JSON) of one request."""
        return json_request(self.url, method, path, body, REQUEST_TIMEOUT_S)

    def ok(self, method, path, body=None):
        """The JSON of a request that must succeed."""
        status, answer = self.call(method, path, body)
        assert status < 300, (method, path, status, answer)
        return answer


class Razzia:
    """A Razzia! table driven through the API: deal, draw police (auctions passed), next round."""

    def __init__(self, live, players=("Ann", "Bob", "Cid", "Dee")):
        self.live = live
        table = live.ok("POST", "/api/tables", {"game": "razzia", "players": list(players)})
        self.id = table["id"]
        self.table = table
        self.move({"type": "deal", "sets": table["actions"]["sets"]})

    def move(self, move):
        """Play one move at the current version."""
        self.table = self.live.ok(
            "POST", f"/api/tables/{self.id}/moves", {"version": self.table["version"], "move": move}
        )
        return self.table

    def draw_police(self):
        """The player to act draws a police card; any auction it starts is settled."""
        self.move({"type": "draw", "seat": self.table["state"]["turn"], "card": "police"})
        while self.table["actions"]["phase"] == "auction":
            options = self.table["actions"]
            seat = options["actor"]
            if options["can_pass"]:
                self.move({"type": "pass", "seat": seat})
            else:
                self.move({"type": "bid", "seat": seat, "check": min(options["bids"])})

    def next_round(self):
        """Start the next round after a raid."""
        self.move({"type": "next_round"})

    def arm(self, seats):
        """Arm a reveal for these (0-based) seats; its id."""
        return self.live.ok("POST", f"/api/tables/{self.id}/reveal", {"seats": list(seats)})[
            "reveal"
        ]["id"]

    def device(self):
        """The table's device view."""
        return self.live.ok("GET", f"/api/tables/{self.id}/device")


def wait_until(test, timeout, step=0.01):
    """Poll test() until it is truthy (returned) or `timeout` seconds pass (None)."""
    deadline = time.monotonic() + timeout
    while True:
        value = test()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(step)
