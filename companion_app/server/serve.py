"""Serving the app with uvicorn, and telling people on the LAN where to point the tablet.

uvicorn (its pure-Python h11 protocol, the standard asyncio loop: the same on Linux, a
Raspberry Pi and Windows) runs the server front of `server/asgi.py`: live streams and device
long polls wait on the event loop, every other request runs Flask in a small thread pool.
docs/live.md says why.
"""

import asyncio
import functools
import io
import os
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

import qrcode
import uvicorn
from flask import Flask

from companion_app.server import workers as worker_processes
from companion_app.server.asgi import Front
from companion_app.server.protocol import IDLE_TIMEOUT_S, RoomProtocol
from companion_app.store.changes import get_feed

LOOPBACK = "127.0.0.1"
LOOPBACK_V6 = "::1"
ALL_INTERFACES = "0.0.0.0"
ALL_INTERFACES_V6 = "::"
#: A private address used only to pick the outgoing interface; UDP connect sends nothing.
ROUTE_PROBE = ("10.255.255.255", 1)
#: Threads running Flask requests. Live streams and held long polls take none, so these
#: only ever serve requests that are being worked on.
DEFAULT_THREADS = 16
#: Pending connections the listening socket queues.
BACKLOG = 2048
#: Seconds the server waits for open requests when stopping before it cuts them.
GRACE_S = 3.0
#: Open files the server asks for (each live page is a socket); the hard limit caps it.
WANTED_OPEN_FILES = 8192
START_TIMEOUT_S = 10.0
POLL_S = 0.01


