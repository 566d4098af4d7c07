"""Seats on the players' phones: the seat links the host shows, joining, the seat page, sealing.

A phone that took a seat's link holds that seat alone (`server/rights.seat_of`): it sees its
own secrets and seals its part of a simultaneous choice (`store/seats`), and nothing else.
The seat page follows its table's stream like an editor: on every change it fetches itself
with its own cookie, so the push (rendered for viewers) never carries a seat's secrets.
"""

import json

from flask import flash, redirect, render_template, request, url_for
from markupsafe import Markup

from companion_app.games import view_for
from companion_app.i18n import get_locale, translate_error
from companion_app.results import qr
from companion_app.server import rights
from companion_app.server.live.pages import live_version, stream_url
from companion_app.store import StoreError, Table, get_store, seats
from companion_app.store.reveals import current
from companion_app.web.results import public_url
from scoring import sealed
from scoring.errors import RuleError
from scoring.games import get_game

#: The seat page's flash area (its refusals show next to the choices).
SEAL_AREA = "seal"
#: Longest `choice` field read (a choice is a small JSON value: a house, an action card, the
#: cards of an exhibition).
MAX_CHOICE = 1000


def offers_seats(table: Table) -> bool:
    """True if this table's players may take their seats on their phones now."""
    rules = get_game(table.game)
    return (
        sealed.supports(rules)
        and not table.abandoned
        and not rules.summary(table.state)["finished"]
    )


def seat_links(table: Table) -> list[dict]:
    """For the host: each seat's name, link, QR code and whether a phone holds it."""
    held = seats.phones(table.id)
    links = []
    for seat, player in enumerate(table.state["players"]):
        key = rights.seat_key(table.id, seat, seats.generation(table.id, seat))
        url = public_url(url_for("web.seat_join", table_id=table.id, seat=seat, key=key))
        links.append(
            {
                "seat": seat,
                "name": player["name"],
                "url": url,
                "qr": Markup(qr.svg(url)),  # our own escaped text: trusted SVG
                "phone": held.get(seat),
            }
        )
    return links


def seat_join(table_id: str, seat: int, key: str):
    """A seat link: GET asks "take this seat?", POST gives the seat to this phone."""
    table = get_store().get(table_id)
    # One generation for the key and the join: a drop in between makes the join refuse.
    generation = seats.generation(table_id, seat)
    if seat >= len(table.state["players"]) or not rights.is_seat_key(
        table_id, seat, generation, key
    ):
        raise rights.NotAllowed(rights.BAD_SEAT_LINK)
    name = table.state["players"][seat]["name"]
    if request.method == "POST":
        try:
            token = seats.join(table_id, seat, generation)
        except (RuleError, StoreError) as refused:
            flash(translate_error(refused), "join")
            return redirect(request.path, code=303)
        rights.grant_seat(table_id, seat, token)
        return redirect(url_for("web.seat_page", table_id=table_id), code=303)
    return render_template(
        "seat_join.html", table=table, name=name, view=view_for(table.game), seat=seat
    )


def seat_page(table_id: str):
    """The phone's own seat: its next decision, its sealed choice and its own secrets."""
    version = live_version(table_id)  # read before the table: never newer than it shows
    table = get_store().get(table_id)
    seat = rights.seat_of(table_id)
    live = {"url": stream_url(table_id, "table", get_locale()), "version": version}
    context = {"table": table, "view": view_for(table.game), "live_main": live, "can_edit": True}
    if seat is None:
        return render_template("seat.html", seat=None, **context)
    return render_template("seat.html", seat=seat, **context, **_seat_context(table, seat))


def _seat_context(table: Table, seat: int) -> dict:
    """What the seat page shows of one seat: its choice now, the reveal and its secrets."""
    rules, view, state = get_game(table.game), view_for(table.game), table.state
    reveal = current(table.id)
    gated = seat in sealed.gated_seats(rules, state)
    closed = gated and (reveal is None or reveal.revealed)
    options = [] if closed else sealed.options(rules, state, seat)
    label = getattr(view, "seat_label", str)
    choosing = not closed and seat in sealed.choosing_seats(rules, state)
    mine = seats.own_choice(table, seat, now_only=choosing)
    # a choice too many for chips (an exhibition's cards) has the game's own form: a partial
    form = None if closed else getattr(view, "seat_form", lambda _state, _seat: None)(state, seat)
    done = reveal.locked if gated and reveal is not None else seats.sealed_seats(table)
    waiting = [s for s in sealed.choosing_seats(rules, state) if s not in done and s != seat]
    return {
        "name": state["players"][seat]["name"],
        "options": [
            {"value": json.dumps(option), "label": label(option), "mine": option == mine}
            for option in options
        ],
        "mine": None if mine is None else label(mine),
        "own_choice": mine,
        "gated": gated,
        "seat_form": form,
        "revealed": reveal is not None and reveal.revealed and mine is not None,
        "waiting": [state["players"][s]["name"] for s in waiting],
        "finished": rules.summary(state)["finished"],
        "secrets": getattr(view, "seat_secrets", lambda _state, _seat: [])(state, seat),
    }


def seal(table_id: str):
    """The seat's phone seals its choice (or changes it); the last seal reveals them all."""
    seat = rights.seat_of(table_id)
    if seat is None:  # check_rights refused it already; kept for a direct call
        raise rights.NotAllowed(rights.NEEDS_SEAT)
    try:
        seats.seal(table_id, seat, _posted_choice(view_for(get_store().get(table_id).game)))
    except (RuleError, StoreError) as refused:
        flash(translate_error(refused), SEAL_AREA)
    return redirect(url_for("web.seat_page", table_id=table_id), code=303)


def drop(table_id: str, seat: int):
    """The host takes a seat from its phone (its link changes: show the new one)."""
    try:
        seats.drop(table_id, seat)
    except (RuleError, StoreError) as refused:
        flash(translate_error(refused), "phones")
    return redirect(url_for("web.table", table_id=table_id, _anchor="phones"), code=303)


def _posted_choice(view) -> object:
    """The posted choice (JSON text, or the fields of the game's seat form, read by its view's
    `seat_choice`); anything unreadable is a choice no seat may seal."""
    if "choice" not in request.form and hasattr(view, "seat_choice"):
        return view.seat_choice(request.form)
    text = request.form.get("choice", "")
    try:
        return json.loads(text) if len(text) <= MAX_CHOICE else None
    except ValueError:
        return None
