"""The live table: its page, move and undo posts (PRG) and its history."""

from flask import abort, flash, redirect, render_template, request, url_for
from markupsafe import Markup

from companion_app.games import VIEWS, view_for
from companion_app.games.forms import keep_refused, kept_entry, parse_version
from companion_app.i18n import translate_error, translate_refusal
from companion_app.i18n.fields import MOVE_FIELDS
from companion_app.results import links, qr
from companion_app.server import rights
from companion_app.store import StoreError, Table, get_store, seats
from companion_app.web import seats as seat_pages
from companion_app.web import secrecy
from companion_app.web.results import lan_url, public_results_url, public_url
from scoring.errors import RuleError

NOT_FOUND = 404


def _view(table: Table):
    """The view module of the table's game (404 for a game the tablet cannot show)."""
    if table.game not in VIEWS:
        abort(NOT_FOUND)
    return view_for(table.game)


def _names(table: Table) -> list[str]:
    """The players' names in seat order."""
    return [player["name"] for player in table.state["players"]]


def _confirm(template: str, table: Table):
    """A page that asks before a table-wide step (join, abandon): the table and its players."""
    return render_template(template, table=table, names=_names(table), view=_view(table))


def _context(table: Table) -> dict:
    """Everything the table templates read, with the rules' view of what may be done now.

    State, actions, summary and standings come with the players' secrets concealed, unless
    this scorer's device asked to see them (web/secrecy.py); the game's own context reads
    the whole state and gives the templates only what the table may see.
    """
    view, shown = _view(table), secrecy.table_view(table)
    context = {
        "table": table,
        "game": table.game,
        "state": shown["state"],
        "actions": shown["actions"],
        "standings": shown["standings"],
        "summary": shown["summary"],
        "secrets": shown["secrets"],
        "view": view,
        "names": _names(table),
        "areas_shown": view.areas_shown(table.state),
        # the choices phones sealed, once every seat has locked in (the scorer enters the rest)
        "sealed_choices": seats.revealed(table),
        **view.context(table.state),
    }
    if hasattr(view, "log_context"):  # a default read from earlier turns (Adel's locations)
        context.update(view.log_context(table.state, lambda: _moves_in_force(table.id)))
    return context


def _moves_in_force(table_id: str) -> list[dict]:
    """The table's logged moves that are not undone, oldest first."""
    entries = get_store().history(table_id)
    return [entry.move for entry in entries if entry.kind == "move" and not entry.undone]


def table(table_id: str):
    """The table as it lies now, with the current actor's controls for those who may edit."""
    current = get_store().get(table_id)
    context = _context(current)
    context["kept"] = kept_entry(table_id)  # a refused move's entry, shown again once
    if context["summary"]["finished"]:
        # Generated from our own escaped text, so the SVG is trusted markup.
        results_url = public_results_url(table_id)
        context["qr"] = Markup(qr.svg(results_url))
        context["qr_local_only"] = links.is_local_only(results_url)
        context["qr_lan_url"] = lan_url(results_url)
    elif rights.role_for(table_id) == rights.HOST and not current.abandoned:
        context["scorer_url"] = scorer_url(table_id)
        context["scorer_qr"] = Markup(qr.svg(context["scorer_url"]))
        if seat_pages.offers_seats(current):
            context["seat_links"] = seat_pages.seat_links(current)
    return render_template("table.html", **context)


def scorer_url(table_id: str) -> str:
    """The link that lets another device score this table (shown to the host as a QR code)."""
    key = rights.table_key(table_id, rights.SCORER)
    return public_url(url_for("web.join", table_id=table_id, key=key))


def join(table_id: str, key: str):
    """A scorer link: GET asks "score this table?", POST remembers the right in this browser."""
    current = get_store().get(table_id)
    role = rights.role_of_key(table_id, key)
    if role is None:
        raise rights.NotAllowed(rights.BAD_LINK)
    if request.method == "POST":
        rights.grant(table_id, role)
        return redirect(url_for("web.table", table_id=table_id), code=303)
    return _confirm("join.html", current)


def abandon(table_id: str):
    """The host gives up an unfinished table: GET asks to confirm, POST does it."""
    current = get_store().get(table_id)
    if request.method == "POST":
        try:
            get_store().abandon(table_id)
        except (RuleError, StoreError) as refused:
            flash(translate_error(refused), "abandon")
            return redirect(url_for("web.table", table_id=table_id), code=303)
        return redirect(url_for("web.home"), code=303)
    return _confirm("abandon.html", current)


def move(table_id: str):
    """Apply the posted move, or flash the refusal next to its control; then show the table."""
    view = _view(get_store().get(table_id))
    posted = view.parse_move(request.form)
    area = view.area_of(posted)
    try:
        get_store().apply_move(table_id, posted, parse_version(request.form))
    except (RuleError, StoreError) as refused:
        for each in (refused, *getattr(refused, "others", [])):  # every refusal at once
            flash(translate_refusal(each, fields=MOVE_FIELDS), area)
        keep_refused(table_id, area, request.form, refused)
        return redirect(url_for("web.table", table_id=table_id, _anchor=area), code=303)
    return redirect(url_for("web.table", table_id=table_id), code=303)


def undo(table_id: str):
    """Undo the latest active move, or flash why not; then show the history."""
    try:
        get_store().undo(table_id, parse_version(request.form))
    except (RuleError, StoreError) as refused:
        flash(translate_error(refused), "undo")
    return redirect(url_for("web.history", table_id=table_id), code=303)


def history(table_id: str):
    """Every log entry in order; undone moves struck through; Undo for the latest active move.

    While the game runs the fields that would give a secret away read "?" (web/secrecy.py),
    undone moves too: an undo does not show what it took back.
    """
    store = get_store()
    current = store.get(table_id)
    view = _view(current)
    log = secrecy.log_view(current, store.history(table_id))
    entries = log["entries"]
    names = _names(current)
    active = [entry.seq for entry in entries if entry.kind == "move" and not entry.undone]
    lines = [{"entry": entry, "text": view.describe(entry.move, names)} for entry in entries]
    return render_template(
        "history.html",
        table=current,
        lines=lines,
        undoable=active[-1] if active else None,
        secrets=log["secrets"],
    )
