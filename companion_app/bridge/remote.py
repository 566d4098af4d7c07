"""The status of a bridge in its own process: PUT to the app every second (docs/device-api.md)."""

import logging
import threading

from companion_app.bridge.appclient import AppClient, AppUnreachable

log = logging.getLogger(__name__)
#: What a report carries; the last (the age) changes every time and alone sends nothing.
FIELDS = (
    "mode",
    "connected",
    "problem",
    "holders",
    "fault",
    "drawn",  # the box's animation anchors: a change goes out at once (issue 34 item 4)
    "port",
    "hello",
    "last_seen_ms",
)


class RemoteStatus:
    """Callable like DeviceStatus.update; a thread PUTs the latest report (the app expires it)."""

    PERIOD_S = 1.0  # the app treats a report older than 3 s as disconnected
    TIMEOUT_S = 2.0  # a report that cannot go out this fast is stale anyway

    def __init__(self, app_url):
        self._client = AppClient(app_url, timeout=self.TIMEOUT_S)
        self._lock = threading.Lock()
        self._report = {"mode": "remote", "connected": False}
        self._told = False  # nothing goes out before the bridge's first report (issue 34: a
        # bridge waiting for a held port must not say "not connected" for the box meanwhile)
        self._changed = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="device-status", daemon=True)

    def __call__(self, **fields):
        """Merge a report; a change (other than the age) goes out at once."""
        with self._lock:
            self._told = True
            before = dict(self._report)
            self._report.update({k: v for k, v in fields.items() if k in FIELDS})
            changed = any(before.get(k) != self._report.get(k) for k in FIELDS[:-1])
        if changed:
            self._changed.set()

    def start(self):
        """Start reporting."""
        self._thread.start()

    def stop(self):
        """One last report (disconnected), then stop."""
        self(connected=False)
        self._stop.set()
        self._changed.set()
        self._thread.join()
        self._client.close()

    def _run(self):
        """PUT on every change and at least every PERIOD_S."""
        while True:
            self._changed.wait(self.PERIOD_S)
            self._changed.clear()
            with self._lock:
                body, told = dict(self._report), self._told
            if not told:
                if self._stop.is_set():
                    return
                continue
            try:
                status, answer = self._client.request("PUT", "/api/device/status", body)
                if status != 200:
                    log.warning("the app refused the status %s: %s", body, answer)
            except AppUnreachable as exc:
                log.info("cannot report the status: %s", exc)
            if self._stop.is_set():
                return
