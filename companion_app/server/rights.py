"""Who may change a table: its host, the scorers the host let in, this machine, and the box.

docs/security.md is the model. Keys are derived from the instance's secret key with HMAC, so
nothing secret is stored per table and the host can show the scorers' link again at any
time. A browser keeps the tables it may change in its signed session cookie; API clients send
`Authorization: Bearer <key>`. Every write request passes `check_rights` before its view
runs: each write endpoint is declared open, host-only, box-only, ... and any undeclared
write endpoint needs edit rights on the table in its URL (and is refused without one), so a
new endpoint cannot slip in unguarded.
"""

import base64
import hashlib
import hmac
import sqlite3
import time
from datetime import UTC, datetime

from flask import Flask, Response, current_app, g, request, session

from companion_app.server.errors import refuse
from companion_app.server.room import is_loopback, share_of
from companion_app.store import access_keys, counted, db, seats
from companion_app.store.faults import StorageFault
from scoring.errors import N_

HOST, SCORER = "host", "scorer"
#: The club's organiser: renames and merges people, names evenings, defines seasons.
ORGANISER = "organiser"
EDIT_ROLES = frozenset({HOST, SCORER})
#: Write-endpoint policies (declare() them next to the URL rules).
OPEN, EDIT, HOST_ONLY, BOX, BOX_OR_EDIT, IN_VIEW, CLUB, SEAT = (
    "open",
    "edit",
    "host",
    "box",
    "box_or_edit",
    "in_view",
    "club",
    "seat",
)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FORBIDDEN = 403
#: Session entry: [[table id, role], ...], oldest first; forgotten past MAX_REMEMBERED.
SESSION_KEY = "tables"
#: Session entry: true once this browser opened the organiser link and confirmed.
ORGANISER_SESSION_KEY = "organiser"
#: Session entry: [[table id, seat, phone token], ...]: the seats this phone took, oldest first.
SEAT_SESSION_KEY = "seats"
#: Session entry: the id of the club tablet this browser took (its link, store/counted.py).
TABLET_SESSION_KEY = "club_tablet"
MAX_REMEMBERED = 64
#: Key length in bytes before base64 (128 bits: not guessable, short enough for a QR code).
KEY_BYTES = 16
#: A WSGI environ flag for the app's own renders of the view-only page (live updates).
VIEWER_ENVIRON = "companion.viewer"
_POLICIES = "companion_rights_policies"

NEEDS_EDIT = N_(
    "Only the host of this table and the scorers it let in can change it; "
    "ask the host for the scorer link."
)
NEEDS_HOST = N_("Only the host of this table can do that.")
NEEDS_BOX = N_("Only the table box (its bridge) or this computer can do that.")
BAD_LINK = N_("This link does not let anyone score this table; ask the host for a new one.")
NEEDS_ORGANISER = N_(
    "Only the club's organiser can change people, evenings, seasons and which games count; the"
    " organiser link is on the club page of the companion's own computer."
)
BAD_ORGANISER_LINK = N_("This link does not make anyone the organiser; ask for a new one.")
BAD_TABLET_LINK = N_("This link does not let any device in as a club tablet; ask for a new one.")
NEEDS_SEAT = N_(
    "Only the phone that took this seat's link can choose for it; ask the host for the link."
)
BAD_SEAT_LINK = N_(
    "This link does not give anyone a seat at this table; ask the host for a new one."
)
UNDECLARED = N_("This request changes nothing anyone may change from here.")
REVOKED = N_("The club's organiser revoked this key; ask the organiser for a new one.")
#: Seconds between two notes of a key's last use (a bridge polls many times a minute).
SEEN_EVERY_S = 60.0
_SEEN_KEY = "companion_keys_seen"


class NotAllowed(Exception):
    """A write refused for lack of rights; like RuleError it keeps its English template."""

    def __init__(self, template: str) -> None:
        """Keep the English sentence; the page shows it translated."""
        self.template = template
        super().__init__(template)


