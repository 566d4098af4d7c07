"""An evening's page: its tables, its own standings ("tonight's ranking") and its name.

Every evening ranks its players, in a season or not, under the rule the organiser picked for
it, else its first season's, else the default (store/league.py `evening_rule`): on its page,
printed (A4, Letter, 80/58 mm receipts), in CSV and on the room display (web/room.py).
"""

from datetime import datetime

from flask import redirect, render_template, request, url_for
from flask_babel import gettext

from companion_app.club import league as club_league
from companion_app.i18n import translate_error
from companion_app.store import counted, db, get_store
from companion_app.store import league as stored
from companion_app.web import league
from companion_app.web.refusals import FORM_REFUSALS, refusal_status
from scoring.errors import N_
from scoring.league.evenings import evening_day
from scoring.league.points import BEATEN, DEFAULT_RULE

BAD_REQUEST = 400
#: The room display shows tonight's ranking while at most this many tables are in play.
ROOM_UP_TO = 2
#: Rows of tonight's ranking the room display shows (the evening's page shows them all).
ROOM_ROWS = 10
#: The rule an evening may take besides the default and its seasons' (points for beating all).
BEATEN_RULE = {"kind": BEATEN, "points": 10}
NO_SUCH_RULE = N_("Choose one of the points rules listed.")
#: The choice that drops the organiser's pick (the season's rule, else the default).
AUTO = "auto"


def rule_choices(evening_id: int) -> list[tuple[str, str, dict]]:
    """(key, label, rule) of each points rule the organiser may pick for the evening."""
    seasons = stored.seasons_of(db.get_db(), evening_id)
    if seasons:
        auto = gettext("As the season %(name)s", name=seasons[0].name)
        choices = [(AUTO, auto, seasons[0].rule)]
        choices.append(("placing", gettext("Per placing: 10, 6, 4, 2, 1"), DEFAULT_RULE))
    else:
        choices = [(AUTO, gettext("Per placing: 10, 6, 4, 2, 1"), DEFAULT_RULE)]
    choices.append(("beaten", gettext("Per share of players beaten: 10"), BEATEN_RULE))
    for season in seasons[1:]:
        label = gettext("As the season %(name)s", name=season.name)
        choices.append((f"season-{season.id}", label, season.rule))
    return choices


def standings_context(found: stored.Evening) -> dict:
    """What the evening's own standings show, on its page, printed and in CSV."""
    rule, picked = stored.evening_rule(db.get_db(), found.id)
    board = club_league.rule_board(rule, (found.id,))
    args = {"evening_id": found.id}
    context = league.standings_context(
        board, rule, "club.evening", args, league.evening_label(found)
    )
    context["subheading"] = gettext("The evening’s ranking")
    choices = rule_choices(found.id)
    chosen = AUTO if not picked else next((key for key, _, each in choices[1:] if each == rule), "")
    return context | {"evening": found, "rule_choices": choices, "chosen_rule": chosen}


def evening(
    evening_id: int, error: str | None = None, status: int = BAD_REQUEST, field: str = "name"
):
    """An evening: its standings, its tables (finished ones with their winners), its seasons."""
    found = league.evening_or_404(evening_id)
    conn = db.get_db()
    store = get_store()
    tables = [store.get(table_id) for table_id in stored.evening_tables(conn, evening_id)]
    plays = {play.table_id: play for play in club_league.evening_plays(evening_id)}
    page = render_template(
        "club/evening.html",
        **standings_context(found),
        label=league.evening_label(found),
        tables=tables,
        plays=plays,
        counted=counted.counted_among(conn, [table.id for table in tables]),
        seasons=stored.seasons_of(conn, evening_id),
        error=error,
        error_field=field,
    )
    return page, (status if error else 200)


def name_evening(evening_id: int):
    """The organiser names an evening (an empty name leaves just its date)."""
    league.evening_or_404(evening_id)
    conn = db.get_db()
    try:
        with db.write_transaction(conn):
            stored.name_evening(conn, evening_id, request.form.get("name", ""))
    except FORM_REFUSALS as refused:
        return evening(evening_id, translate_error(refused), refusal_status(refused))
    return redirect(url_for("club.evening", evening_id=evening_id), code=303)


def pick_rule(evening_id: int):
    """The organiser picks the points rule of the evening's own standings."""
    league.evening_or_404(evening_id)
    key = request.form.get("rule", "")
    rules = {each: rule for each, _label, rule in rule_choices(evening_id)}
    conn = db.get_db()
    try:
        if key not in rules:
            raise stored.LeagueError(NO_SUCH_RULE)
        with db.write_transaction(conn):
            stored.set_evening_rule(conn, evening_id, None if key == AUTO else rules[key])
    except FORM_REFUSALS as refused:
        return evening(evening_id, translate_error(refused), refusal_status(refused), "rule")
    return redirect(url_for("club.evening", evening_id=evening_id) + "#standings", code=303)


def print_standings(evening_id: int, paper: str):
    """The evening's own standings laid out for A4, Letter or an 80/58 mm receipt."""
    return league.print_page(standings_context(league.evening_or_404(evening_id)), paper)


def standings_csv(evening_id: int):
    """The evening's own standings as CSV."""
    found = league.evening_or_404(evening_id)
    names = (found.name, found.day.isoformat())
    return league.csv_response(standings_context(found), names, f"evening-{evening_id}")


def standings_qr(evening_id: int):
    """The QR code of the evening's page, for its printouts."""
    return league.qr_response(standings_context(league.evening_or_404(evening_id)))


def room_standings(playing: int) -> dict | None:
    """Tonight's ranking for the room display, while few tables are in play; None otherwise
    (or before tonight's first counted game ends)."""
    if playing > ROOM_UP_TO:
        return None
    conn = db.get_db()
    tonight = stored.evening_on(conn, evening_day(datetime.now().astimezone()))
    if tonight is None:
        return None
    rule, _picked = stored.evening_rule(conn, tonight.id)
    board = club_league.rule_board(rule, (tonight.id,))
    if not board.rows:
        return None
    shown = board.rows[:ROOM_ROWS]
    return {
        "label": league.evening_label(tonight),
        "board": board,
        "rows": shown,
        "more": len(board.rows) - len(shown),
    }
