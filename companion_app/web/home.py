"""The home page (tables to resume, finished games), the game choice and the new-table form."""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask import abort, redirect, render_template, request, url_for
from flask_babel import gettext

from companion_app.device import feed as device_feed
from companion_app.games import VIEWS, playable, view_for
from companion_app.games import room as room_words
from companion_app.i18n import formats, translate_error, translate_refusal
from companion_app.server import rights
from companion_app.store import Table, TooManyTables, get_store
from companion_app.store.faults import StorageFault
from companion_app.store.labels import MAX_LABEL, InvalidLabel
from companion_app.web.people import roster_chips
from companion_app.web.roster_pages import seat_hints
from scoring.errors import RuleError
from scoring.games import game_names, get_game

BAD_REQUEST, NOT_FOUND, TOO_MANY_REQUESTS, UNAVAILABLE = 400, 404, 429, 503
#: Below this, the last move is "just now" rather than a count of seconds.
JUST_NOW = timedelta(minutes=1)
#: Tables a list of the home page shows at once (20 tables of a club night fit one page).
PAGE_SIZE = 20


@dataclass(frozen=True)
class Pager:
    """One page of a list: its rows, its number, how many pages, and the URL argument."""

    rows: list
    page: int
    pages: int
    arg: str


def _page_asked(arg: str) -> int:
    """The page number asked in the query string (1 for anything that is not one)."""
    text = request.args.get(arg, "1")
    return int(text) if text.isdecimal() and 0 < len(text) < 7 and int(text) > 0 else 1


def _pager(finished: bool, arg: str, now: datetime) -> Pager:
    """A page of the tables in play or finished (past the last page: the last page)."""
    store, page = get_store(), _page_asked(arg)
    offset = (page - 1) * PAGE_SIZE
    tables, total = store.list_page(finished=finished, offset=offset, limit=PAGE_SIZE)
    pages = max(1, -(-total // PAGE_SIZE))
    if page > pages:
        page = pages
        offset = (page - 1) * PAGE_SIZE
        tables, total = store.list_page(finished=finished, offset=offset, limit=PAGE_SIZE)
    rows = [_row(table, now) for table in tables if table.game in VIEWS]
    return Pager(rows, page, pages, arg)


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
    #: The round as the game counts it ("Round 2 of 3"; Cech zlodějů, with no set number of
    #: rounds, "Round 2"; Adel "Turn 4"): the room display's words (issue 32 item 7).
    round: str = ""


def _shown(moment: datetime) -> str:
    """A stored UTC time as the one date and time of the page's language (server's zone)."""
    return formats.date_time(moment)


def _ago(moment: datetime, now: datetime) -> str:
    """How long ago `moment` was, in words of the locale ("5 minutes ago", "před 5 minutami")."""
    elapsed = now - moment
    if elapsed < JUST_NOW:
        return gettext("just now")
    return formats.ago(elapsed)


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
        round=room_words.round_text(table.game, summary),
    )


def home():
    """Tables in play to resume and finished games with their winners, a page of each; and
    this device's own tables that left the list (never moved for a day), to restore."""
    now = datetime.now(UTC)
    hosted = _all_stale() if rights.is_local() else rights.hosted_tables()
    aside = [_row(table, now) for table in get_store().stale_tables(hosted)[:PAGE_SIZE]]
    return render_template(
        "home.html",
        playing=_pager(False, "page", now),
        finished=_pager(True, "done", now),
        aside=[row for row in aside if row.table.game in VIEWS],
    )


def _all_stale() -> list[str]:
    """Every table that left the home page (this computer hosts them all)."""
    return get_store().stale_ids(PAGE_SIZE)


def restore(table_id: str):
    """The host brings back one of its tables that left the home page."""
    get_store().restore(table_id)
    return redirect(url_for("web.home"), code=303)


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
    error, error_area, errors, status = None, "players", {}, BAD_REQUEST
    if request.method == "POST":
        typed = request.form.getlist("player")[: view.MAX_PLAYERS]
        names[: len(typed)] = typed
        ticked = set(request.form.getlist("new_person"))
        confirmed = [name for seat, name in enumerate(typed) if str(seat) in ticked]
        try:
            setup = view.parse_setup(request.form)
            label = request.form.get("label")
            table = get_store().create_table(
                game, setup, origin=rights.origin(), new_people=confirmed, label=label
            )
        except InvalidLabel as refused:
            error, error_area = translate_error(refused), "label"
            errors = {error_area: [error]}
        except RuleError as refused:
            errors = setup_errors(view, refused, [name for name in typed if name.strip()])
            error_area, (error, *_rest) = next(iter(errors.items()))
        except (TooManyTables, StorageFault) as refused:
            error = translate_error(refused)
            limited = isinstance(refused, TooManyTables)
            errors, status = {error_area: [error]}, TOO_MANY_REQUESTS if limited else UNAVAILABLE
        else:
            rights.grant(table.id, rights.HOST)  # the device that creates a table hosts it
            device_feed.take_if_free(table.id)  # only if the box shows no game in play
            return redirect(url_for("web.table", table_id=table.id), code=303)
    page = render_template(
        "new_table.html",
        game=game,
        view=view,
        names=names,
        hints=seat_hints(names),
        ticked=set(request.form.getlist("new_person")),
        error=error,
        error_area=error_area,
        errors=errors,
        form=request.form,
        roster=roster_chips(),
        default_label=gettext("Table %(number)s", number=get_store().free_number()),
        max_label=MAX_LABEL,
        **view.setup_context(),
    )
    return page, (status if error else 200)