def _digest(purpose: str) -> str:
    """A URL-safe key for `purpose`, derived from the app's secret key."""
    secret = str(current_app.config["SECRET_KEY"]).encode()
    mac = hmac.new(secret, f"companion-rights:{purpose}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:KEY_BYTES]).decode().rstrip("=")


def table_key(table_id: str, role: str) -> str:
    """The key that gives `role` (host or scorer) on the table."""
    return _digest(f"table:{role}:{table_id}")


def seat_key(table_id: str, seat: int, generation: int) -> str:
    """The key of a seat's link in its current generation (a drop makes a new one)."""
    return _digest(f"table:seat:{table_id}:{seat}:{generation}")


def is_seat_key(table_id: str, seat: int, generation: int, key: str) -> bool:
    """True if `key` is the seat's link key in `generation` (compared in constant time)."""
    return _same(key, seat_key(table_id, seat, generation))


def _taken_seats() -> list[list]:
    """This phone's [table id, seat, token] entries, oldest first (malformed ones dropped)."""
    stored = session.get(SEAT_SESSION_KEY)
    if not isinstance(stored, list):
        return []
    return [
        entry
        for entry in stored
        if isinstance(entry, list)
        and len(entry) == 3
        and isinstance(entry[0], str)
        and type(entry[1]) is int
        and isinstance(entry[2], str)
    ]


def seat_of(table_id: str) -> int | None:
    """The seat this phone holds at the table now (None if none, or if it was dropped)."""
    if request.environ.get(VIEWER_ENVIRON):
        return None
    for table, seat, token in _taken_seats():
        if table == table_id and seats.holds(table_id, seat, token):
            return seat
    return None


def grant_seat(table_id: str, seat: int, token: str) -> None:
    """Remember in this browser that it holds `seat` at the table (one seat per table)."""
    kept = [entry for entry in _taken_seats() if entry[0] != table_id]
    session[SEAT_SESSION_KEY] = [*kept, [table_id, seat, token]][-MAX_REMEMBERED:]
    session.permanent = True


def device_key() -> str:
    """The box's key from before keys had rows (store/access_keys.py: revoked as a group)."""
    return _digest("device")


def organiser_key() -> str:
    """The organiser link's key (shown on the club page of this computer).

    Until the organiser revokes the old keys' group it is also the organiser key from before
    keys had rows; once revoked, the link gets a new key no old copy knows.
    """
    revoked = _record(access_keys.LEGACY_ORGANISER)
    if revoked is None or revoked.revoked_at is None:
        return _digest("organiser")
    return _digest(f"organiser-link:{revoked.revoked_at.isoformat()}")


def issued_key(key_id: int, kind: str) -> str:
    """The key of an issued row: its id, then a MAC of id and kind (one lookup checks it)."""
    return f"{key_id}.{_digest(f'key:{kind}:{key_id}')}"


def issue_key(kind: str, name: object) -> str:
    """Issue a new key of `kind` (device or organiser) to `name`; the key."""
    conn = db.get_db()
    with db.write_transaction(conn):
        key_id = access_keys.issue(conn, kind, name, _now())
    return issued_key(key_id, kind)


def _now() -> str:
    """The current UTC time as sortable ISO text."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _record(key_id: int) -> access_keys.AccessKey | None:
    """A key's row (None if the database has no such row)."""
    return access_keys.find(db.get_db(), key_id)


def key_record(key: str | None) -> access_keys.AccessKey | None:
    """The row of an organiser or device key, revoked or not; None for any other string.

    Looked up once per request (the revocation check, then the rights, ask for one key)."""
    if not key:
        return None
    looked_up = g.setdefault("companion_key_records", {})
    if key not in looked_up:
        looked_up[key] = _key_row(key)
    return looked_up[key]


def _key_row(key: str) -> access_keys.AccessKey | None:
    """`key_record` read from the database: the row whose id and MAC the key carries."""
    number, dot, _mac = key.partition(".")
    if dot:
        if not (number.isascii() and number.isdigit()) or len(number) > 12:
            return None
        found = _record(int(number))
        return found if found and _same(key, issued_key(found.id, found.kind)) else None
    if _same(key, _digest("device")):
        return _record(access_keys.LEGACY_DEVICE)
    if _same(key, _digest("organiser")):
        return _record(access_keys.LEGACY_ORGANISER)
    return None


def _live(key: str | None, kind: str) -> bool:
    """True if `key` is a `kind` key not revoked (its use is noted for the organiser's list)."""
    found = key_record(key)
    if found is None or found.kind != kind or not found.active:
        return False
    _used(found.id)
    return True


def is_live_key(key: str | None) -> bool:
    """True for an organiser or device key not revoked (not a wrong guess)."""
    found = key_record(key)
    return found is not None and found.active


def _used(key_id: int) -> None:
    """Remember that this request used the key (after_request notes it: `note_seen`)."""
    g.setdefault("companion_keys_used", set()).add(key_id)


def session_organiser() -> int | None:
    """The key row this browser is the organiser by (the old link's group for `True`)."""
    held = session.get(ORGANISER_SESSION_KEY)
    if held is True:
        return access_keys.LEGACY_ORGANISER
    return held if type(held) is int else None


def is_organiser() -> bool:
    """True for this computer, an organiser key, or a browser that took the organiser link;
    none of them revoked."""
    if request.environ.get(VIEWER_ENVIRON):
        return False
    if is_local() or _live(_bearer(), access_keys.ORGANISER):
        return True
    held = session_organiser()
    if held is None:
        return False
    found = _record(held)
    if found is None or found.kind != access_keys.ORGANISER or not found.active:
        return False
    _used(found.id)
    return True


def is_organiser_key(key: str) -> bool:
    """True if `key` is the organiser link's key (compared in constant time)."""
    return _same(key, organiser_key())


def grant_organiser(key: str, name: object = "") -> None:
    """Let this browser in as the organiser, if `key` is the organiser link's key (else
    refuse): it gets a key row of its own, named `name`, which the organiser may revoke."""
    if not is_organiser_key(key):
        raise NotAllowed(BAD_ORGANISER_LINK)
    held = _record(session_organiser() or 0)
    if held is not None and held.active and not held.legacy:
        return  # this browser is let in already: one row per browser
    conn = db.get_db()
    with db.write_transaction(conn):
        key_id = access_keys.issue(conn, access_keys.ORGANISER, name, _now())
        access_keys.seen(conn, key_id, _now())
    session[ORGANISER_SESSION_KEY] = key_id
    session.permanent = True


def tablet_key(tablet_id: int) -> str:
    """The key of a club tablet's link (shown to the organiser on the club page)."""
    return _digest(f"club-tablet:{tablet_id}")


def require_tablet_key(tablet_id: int, key: str) -> None:
    """Refuse (NotAllowed) unless `key` is the link key of that club tablet."""
    if not _same(key, tablet_key(tablet_id)):
        raise NotAllowed(BAD_TABLET_LINK)


def grant_tablet(tablet_id: int) -> None:
    """Remember this browser as the club tablet it took (the store checks it is not revoked)."""
    session[TABLET_SESSION_KEY] = tablet_id
    session.permanent = True


def held_tablet() -> int | None:
    """The club tablet this browser took, if any (revoked or not: the store knows)."""
    if request.environ.get(VIEWER_ENVIRON):
        return None
    held = session.get(TABLET_SESSION_KEY)
    return held if type(held) is int else None


def creator_trust(conn) -> tuple[str, int | None] | None:
    """Whether a table this request creates counts for the club: (how, tablet id) or None.

    This computer, the organiser and a club tablet not revoked are trusted; any other device
    may play, but its games count only once the organiser counts them.
    """
    if is_local():
        return counted.HOST, None
    if is_organiser():
        return counted.ORGANISER, None
    tablet = held_tablet()
    if tablet is not None and counted.tablet_active(conn, tablet):
        return counted.TABLET, tablet
    return None


def _same(given: str | None, expected: str) -> bool:
    """Constant-time comparison of a presented key with the expected one."""
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


def role_of_key(table_id: str, key: str | None) -> str | None:
    """The role `key` gives on the table (host or scorer), or None; compared in constant time."""
    return next((role for role in (HOST, SCORER) if _same(key, table_key(table_id, role))), None)


def _bearer() -> str | None:
    """The key in `Authorization: Bearer <key>`, if any."""
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def is_local() -> bool:
    """True for requests from this computer (trusted like the database file it holds)."""
    if request.environ.get(VIEWER_ENVIRON) or not current_app.config.get("LOCAL_IS_HOST", True):
        return False
    return is_loopback(request.remote_addr or "")


def role_for(table_id: str) -> str | None:
    """This request's role on the table: host, scorer or None (a viewer)."""
    if request.environ.get(VIEWER_ENVIRON):
        return None
    if is_local():
        return HOST
    role = role_of_key(table_id, _bearer())
    if role is not None:
        return role
    role = _remembered().get(table_id)
    return role if role in EDIT_ROLES else None


def _remembered() -> dict[str, str]:
    """This browser's roles by table, oldest first (a list in the cookie keeps the order)."""
    stored = session.get(SESSION_KEY)
    if not isinstance(stored, list):
        return {}
    pairs = (pair for pair in stored if isinstance(pair, list) and len(pair) == 2)
    return {str(table): str(role) for table, role in pairs}


def hosted_tables() -> list[str]:
    """The tables this browser hosts (from its session), oldest first."""
    return [table for table, role in _remembered().items() if role == HOST]


def origin() -> str | None:
    """Who starts a table, for the per-device and server-wide limits: None for this computer
    and the organiser (never limited), else the client's address (an IPv6 client by its /64)."""
    return None if is_local() or is_organiser() else share_of(request.remote_addr or "")


def can_edit(table_id: str) -> bool:
    """True if this request may make moves on the table."""
    return role_for(table_id) in EDIT_ROLES


def is_box() -> bool:
    """True for the box's bridge (its key) or this computer."""
    return is_local() or _live(_bearer(), access_keys.DEVICE)


def grant(table_id: str, role: str) -> None:
    """Remember in this browser's session that it holds `role` on the table (host stays host)."""
    remembered = _remembered()
    if remembered.get(table_id) == HOST:
        role = HOST
    remembered.pop(table_id, None)
    remembered[table_id] = role  # re-inserted: the most recent is last
    kept = list(remembered.items())[-MAX_REMEMBERED:]
    session[SESSION_KEY] = [[table, held] for table, held in kept]
    session.permanent = True


def require_edit(table_id: str) -> None:
    """Refuse (NotAllowed) unless this request may change the table."""
    if not can_edit(table_id):
        raise NotAllowed(NEEDS_EDIT)


def declare(app: Flask, endpoint: str, policy: str) -> None:
    """Set the rights a write to `endpoint` needs (undeclared: edit rights on its table)."""
    app.extensions.setdefault(_POLICIES, {})[endpoint] = policy


def policy_of(app: Flask, endpoint: str) -> str:
    """The declared policy of a write endpoint (EDIT unless declared)."""
    return app.extensions.get(_POLICIES, {}).get(endpoint, EDIT)


def check_rights() -> None:
    """Before every write: refuse it unless this request holds the rights its endpoint needs."""
    if request.method in SAFE_METHODS or request.endpoint is None:
        return  # reads are open; no endpoint means a 404/405 answers anyway
    policy = policy_of(current_app, request.endpoint)
    table_id = (request.view_args or {}).get("table_id")
    if policy in (OPEN, IN_VIEW):
        return
    if policy == BOX:
        if not is_box():
            raise NotAllowed(NEEDS_BOX)
        return
    if policy == CLUB:
        if not is_organiser():
            raise NotAllowed(NEEDS_ORGANISER)
        return
    if table_id is None:
        raise NotAllowed(UNDECLARED)
    if policy == BOX_OR_EDIT and is_box():
        return
    if policy == SEAT:
        if seat_of(table_id) is None:
            raise NotAllowed(NEEDS_SEAT)
        return
    if policy == HOST_ONLY:
        if role_for(table_id) != HOST:
            raise NotAllowed(NEEDS_HOST)
        return
    require_edit(table_id)


def refuse_revoked() -> Response | None:
    """Before every request: a revoked organiser or device key gets 403 and a sentence."""
    if request.environ.get(VIEWER_ENVIRON) or is_local():
        return None
    found = key_record((request.view_args or {}).get("key") or _bearer())
    if found is not None and not found.active:
        return refuse(FORBIDDEN, REVOKED)
    return None


def note_seen(response: Response) -> Response:
    """After a request that used a key: note when it was last seen (at most once a minute)."""
    used = g.pop("companion_keys_used", None)
    if not used:
        return response
    noted = current_app.extensions.setdefault(_SEEN_KEY, {})
    now = time.monotonic()
    due = [key_id for key_id in used if now - noted.get(key_id, -SEEN_EVERY_S) >= SEEN_EVERY_S]
    if not due:
        return response
    conn = db.get_db()
    try:
        with db.write_transaction(conn):
            for key_id in due:
                access_keys.seen(conn, key_id, _now())
    except (StorageFault, sqlite3.OperationalError):
        return response  # a busy or failing disk: the next use notes it
    for key_id in due:
        noted[key_id] = now
    return response


def handle_not_allowed(error: NotAllowed) -> Response:
    """403 with the reason, as JSON under /api or a short page."""
    return refuse(FORBIDDEN, error.template)


def page_rights() -> dict:
    """Template names: `table_role` and `can_edit` for the table in the URL (if any)."""
    table_id = (request.view_args or {}).get("table_id") if request else None
    role = role_for(table_id) if isinstance(table_id, str) else None
    return {"table_role": role, "can_edit": role in EDIT_ROLES, "is_organiser": is_organiser}


def init_app(app: Flask) -> None:
    """Check rights before every request; give templates the request's role."""
    app.before_request(refuse_revoked)
    app.before_request(check_rights)
    app.after_request(note_seen)
    app.register_error_handler(NotAllowed, handle_not_allowed)
    app.extensions[counted.CREATOR_HOOK] = creator_trust  # the store asks at table creation
    app.context_processor(page_rights)
