"""The organiser runs the roster: add, remove, hide and show people, merge (confirmed) and undo.

Also what a typed seat name is to the roster (`/people/match`, the seat hints of the new-table
form): known, only a near spelling of someone (accents), or a new person (scoring/league/roster).
"""

from datetime import UTC, datetime
from functools import partial

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext

from companion_app.i18n import translate_error
from companion_app.store import db, roster, roster_admin
from companion_app.web.refusals import FORM_REFUSALS
from scoring.league.roster import KNOWN, NEAR, NEW

#: The people page's flash categories: the add form's refusal, and what was just done.
ADD_AREA, DONE = "add-person", "roster-done"
#: What a change of the roster did, for the sentence saying so.
REMOVED, HIDDEN, SHOWN = "removed", "hidden", "shown"


def _now() -> str:
    """Now, as the store writes times."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _person_arg(field: str) -> int | None:
    """A person id sent in the form's `field`, or None."""
    text = request.form.get(field, "")
    return int(text) if text.isdecimal() and len(text) < 12 else None


def add_person():
    """The organiser adds a person before the evening (a near spelling needs the tick)."""
    conn = db.get_db()
    name = request.form.get("name", "")
    ticked = bool(request.form.get("new_person"))
    try:
        with db.write_transaction(conn):
            person, shown_again = roster_admin.add(conn, name, _now(), new_person=ticked)
            found = roster.get(conn, person)[0].name
    except FORM_REFUSALS as refused:
        flash(translate_error(refused), ADD_AREA)
        return redirect(url_for("club.people", add=name), code=303)
    if shown_again:  # the name of a hidden person: their chip is back
        flash(gettext("%(name)s shows on the seating chips again.", name=found), DONE)
    else:
        flash(gettext("%(name)s joined the roster.", name=found), DONE)
    return redirect(url_for("club.people"), code=303)


def remove_person(person_id: int):
    """The organiser removes a person who never played."""
    return _roster_change(partial(roster_admin.remove, person_id=person_id), REMOVED)


def hide_person(person_id: int):
    """The organiser hides a person from the seating chips (their history stays)."""
    return _roster_change(
        partial(roster_admin.set_hidden, person_id=person_id, hidden=True), HIDDEN
    )


def show_person(person_id: int):
    """The organiser shows a hidden person on the seating chips again."""
    return _roster_change(
        partial(roster_admin.set_hidden, person_id=person_id, hidden=False), SHOWN
    )


def _roster_change(change, done: str):
    """Run one change of the roster and go back to the people page, saying what happened."""
    conn = db.get_db()
    try:
        with db.write_transaction(conn):
            name = change(conn)
    except FORM_REFUSALS as refused:
        flash(translate_error(refused), ADD_AREA)
        return redirect(url_for("club.people"), code=303)
    said = {
        REMOVED: gettext("%(name)s was removed from the roster.", name=name),
        HIDDEN: gettext("%(name)s is hidden from the seating chips.", name=name),
        SHOWN: gettext("%(name)s shows on the seating chips again.", name=name),
    }
    flash(said[done], DONE)
    return redirect(url_for("club.people"), code=303)


def merge(person_id: int):
    """Merging another entry into this person: a page saying what moves, then the merge."""
    conn = db.get_db()
    other = _person_arg("other")
    try:
        keep, gone, seats, spellings = roster_admin.preview(conn, person_id, other)
        if request.form.get("confirm") != "yes":
            return render_template(
                "club/merge_confirm.html", keep=keep, gone=gone, seats=seats, spellings=spellings
            )
        with db.write_transaction(conn):
            roster.merge(conn, person_id, other, _now())
    except FORM_REFUSALS as refused:
        flash(translate_error(refused), "merge")
        return redirect(url_for("club.person", person_id=person_id), code=303)
    flash(gettext("%(gone)s was merged into %(keep)s.", gone=gone.name, keep=keep.name), "merged")
    return redirect(url_for("club.person", person_id=person_id), code=303)


def undo_merge(merge_id: int):
    """The organiser undoes a merge: both people again, each with their seats."""
    conn = db.get_db()
    try:
        with db.write_transaction(conn):
            keep_id, gone_id = roster_admin.undo_merge(conn, merge_id, _now())
            gone = roster.get(conn, gone_id)[0].name
    except FORM_REFUSALS as refused:
        flash(translate_error(refused), "merge")
        back = _person_arg("person")
        if back is None:
            return redirect(url_for("club.people"), code=303)
        return redirect(url_for("club.person", person_id=back), code=303)
    said = gettext("The merge was undone: %(name)s is a person of their own again.", name=gone)
    flash(said, "merged")
    return redirect(url_for("club.person", person_id=keep_id), code=303)


def hint(name: str, matcher, names: dict) -> dict:
    """What a typed seat name is to the roster: {"kind", "person", "name"} (person's name)."""
    if not name.strip():
        return {"kind": "", "person": None, "name": ""}
    met = matcher.match(name.strip())
    person = met.person if met.kind in (KNOWN, NEAR) else None
    return {"kind": met.kind, "person": person, "name": names.get(person, "")}


def seat_hints(typed: list[str]) -> list[dict]:
    """The hint of each seat's name, for the new-table form."""
    conn = db.get_db()
    matcher, names = roster.matcher(conn), roster.names(conn)
    return [hint(name, matcher, names) for name in typed]


def match():
    """What a typed name is to the roster, as JSON: {"kind": known/near/new, "name": ...}."""
    name = request.args.get("name", "")[:80]
    conn = db.get_db()
    found = hint(name, roster.matcher(conn), roster.names(conn))
    return {"kind": found["kind"] or NEW, "name": found["name"]}
