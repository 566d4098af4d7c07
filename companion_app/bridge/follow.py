"""The bridge's app side: follow the table's device view by long poll; post presses and status."""

import logging
import queue
import threading
from urllib.parse import quote

from companion_app.bridge.appclient import AppClient, AppUnreachable

log = logging.getLogger(__name__)
OK, NOT_FOUND = 200, 404


class Follower:
    """A thread long-polling the device view; `on_view(table, view)` on every change."""

    # With a fixed table it polls /api/tables/<id>/device; otherwise /api/device, the view of
    # whichever table the app says the box follows (that poll also wakes on a switch).

    RETRY_S = 1.0  # the app did not answer: ask again after this long
    IDLE_S = 2.0  # the fixed table does not exist: ask again after this long
    LONG_POLL_S = 30.0  # client timeout of a long poll (the app answers within 20 s)

    def __init__(self, base_url, on_view, table=None, on_check=None):
        self._client = AppClient(base_url)
        self._on_view = on_view
        self._on_check = on_check  # on_check(number): the box page asked for a box check
        self.path = f"/api/tables/{table}/device" if table else "/api/device"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="device-follow", daemon=True)
        self.reachable = None  # last outcome: True, False, or None before the first answer

    def start(self):
        """Start following."""
        self._thread.start()

    def stop(self):
        """Stop and wait for the thread (ends a long poll in progress)."""
        self._stop.set()
        self._client.abort()
        if self._thread.is_alive():
            self._thread.join()
        self._client.close()

    def _run(self):
        """Poll, hand the view over, long-poll for the next change, forever."""
        etag = None
        while not self._stop.is_set():
            try:
                etag = self._poll(etag)
                self.reachable = True
            except AppUnreachable as exc:
                if self._stop.is_set():
                    return
                self.reachable = False
                log.info("the app is not answering (%s); trying again", exc)
                etag = None
                self._stop.wait(self.RETRY_S)
            except Exception:  # a bug showing a view must not end following for good
                log.exception("could not hand the device view over; trying again")
                etag = None
                self._stop.wait(self.RETRY_S)

    def _poll(self, etag):
        """One (long) poll of the device view; the etag to wait on next."""
        path = self.path if etag is None else f"{self.path}?wait={quote(etag, safe='')}"
        status, body = self._client.request("GET", path, timeout=self.LONG_POLL_S)
        if status == OK and isinstance(body, dict):
            table = body.get("table")
            self._on_view(table, body if table else None)
            if self._on_check is not None and body.get("check") is not None:
                self._on_check(body["check"])
            return body.get("etag")
        log.warning("%s answered %s: %s", self.path, status, body)
        if status == NOT_FOUND:
            self._on_view(None, None)
        # A busy room (429, 503) says when to come back: honour it rather than hammer.
        self._stop.wait(max(self.IDLE_S, self._client.retry_after or 0))
        return None


class AppWorker:
    """A thread running app calls in order (presses, status), off the serial reader thread."""

    def __init__(self, base_url):
        self.client = AppClient(base_url)
        self._jobs = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="device-app", daemon=True)

    def start(self):
        """Start working."""
        self._thread.start()

    def submit(self, job):
        """Run `job(client)` on the worker thread."""
        self._jobs.put(job)

    def stop(self):
        """Finish the queued jobs' current one and stop."""
        self._jobs.put(None)
        self.client.abort()
        if self._thread.is_alive():
            self._thread.join()
        self.client.close()

    def _run(self):
        """Take jobs until the stop marker; a job's bug is logged, not fatal."""
        while True:
            job = self._jobs.get()
            if job is None:
                return
            try:
                job(self.client)
            except AppUnreachable as exc:
                log.info("the app is not answering: %s", exc)
            except Exception:  # a bug in one job must not stop the presses behind it
                log.exception("device bridge job failed")
