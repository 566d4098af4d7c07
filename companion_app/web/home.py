"""The home page (tables to resume, finished games), the game choice and the new-table form."""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from babel.dates import format_datetime, format_timedelta
from flask import abort, redirect, render_template, request, url_for
from flask_babel import get_locale, gettext

from companion_app.games import VIEWS, playable, view_for
from companion_app.i18n import translate_refusal
from companion_app.server import rights
from companion_app.store import Table, get_store
from companion_app.web.people import roster_chips
from scoring.errors import RuleError
from scoring.games import game_names, get_game

BAD_REQUEST, NOT_FOUND = 400, 404
#: Below this, the last move is "just now" rather than a count of seconds.
JUST_NOW = timedelta(minutes=1)


@dataclass(frozen=True)
class Row:
    """One table of the home page's lists, with its times in the reader's language."""

    table: Table
    summary: dict
    view: object
    started: str
    last_move: str | None
    last_move_exact: str
    hosted: bool


def _shown(moment: datetime) -> str:
    """A stored UTC time as a short date and time in the server's time zone and the locale."""
    local = moment.astimezone()
    return format_datetime(local, "short", tzinfo=local.tzinfo, locale=get_locale())


def _ago(moment: datetime, now: datetime) -> str:
    """How long ago `moment` was, in words of the locale ("5 minutes ago", "před 5 minutami")."""
    elapsed = now - moment
    if elapsed < JUST_NOW:
        return gettext("just now")
    return format_timedelta(-elapsed, add_direction=True, locale=get_locale())


def _row(table: Table, now: datetime) -> Row:
    """The home page's line for a table: game, players, start, last move, host controls."""
    summary = get_game(table.game).summary(table.state)
    return Row(
        table=table,
        summary=summary,
        view=view_for(table.game),
        started=_shown(table.created_at),
        last_move=_ago(table.updated_at, now) if table.version else None,
        last_move_exact=_shown(table.updated_at),
        hosted=not summary["finished"] and rights.role_for(table.id) == rights.HOST,
    )


def home():
    """Tables in progress to resume and finished games with their winners."""
    now = datetime.now(UTC)
    tables = [table for table in get_store().list_tables() if table.game in VIEWS]
    listed = [_row(table, now) for table in tables]
    playing = [row for row in listed if not row.summary["finished"]]
    finished = [row for row in listed if row.summary["finished"]]
    return render_template("home.html", playing=playing, finished=finished)


def choose_game():
    """Which game is the new table for?"""
    return render_template("choose_game.html", games=playable())


def setup_errors(view, refused: RuleError, names: list[str]) -> dict[str, list[str]]:
    """Each refusal of a setup (all of them at once) under the field that shows it."""
    area_of = getattr(view, "setup_error_area", lambda _refused: "players")
    errors: dict[str, list[str]] = {}
    for each in (refused, *getattr(refused, "others", [])):
        errors.setdefault(area_of(each), []).append(translate_refusal(each, names))
    return errors


def new_table(game: str):
    """The players and setup form of a game; on POST create the table and go to it."""
    if game not in VIEWS or game not in game_names():
        abort(NOT_FOUND)
    view = view_for(game)
    names = [""] * view.MAX_PLAYERS
    if request.method == "GET" and hasattr(view, "setup_names"):
        remembered = view.setup_names()[: view.MAX_PLAYERS]  # the same group as last time
        names[: len(remembered)] = remembered
    error, error_area, errors = None, "players", {}
    if request.method == "POST":
        typed = request.form.getlist("player")[: view.MAX_PLAYERS]
        names[: len(typed)] = typed
        try:
            table = get_store().create_table(game, view.parse_setup(request.form))
        except RuleError as refused:
            errors = setup_errors(view, refused, [name for name in typed if name.strip()])
            error_area, (error, *_rest) = next(iter(errors.items()))
        else:
            rights.grant(table.id, rights.HOST)  # the device that creates a table hosts it
            return redirect(url_for("web.table", table_id=table.id), code=303)
    page = render_template(
        "new_table.html",
        game=game,
        view=view,
        names=names,
        error=error,
        error_area=error_area,
        errors=errors,
        form=request.form,
        roster=roster_chips(),
        **view.setup_context(),
    )
    return page, (BAD_REQUEST if error else 200)
