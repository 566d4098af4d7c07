"""Issue 33, item 2: the box bridge honours `Retry-After` instead of hammering a busy room."""

import http.server
import json
import threading

from companion_app.bridge.appclient import MAX_RETRY_AFTER_S, AppClient, retry_seconds
from companion_app.bridge.follow import Follower

BUSY = {"error": "This device asks for long polls too often; it may ask again in 7 s."}


class Busy(http.server.BaseHTTPRequestHandler):
    """Answers every GET 429 with Retry-After: 7, counting the requests."""

    asked = 0

    def do_GET(self):  # noqa: N802 (http.server's name)
        """429 with a sentence and Retry-After."""
        Busy.asked += 1
        body = json.dumps(BUSY).encode()
        self.send_response(429)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Retry-After", "7")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args):
        """Quiet."""


def test_retry_after_is_read_as_whole_seconds_and_capped():
    assert retry_seconds("7") == 7 and retry_seconds(" 3 ") == 3
    assert retry_seconds("100000") == MAX_RETRY_AFTER_S
    assert retry_seconds(None) is None and retry_seconds("Wed, 21 Oct 2015") is None


def test_the_follower_waits_as_long_as_a_busy_room_asks():
    """A 429 with Retry-After: 7 makes the follower wait 7 s, not its usual 2 s."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Busy)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        client = AppClient(base, key="")
        assert client.request("GET", "/api/device") == (429, BUSY)
        assert client.retry_after == 7
        client.close()
        waits = []
        follower = Follower(base, on_view=lambda *_: None)

        def wait(seconds):
            """Record the wait and stop following (one round is enough)."""
            waits.append(seconds)
            follower._stop.set()
            return True

        follower._stop.wait = wait
        follower._run()
        assert waits == [7] and Busy.asked == 2
        follower._client.close()
    finally:
        server.shutdown()
        server.server_close()
