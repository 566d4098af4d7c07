"""What every request passes before any view runs, and the headers every answer carries.

- **Host** (DNS rebinding): the name a request was sent to must be this machine's:
  loopback, the host of COMPANION_BASE_URL, the machine's name and its `.local` form, an IP
  address of this machine, or a name in COMPANION_ALLOWED_HOSTS; anything else is a 400.
- **Cross-origin writes** (CSRF), the algorithm of Go 1.25's net/http CrossOriginProtection:
  GET, HEAD and OPTIONS pass; any other method passes when `Sec-Fetch-Site` says
  `same-origin` or `none`, or, when a browser sends no `Sec-Fetch-Site`, when `Origin` is
  the request's own origin; a request with neither header is not from a browser (curl, the
  box bridge) and passes. Anything else is a 403.
- **JSON writes**: POST, PUT and PATCH under /api must say Content-Type: application/json
  (415 otherwise), body or not: the content types a page on another site may post
  without asking first (text/plain, forms) never reach the API.
- **Headers**: a Content-Security-Policy without inline script, no framing, nosniff, no
  referrer to other sites (SECURITY_HEADERS).
- `local_target(path)`: a redirect target only when it is one of the app's own pages.

Why and what is left to the rights model: docs/security.md.
"""

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException
from werkzeug.urls import iri_to_uri

from companion_app.server.errors import API_PREFIX, refuse
from companion_app.server.room import is_loopback
from scoring.errors import N_

BAD_REQUEST, FORBIDDEN, UNSUPPORTED_MEDIA_TYPE = 400, 403, 415
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: API methods that must declare a JSON body (DELETE carries none and is never "simple").
JSON_WRITES = frozenset({"POST", "PUT", "PATCH"})
#: Sec-Fetch-Site values of a request made by our own page, or typed by the user.
TRUSTED_FETCH_SITES = frozenset({"same-origin", "none"})
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
#: How a machine's name is announced on the LAN by mDNS (Bonjour, Avahi).
MDNS_SUFFIX = ".local"
#: COMPANION_ALLOWED_HOSTS entry that turns the host check off (behind a proxy that checks).
ANY_HOST = "*"
#: The port a URL leaves out.
DEFAULT_HTTP_PORT = 80
#: Longest host name quoted back in a refusal.
SHOWN_HOST = 80
#: Only the app's own pages are redirect targets, never its static files.
STATIC_ENDPOINT = "static"

CROSS_ORIGIN = N_(
    "This change came from another web site and was refused; nothing was changed. "
    "Make it on the companion's own page."
)
NOT_JSON = "Send the body as JSON with the header Content-Type: application/json."
FOREIGN_HOST = N_(
    "This companion does not answer to the name {host}. Open it at the address that "
    "`companion serve` prints, or add the name to COMPANION_ALLOWED_HOSTS."
)
NO_HOST = N_(
    "This request names no host (its Host header is missing or empty). Open the companion at"
    " the address that `companion serve` prints."
)

#: Inline scripts are refused; style attributes are allowed because the box panel paints its
#: LEDs with `style="--led: rgb(...)"` (docs/security.md); <style> elements are refused.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "style-src-attr 'unsafe-inline'",
        "img-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "object-src 'none'",
    )
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def hostname_of(host: str) -> str:
    """The name or address in a Host value: port dropped, brackets off, lower case."""
    if host.startswith("["):
        name = host[1:].partition("]")[0]
    elif host.count(":") == 1:
        name = host.partition(":")[0]
    else:
        name = host  # a name without a port, or a bare IPv6 address
    return name.lower().removesuffix(".")


def configured_hosts(value: str | Iterable[str]) -> set[str]:
    """COMPANION_ALLOWED_HOSTS ("a, b.lan") or a list of names, as lower-case names."""
    names = value.split(",") if isinstance(value, str) else value
    return {name.strip().lower().removesuffix(".") for name in names if name.strip()}


def machine_names() -> set[str]:
    """This machine's name, its first label and the `.local` name mDNS announces."""
    machine = socket.gethostname().lower().removesuffix(".")
    if not machine:
        return set()
    short = machine.partition(".")[0]
    return {machine, short, short + MDNS_SUFFIX}


def allowed_names(app: Flask) -> set[str]:
    """Names always accepted: loopback, COMPANION_BASE_URL's host, this machine, the config."""
    names = set(LOOPBACK_NAMES) | machine_names()
    base = urlsplit(app.config.get("BASE_URL") or "").hostname
    if base:
        names.add(base.removesuffix("."))
    return names | configured_hosts(app.config.get("ALLOWED_HOSTS") or ())


def own_address(name: str) -> bool:
    """True if `name` is an IP address of this machine (a socket can be bound to it)."""
    try:
        address = ipaddress.ip_address(name.partition("%")[0])
    except ValueError:
        return False
    if address.is_loopback or is_loopback(name):
        return True
    if address.is_unspecified or address.is_multicast:
        return False
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((str(address), 0))
    except OSError:  # EADDRNOTAVAIL: another machine's address
        return False
    return True


