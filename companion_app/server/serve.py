"""Serving the app with waitress, and telling people on the LAN where to point the tablet."""

import io
import socket
import sys
from collections.abc import Callable
from typing import TextIO

import qrcode
import waitress
from flask import Flask

LOOPBACK = "127.0.0.1"
ALL_INTERFACES = "0.0.0.0"
#: A private address used only to pick the outgoing interface; UDP connect sends nothing.
ROUTE_PROBE = ("10.255.255.255", 1)
#: Waitress worker threads. Every open table page holds one in the box panel's long poll
#: (up to 20 s), and so does a bridge, so leave plenty for the moves themselves.
DEFAULT_THREADS = 32


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


def run(
    app: Flask,
    host: str,
    port: int,
    *,
    lan: bool,
    threads: int = DEFAULT_THREADS,
    on_bound: Callable[[str], None] | None = None,
) -> None:
    """Serve `app` with waitress until interrupted; `lan` listens on every interface.

    The socket is bound before the banner is printed, so a busy port fails before anyone is
    told to open the address (and port 0 shows the port actually chosen). `on_bound` gets the
    app's URL on this machine once it is bound (the in-process device bridge starts there).
    """
    server = waitress.create_server(
        app, host=ALL_INTERFACES if lan else host, port=port, threads=threads
    )
    shown = lan_address() if lan else host
    url = f"http://{shown}:{server.effective_port}/"
    if lan and not app.config.get("BASE_URL"):
        app.config["BASE_URL"] = url  # results QR codes then point where phones can reach
    print_banner(url, with_qr=lan)
    if on_bound is not None:
        local = LOOPBACK if lan or host == ALL_INTERFACES else host
        on_bound(f"http://{local}:{server.effective_port}")
    server.run()
