"""The keys the organiser let in, on the club page: each revocable on its own (issue 33 item 10).

Every organiser browser and box bridge key has a row (store/access_keys.py); the organiser's
club page lists them with a Revoke button each. Revoking the key this very browser uses asks
first (a page, no script): it ends this browser's organiser rights.
"""

from datetime import UTC, datetime

from flask import redirect, render_template, request, url_for

from companion_app.i18n import formats
from companion_app.server import rights
from companion_app.store import access_keys, db


def _now() -> str:
    """The current UTC time as sortable ISO text."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def key_rows() -> list[dict]:
    """The issued keys as the organiser's list shows them (this browser's marked)."""
    mine = rights.session_organiser()
    return [
        {
            "key": found,
            "issued": formats.date_time(found.issued_at),
            "seen": formats.date_time(found.seen_at),
            "revoked": formats.date(found.revoked_at),
            "mine": found.id == mine,
        }
        for found in access_keys.listed(db.get_db())
    ]


def revoke_key(key_id: int):
    """The organiser revokes one key (this browser's own only once confirmed)."""
    conn = db.get_db()
    found = access_keys.get(conn, key_id)  # an unknown one: 400 with its sentence
    if found.id == rights.session_organiser() and request.form.get("confirm") != "yes":
        return render_template("club/revoke_key.html", key=found)
    with db.write_transaction(conn):
        access_keys.revoke(conn, key_id, _now())
    return redirect(url_for("club.club") + "#keys", code=303)
