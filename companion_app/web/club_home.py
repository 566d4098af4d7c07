"""The club page: evenings, seasons, the organiser link and the club tablets (docs/club.md).

A club tablet is a device the organiser lets in: the games it starts count for the club's
ratings and standings at once. The organiser makes a tablet's link on this page, the device
opens it and confirms (the GET only asks, the POST takes it, once), and the organiser may
revoke it here: its new games then count only when the organiser counts them.
"""

from datetime import UTC, datetime

from flask import redirect, render_template, request, url_for
from flask_babel import gettext
from markupsafe import Markup

from companion_app.i18n import formats, translate_error
from companion_app.results import qr
from companion_app.server import rights
from companion_app.store import counted, db
from companion_app.store import league as stored
from companion_app.store.faults import StorageFault
from companion_app.web import backups, club_keys
from companion_app.web.league import evening_label
from companion_app.web.refusals import refusal_status
from companion_app.web.results import public_url

BAD_REQUEST = 400


def _now() -> str:
    """The current UTC time as sortable ISO text."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _day(moment: datetime | None) -> str:
    """A moment's date in the page's language ('' for none)."""
    return formats.date(moment)


def _qr(link: str, label: str) -> Markup:
    """A link's QR code, inline SVG."""
    return Markup(qr.svg(link, label=label))


def _tablet_rows(conn) -> list[dict]:
    """The club tablets as the organiser's list shows them; a waiting one with its link."""
    rows = []
    for tablet in counted.tablets(conn):
        row = {"tablet": tablet, "made": _day(tablet.created_at), "taken": _day(tablet.taken_at)}
        row["revoked"] = _day(tablet.revoked_at)
        if tablet.taken_at is None and tablet.revoked_at is None:
            path = url_for("club.tablet", tablet_id=tablet.id, key=rights.tablet_key(tablet.id))
            row["link"] = public_url(path)
            row["qr"] = _qr(row["link"], gettext("Let this device in as a club tablet"))
        rows.append(row)
    return rows


def club(tablet_error: str | None = None, status: int = BAD_REQUEST):
    """Evenings and seasons; the club tablets for the organiser; on this computer, the
    organiser link for another device."""
    conn = db.get_db()
    held = rights.held_tablet()
    context = {
        "evenings": stored.evenings(conn),
        "seasons": stored.seasons(conn),
        "evening_label": evening_label,
        "this_tablet": held is not None and counted.tablet_active(conn, held),
        "tablet_error": tablet_error,
        "tablet_name": request.form.get("name", "") if tablet_error else "",
        "backups": backups.rows(),
    }
    if rights.is_organiser():
        context["tablets"] = _tablet_rows(conn)
        context["keys"] = club_keys.key_rows()
    if rights.is_local():
        link = public_url(url_for("club.organiser", key=rights.organiser_key()))
        context["organiser_link"] = link
        context["organiser_qr"] = _qr(link, gettext("Organise the club"))
    return render_template("club/club.html", **context), (status if tablet_error else 200)


def organiser(key: str):
    """The organiser link: GET asks, POST makes this browser the organiser."""
    if request.method == "POST":
        rights.grant_organiser(key, request.form.get("name", ""))
        return redirect(url_for("club.club"), code=303)
    if not rights.is_organiser_key(key):
        raise rights.NotAllowed(rights.BAD_ORGANISER_LINK)
    return render_template("club/organiser.html")


def new_tablet():
    """The organiser makes a club tablet's link (optionally named); the club page shows it."""
    conn = db.get_db()
    try:
        with db.write_transaction(conn):
            counted.new_tablet(conn, request.form.get("name", ""), _now())
    except (counted.CountError, StorageFault) as refused:
        return club(translate_error(refused), refusal_status(refused))
    return redirect(url_for("club.club") + "#tablets", code=303)


def revoke_tablet(tablet_id: int):
    """The organiser revokes a club tablet: its new games no longer count by themselves."""
    conn = db.get_db()
    with db.write_transaction(conn):
        counted.revoke_tablet(conn, tablet_id, _now())  # an unknown one: 400 with its sentence
    return redirect(url_for("club.club") + "#tablets", code=303)


def tablet(tablet_id: int, key: str):
    """A club tablet's link: GET asks, POST lets this device in (once per link)."""
    rights.require_tablet_key(tablet_id, key)
    conn = db.get_db()
    found = counted.tablet(conn, tablet_id)
    if request.method == "POST":
        if rights.held_tablet() != tablet_id or not found.active:
            with db.write_transaction(conn):
                counted.take_tablet(conn, tablet_id, _now())
            rights.grant_tablet(tablet_id)
        return redirect(url_for("club.club"), code=303)
    if rights.held_tablet() == tablet_id and found.active:
        return redirect(url_for("club.club"), code=303)
    if found.revoked_at is not None:
        raise counted.CountError(counted.TABLET_REVOKED)
    if found.taken_at is not None:
        raise counted.CountError(counted.TABLET_TAKEN)
    return render_template("club/tablet.html", tablet=found)