def host_allowed(app: Flask, name: str) -> bool:
    """True if a request sent to `name` (from hostname_of) is meant for this companion."""
    names = allowed_names(app)
    if ANY_HOST in names or name in names or own_address(name):
        return True
    return any(allowed.startswith(".") and name.endswith(allowed) for allowed in names)


def named_hosts(app: Flask) -> set[str]:
    """The finite set of names a page may link to as they are (no IP literals, no wildcards)."""
    names = {name for name in allowed_names(app) if name != ANY_HOST and not name.startswith(".")}
    return {name for name in names if not _is_ip(name)}


def _is_ip(name: str) -> bool:
    """True for an IP address literal."""
    try:
        ipaddress.ip_address(name.partition("%")[0])
    except ValueError:
        return False
    return True


def canonical_root(app: Flask, host: str, server: tuple[str, int | None] | None) -> str:
    """The address a page links to (`http://name:port/`), whatever variant of it was asked.

    COMPANION_BASE_URL when it is set. Otherwise the Host header's name when it is one of the
    companion's own names (named_hosts), else the address the connection actually reached
    (an IP literal in any spelling, a name allowed by a wildcard); the port is always the
    one the server listens on, never the Host header's. So a port or spelling variant of
    Host can never make a new address: the live hub groups pages by this (docs/live.md).
    """
    base = app.config.get("BASE_URL") or ""
    if base:
        return base.rstrip("/") + "/"
    local, port = server or ("localhost", None)
    name = hostname_of(host or "")
    if name not in named_hosts(app):
        name = local.lower()
    if ":" in name:
        name = f"[{name}]"
    shown_port = "" if port in (None, 0, DEFAULT_HTTP_PORT) else f":{port}"
    return f"http://{name}{shown_port}/"


def refused_host(app: Flask, host: str) -> str | None:
    """Why a request with this Host header is refused (English), or None if it is ours.

    Also used by the server front (server/asgi.py) for what it answers without Flask; an
    empty or missing Host names nothing of ours.
    """
    if not host.strip():
        return NO_HOST
    name = hostname_of(host)
    if name and host_allowed(app, name):
        return None
    return FOREIGN_HOST.format(host=host[:SHOWN_HOST])


def cross_origin() -> bool:
    """True for a write a browser sent from another origin (Go's CrossOriginProtection)."""
    if request.method in SAFE_METHODS:
        return False
    site = request.headers.get("Sec-Fetch-Site", "")
    if site:
        return site not in TRUSTED_FETCH_SITES
    origin = request.headers.get("Origin", "")
    if not origin:
        return False  # neither header: not a browser, or a same-origin request of an old one
    own = f"{request.scheme}://{request.host}"
    return origin.lower() != own.lower()


def not_json_write() -> bool:
    """True for a write to an existing API route whose body is not declared as JSON."""
    under_api = request.path.startswith(API_PREFIX + "/")
    routed = request.url_rule is not None  # unknown paths and methods keep their 404 / 405
    return under_api and routed and request.method in JSON_WRITES and not request.is_json


def check_request() -> Response | None:
    """Before-request hook: a foreign Host (400), a cross-origin write (403), non-JSON (415)."""
    if not request.headers.get("Host", "").strip():  # issue 33, item 10: on every route
        return refuse(BAD_REQUEST, NO_HOST)
    # request.host is "" when the header has characters no host name has
    if not request.host or refused_host(current_app, request.host):
        return refuse(BAD_REQUEST, FOREIGN_HOST, host=request.headers["Host"][:SHOWN_HOST])
    if cross_origin():
        return refuse(FORBIDDEN, CROSS_ORIGIN)
    if not_json_write():
        return refuse(UNSUPPORTED_MEDIA_TYPE, NOT_JSON)
    return None


def add_security_headers(response: Response) -> Response:
    """After-request hook: the headers of SECURITY_HEADERS on every answer."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def local_target(target: str) -> str | None:
    """`target` if it is a path to one of the app's own GET pages, else None (never off-site).

    Browsers drop tabs and newlines from URLs and read a backslash as a slash, so
    `/<TAB>/evil.example` and `/\\evil.example` would leave the site: anything with
    whitespace, control characters or backslashes is refused, as are `//host` and `.` or
    `..` segments; what is left must match a page route of the app's URL map.
    """
    if not target.startswith("/") or target.startswith("//"):
        return None
    if any(char == "\\" or char.isspace() or not char.isprintable() for char in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or {".", ".."} & set(parts.path.split("/")):
        return None
    try:
        endpoint, _ = current_app.url_map.bind("localhost").match(parts.path, method="GET")
    except HTTPException:  # no such page, not a GET page, or a redirect (trailing slash)
        return None
    return None if endpoint == STATIC_ENDPOINT else iri_to_uri(target)


def init_app(app: Flask) -> None:
    """Register the request checks and the response headers."""
    app.before_request(check_request)
    app.after_request(add_security_headers)