def lan_address() -> str:
    """This host's address on the local network (loopback when there is none)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(ROUTE_PROBE)
        address = probe.getsockname()[0]
    except OSError:
        address = ""
    finally:
        probe.close()
    if address and address != ALL_INTERFACES:
        return address
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return LOOPBACK


def url_host(address: str) -> str:
    """An address as a URL writes it: an IPv6 literal in brackets."""
    return f"[{address}]" if ":" in address else address


def addresses_for(host: str, lan: bool) -> tuple[str, str]:
    """(the address a person opens, the one this machine's own bridge uses) for `--host`.

    Listening on every interface (`--lan`, `0.0.0.0`, `::`) a person needs the LAN address,
    not `::` (issue 33, item 10: the banner said `http://:::5653/`); the bridge uses
    loopback, `::1` when only an IPv6 socket listens (Windows keeps it IPv6 only).
    """
    if lan or host == ALL_INTERFACES:
        return lan_address(), LOOPBACK
    if host == ALL_INTERFACES_V6:
        return lan_address(), LOOPBACK_V6
    return host, host


def qr_text(data: str) -> str:
    """`data` as a QR code drawn with block characters, light on a dark terminal."""
    code = qrcode.QRCode(border=2)
    code.add_data(data)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def print_banner(url: str, *, with_qr: bool, out: TextIO | None = None) -> None:
    """Say where the companion is served, with a QR code of the URL for the tablet."""
    out = out or sys.stdout
    print(f"Open {url} on the tablet", file=out)
    if with_qr:
        try:
            print(qr_text(url), file=out)
        except UnicodeEncodeError:
            print("(This terminal cannot draw the QR code; type the address instead.)", file=out)
    out.flush()


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on (host, port); OSError if the port is taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # Naming TCP lets asyncio set TCP_NODELAY on every connection; without it, a response
    # written in two parts waited for a delayed ACK (40 ms per keep-alive request).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        if os.name == "nt":  # Windows' SO_REUSEADDR would share a busy port
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
        else:  # restart at once after a stop, despite connections in TIME_WAIT
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if host == ALL_INTERFACES_V6:  # IPv4 too, also where IPv6 only is the default
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


class Server(uvicorn.Server):
    """uvicorn's server, which first ends live streams and long polls when it stops."""

    def __init__(self, front: Front) -> None:
        """A quiet uvicorn (no access log, no banner of its own) for the front, its connections
        run by the room's protocol (deadlines and per-address shares: server/protocol.py)."""
        config = uvicorn.Config(
            front,
            http=functools.partial(RoomProtocol, room=front.room),
            timeout_keep_alive=float(front.app.config.get("ROOM_IDLE_TIMEOUT_S", IDLE_TIMEOUT_S)),
            ws="none",
            lifespan="off",
            loop="asyncio",
            log_config=None,
            access_log=False,
            proxy_headers=False,
            server_header=False,
            timeout_graceful_shutdown=GRACE_S,
        )
        super().__init__(config)
        self.front = front

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Release held polls and end streams, then stop as uvicorn does."""
        get_feed(self.front.app).close()
        self.front.close()
        await super().shutdown(sockets=sockets)


class WorkerServer(Server):
    """A worker's server: no listening socket, it serves what the parent passes it."""

    def __init__(self, front: Front, channel: socket.socket) -> None:
        """A server for `front` fed by `channel` (server/workers.py)."""
        super().__init__(front)
        self.channel = channel

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Start as uvicorn does, with no socket of its own, then adopt passed connections."""
        await super().startup(sockets=[])
        self.front._hub()  # at once: other workers may ask it for renders (live/relay.py)
        worker_processes.adopt_connections(self, self.channel)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Take no more connections, then stop as a single server does."""
        try:
            asyncio.get_running_loop().remove_reader(self.channel.fileno())
        except (ValueError, OSError):
            pass  # the channel is already closed
        await super().shutdown(sockets=sockets)


def _serve_worker(threads: int) -> Callable[[Flask, socket.socket], None]:
    """What each worker process runs: a front and its server, fed by the parent."""

    def serve(app: Flask, channel: socket.socket) -> None:
        front = Front(app, threads)
        try:
            WorkerServer(front, channel).run(sockets=[])
        finally:
            front.close()
            front.stop_threads()

    return serve


def make_server(front: Front) -> Server:
    """The uvicorn server for a front (tests replace this)."""
    return Server(front)


def _raise_open_files_limit() -> None:
    """Ask for WANTED_OPEN_FILES open files where the system counts them (not on Windows)."""
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = WANTED_OPEN_FILES if hard == resource.RLIM_INFINITY else min(WANTED_OPEN_FILES, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def run(
    app: Flask,
    host: str,
    port: int,
    *,
    lan: bool,
    threads: int = DEFAULT_THREADS,
    workers: int = 1,
    shared: worker_processes.Shared | None = None,
    on_bound: Callable[[str], None] | None = None,
) -> None:
    """Serve `app` until interrupted; `lan` listens on every interface.

    The socket is bound before the banner is printed, so a busy port fails before anyone is
    told to open the address (and port 0 shows the port actually chosen). `on_bound` gets the
    app's URL on this machine once it is bound (the in-process device bridge starts there;
    with `workers` > 1, in the parent, after the workers are forked: server/workers.py).
    """
    sock = bind_socket(ALL_INTERFACES if lan else host, port)
    try:
        bound_port = sock.getsockname()[1]
        shown, local = addresses_for(host, lan)
        url = f"http://{url_host(shown)}:{bound_port}/"
        if lan and not app.config.get("BASE_URL"):
            app.config["BASE_URL"] = url  # results QR codes then point where phones can reach
        print_banner(url, with_qr=lan)
        bridge_url = f"http://{url_host(local)}:{bound_port}"
        _raise_open_files_limit()
        if workers > 1:
            _run_workers(
                app,
                sock,
                workers,
                threads,
                lambda: on_bound and on_bound(bridge_url),
                shared,
            )
            return
        if on_bound is not None:
            on_bound(bridge_url)
        front = Front(app, threads)
        try:
            make_server(front).run(sockets=[sock])
        finally:
            front.close()
            front.stop_threads()
    finally:
        sock.close()


def _run_workers(
    app: Flask,
    sock: socket.socket,
    count: int,
    threads: int,
    started: Callable[[], None],
    shared: worker_processes.Shared | None,
) -> None:
    """Fork `count` workers on `sock`, run `started` (the bridge) here, and dispatch until
    interrupted; then stop the workers."""
    pool = worker_processes.Workers(sock, count)
    pool.start(app, _serve_worker(threads), shared)
    if shared is not None:
        pool.share(app, shared)
    watch = worker_processes.DataVersionWatch(app).start()  # the backups hear the workers
    try:
        started()
        pool.dispatch()
    finally:
        get_feed(app).close()
        pool.stop()
        watch.stop()


class Background:
    """The same server in a thread, on loopback unless told (tests, benchmarks):
    `with Background(app)`."""

    def __init__(
        self, app: Flask, port: int = 0, threads: int = DEFAULT_THREADS, host: str = LOOPBACK
    ) -> None:
        """Serve `app` on `host`:`port` (0: any free port) once entered."""
        self.app = app
        self.host = host
        self.port = port
        self.threads = threads
        self.url = ""

    def __enter__(self) -> "Background":
        """Bind, start serving in a thread, and return once the server accepts."""
        self.sock = bind_socket(self.host, self.port)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://{url_host(addresses_for(self.host, lan=False)[1])}:{self.port}"
        self.front = Front(self.app, self.threads)
        self.server = make_server(self.front)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self.server.started and self.thread.is_alive():
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(POLL_S)
        return self

    def __exit__(self, *_exc: object) -> None:
        """Stop serving (streams and polls end first) and wait for the thread."""
        self.server.should_exit = True
        self.thread.join()
        self.front.close()
        self.front.stop_threads()
        self.sock.close()
