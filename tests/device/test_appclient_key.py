"""The bridge's HTTP client sends the device key (docs/security.md, the box bridge)."""

import http.server
import json
import threading

import pytest

from companion_app.bridge.appclient import DEVICE_KEY_ENV, AppClient


class Recorder(http.server.BaseHTTPRequestHandler):
    """Answers {} and remembers the Authorization header of each request."""

    seen: list = []

    def do_PUT(self):  # noqa: N802 (http.server's naming)
        """Record the header, answer an empty JSON object."""
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        Recorder.seen.append(self.headers.get("Authorization"))
        body = json.dumps({}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args):
        """Quiet."""


@pytest.fixture
def server():
    """A recording HTTP server on a free port."""
    Recorder.seen = []
    httpd = http.server.HTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    httpd.server_close()


def test_the_device_key_goes_out_as_a_bearer_token(server, monkeypatch):
    """Rights: a bridge given the device key (argument or environment) authenticates with it."""
    monkeypatch.delenv(DEVICE_KEY_ENV, raising=False)
    AppClient(server).request("PUT", "/api/device/status", {"mode": "remote"})
    AppClient(server, key="given").request("PUT", "/api/device/status", {})
    monkeypatch.setenv(DEVICE_KEY_ENV, "from-env")
    AppClient(server).request("PUT", "/api/device/status", {})
    assert Recorder.seen == [None, "Bearer given", "Bearer from-env"]
