"""Whether a request comes from a device the companion knows (issue 33, item 3).

Past the share of the room kept for unknown devices (room.UNKNOWN_SHARE) only known devices
get in: the box's bridge (its key), the organiser and club tablets, a browser whose signed
session cookie holds a host or scorer role or a seat at any table, and a link whose key checks
out for the table in its URL (a scorer, seat or organiser link being opened). It is asked
only once that share is full, so it costs nothing otherwise. A device that creates a table
becomes its host, so creating tables is bounded per device and for the whole server
(web/home.py, docs/security.md).
"""

from flask import request, session

from companion_app.server import rights
from companion_app.store import seats


def is_known() -> bool:
    """True for a device the companion knows (in a request context; see the module)."""
    if rights.is_box() or rights.is_organiser() or rights.held_tablet() is not None:
        return True
    if _entries(rights.SESSION_KEY, 2, lambda entry: entry[1] in rights.EDIT_ROLES):
        return True
    if _entries(rights.SEAT_SESSION_KEY, 3, lambda entry: True):
        return True
    return _link_key_checks_out()


def _entries(key: str, size: int, wanted) -> bool:
    """True if the session's list under `key` has an entry of `size` items that is `wanted`."""
    stored = session.get(key)
    if not isinstance(stored, list):
        return False
    return any(isinstance(entry, list) and len(entry) == size and wanted(entry) for entry in stored)


def _link_key_checks_out() -> bool:
    """True when the URL is a scorer, seat or organiser link whose key is right."""
    args = request.view_args or {}
    key, table_id = args.get("key"), args.get("table_id")
    if not isinstance(key, str):
        return False
    if request.endpoint == "club.organiser":
        return rights.is_organiser_key(key)
    if request.endpoint == "web.join" and isinstance(table_id, str):
        return rights.role_of_key(table_id, key) is not None
    if request.endpoint == "web.seat_join" and isinstance(table_id, str):
        seat = args.get("seat")
        return type(seat) is int and rights.is_seat_key(
            table_id, seat, seats.generation(table_id, seat), key
        )
    return False
