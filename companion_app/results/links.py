"""Which addresses a phone at the table can open: loopback ones only work on this computer."""

import ipaddress
from urllib.parse import urlsplit

#: Host names that always mean "this computer".
LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost")


def is_local_only(url: str) -> bool:
    """True when `url` points at this computer only (127.0.0.1, ::1, localhost)."""
    host = (urlsplit(url).hostname or "").lower()
    if host in LOCAL_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def with_host(url: str, host: str) -> str:
    """`url` with its host replaced by `host`, keeping scheme, port and path."""
    parts = urlsplit(url)
    port = f":{parts.port}" if parts.port else ""
    return parts._replace(netloc=f"{host}{port}").geturl()
