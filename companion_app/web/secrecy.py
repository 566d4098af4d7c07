"""Secrets on the table page: hidden by default, shown to one scorer's device on a tap.

What players keep hidden at the physical table (`scoring.secrecy`) stays off the table page
and its live viewers while the game runs. A scorer (edit rights) may tap "Show" to see it:
this browser's session remembers the table's version, and this device's pages show it all
until the table moves on (the next move or undo, by anyone) or the scorer taps "Hide".
Nobody else sees it: the live pages every phone follows are rendered once per group as a
plain viewer, without this session (docs/live.md), and a viewer cannot post the tap (403).

The move log follows the same rule (`scoring.secrecy.log_view`): its page, its live pushes and
the export conceal the fields that would let anyone work a secret out, for viewers and on the
scorer's shared screen alike; the scorer's same tap shows it all on that device.
"""

from dataclasses import replace

from flask import redirect, request, session, url_for

from companion_app.server import rights
from companion_app.store import LogEntry, Table, get_store
from scoring import secrecy

#: Session entry: {table id: the table version the secrets were shown at}.
SESSION_KEY = "shown"
#: Tables remembered at most (the newest kept): a reveal lasts one version anyway.
MAX_REMEMBERED = 8
#: The anchor of the reveal control on the table page.
AREA = "secrets"
#: The pages a reveal may return to (form field `back`): the table page unless it names another.
BACK_TO = {"history": "web.history"}


def _shown() -> dict[str, int]:
    """This browser's reveals by table (a tampered entry counts as none)."""
    stored = session.get(SESSION_KEY)
    if not isinstance(stored, dict):
        return {}
    return {str(table): version for table, version in stored.items() if type(version) is int}


def is_revealed(table: Table) -> bool:
    """True when this device, which may edit the table, asked to see it all at this version."""
    return rights.can_edit(table.id) and _shown().get(table.id) == table.version


def table_view(table: Table) -> dict:
    """The table's view for this request, and `secrets`: what it holds back or shows on request."""
    revealed = is_revealed(table)
    view = secrecy.table_view(table.state, reveal=revealed)
    held = secrecy.in_force(table.state, view["summary"]) if revealed else view["hidden"]
    view["secrets"] = {"hidden": view["hidden"], "revealed": revealed and bool(held)}
    return view


def log_view(table: Table, entries: list[LogEntry]) -> dict:
    """The log as this request may see it: `entries` with their secret fields concealed,
    `setup` likewise, and `secrets` ({"hidden", "revealed"}) as `table_view` gives it."""
    revealed = is_revealed(table)
    moves = [entry.move for entry in entries]
    view = secrecy.log_view(table.state, moves, setup=table.setup, reveal=revealed)
    held = secrecy.log_view(table.state, moves)["hidden"] if revealed else view["hidden"]
    shown = [replace(entry, move=move) for entry, move in zip(entries, view["moves"], strict=True)]
    return {
        "entries": shown,
        "setup": view["setup"],
        "secrets": {"hidden": view["hidden"], "revealed": revealed and bool(held)},
    }


def reveal(table_id: str):
    """POST `show=1`: show this device the table's secrets until it moves on; else hide them."""
    table = get_store().get(table_id)
    rights.require_edit(table_id)  # the gate refused viewers already; a reveal never leaks
    shown = _shown()
    shown.pop(table_id, None)
    if request.form.get("show") == "1":
        shown[table_id] = table.version
    session[SESSION_KEY] = dict(list(shown.items())[-MAX_REMEMBERED:])
    back = BACK_TO.get(request.form.get("back", ""), "web.table")
    return redirect(url_for(back, table_id=table_id, _anchor=AREA), code=303)
