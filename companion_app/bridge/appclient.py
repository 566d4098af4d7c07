"""JSON over HTTP to the companion app (docs/device-api.md): one keep-alive connection per user."""

import http.client
import json
import os
import socket
import threading
from urllib.parse import urlsplit

#: The device key (`companion device key`) a bridge on another computer sends to the app.
DEVICE_KEY_ENV = "COMPANION_DEVICE_KEY"


#: The longest `Retry-After` taken at its word (a wrong header must not park the bridge).
MAX_RETRY_AFTER_S = 60


def retry_seconds(value):
    """A `Retry-After` of whole seconds, capped at MAX_RETRY_AFTER_S; None if absent or a date."""
    try:
        seconds = int((value or "").strip())
    except ValueError:
        return None
    return min(max(seconds, 0), MAX_RETRY_AFTER_S)


class AppUnreachable(OSError):
    """The app did not answer (connection refused, reset, timed out, or not JSON)."""


class AppClient:
    """A small JSON client; `abort()` from another thread ends a request that is waiting."""

    TIMEOUT_S = 10.0

    def __init__(self, base_url, timeout=TIMEOUT_S, key=None):
        """A client of the app at `base_url`; `key` (default: $COMPANION_DEVICE_KEY) is sent."""
        parts = urlsplit(base_url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"the app's address must look like http://host:port, not {base_url!r}")
        self.host = parts.hostname
        self.port = parts.port or 80
        self.prefix = parts.path.rstrip("/")
        self.timeout = timeout
        self.key = os.environ.get(DEVICE_KEY_ENV, "") if key is None else key
        self._conn = None
        self._lock = threading.Lock()
        self._aborted = False
        #: Seconds the last answer's `Retry-After` asked for (None: it asked for nothing).
        self.retry_after = None

    def request(self, method, path, body=None, timeout=None):
        """(status, JSON body or None); AppUnreachable when there is no usable answer."""
        try:
            return self._once(method, path, body, timeout)
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            if self._aborted:
                raise AppUnreachable("aborted") from None
            self.close()  # a keep-alive connection the server had closed: one fresh try
        try:
            return self._once(method, path, body, timeout)
        except (OSError, http.client.HTTPException, ValueError) as exc:
            self.close()
            raise AppUnreachable(f"{method} {path}: {exc}") from exc

    def _once(self, method, path, body, timeout):
        """One request on the current (or a new) connection."""
        conn = self._connection(timeout)
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        try:
            conn.request(method, self.prefix + path, body=data, headers=headers)
            if self._aborted:  # abort() came before the socket existed: do not wait
                raise AppUnreachable("aborted")
            response = conn.getresponse()
            raw = response.read()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            raise
        except (OSError, http.client.HTTPException) as exc:
            self.close()
            raise AppUnreachable(f"{method} {path}: {exc}") from exc
        self.retry_after = retry_seconds(response.getheader("Retry-After"))
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        try:
            return response.status, json.loads(raw) if raw else None
        except ValueError as exc:
            raise AppUnreachable(f"{method} {path}: the answer is not JSON") from exc

    def _connection(self, timeout):
        """The open connection with this request's timeout, or a new one."""
        with self._lock:
            if self._aborted:
                raise AppUnreachable("aborted")
            if self._conn is None:
                self._conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            conn = self._conn
        conn.timeout = self.timeout if timeout is None else timeout
        if conn.sock is not None:
            conn.sock.settimeout(conn.timeout)
        return conn

    def close(self):
        """Drop the connection (the next request opens a new one)."""
        with self._lock:
            conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    def abort(self):
        """End a request in progress (a long poll) from another thread; no more requests."""
        with self._lock:
            self._aborted = True
            conn = self._conn
        sock = conn.sock if conn is not None else None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # already closed
