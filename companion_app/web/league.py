"""Evenings, seasons and their standings: pages, printouts (A4, receipts), CSV and QR codes."""

from datetime import UTC, datetime

from flask import Response, abort, redirect, render_template, request, url_for
from flask_babel import gettext

from companion_app.club import league as club_league
from companion_app.i18n import formats, translate_error
from companion_app.results import qr
from companion_app.store import db
from companion_app.store import league as stored
from companion_app.web import standings_text
from companion_app.web.refusals import FORM_REFUSALS, refusal_status
from companion_app.web.results import PAPERS, has_long_word, public_url, title_of
from scoring.league.points import BEATEN, DEFAULT_RULE, MAX_PLACES, PLACING
from scoring.league.roster import RosterError

NOT_FOUND, BAD_REQUEST = 404, 400


def _now() -> str:
    """The current UTC time as sortable ISO text."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def evening_label(evening: stored.Evening) -> str:
    """An evening as pages name it: its name and date, or its date."""
    day = formats.day(evening.day)
    return f"{evening.name} ({day})" if evening.name else day


def evening_or_404(evening_id: int) -> stored.Evening:
    """The evening, or 404."""
    try:
        return stored.evening(db.get_db(), evening_id)
    except RosterError:
        abort(NOT_FOUND)


def _season_or_404(season_id: int) -> stored.Season:
    """The season, or 404."""
    try:
        return stored.season(db.get_db(), season_id)
    except RosterError:
        abort(NOT_FOUND)


def _season_fields(form) -> dict:
    """A season as the rules check it, from the posted form."""
    if form.get("kind") == BEATEN:
        rule = {"kind": BEATEN, "points": _number(form.get("beaten_points", ""))}
    elif form.get("kind") == PLACING:
        typed = [form.get(f"place_{place}", "").strip() for place in range(1, MAX_PLACES + 1)]
        while typed and not typed[-1]:
            typed.pop()
        rule = {"kind": PLACING, "points": [_number(text) for text in typed]}
    else:
        rule = {}
    chosen = [int(each) for each in form.getlist("evening") if each.isdigit()]
    return {"name": form.get("name", ""), "rule": rule, "evenings": chosen}


def _number(text: str) -> int | str:
    """A typed whole number, or the text (which the rule then refuses)."""
    text = text.strip()
    return int(text) if text.isdigit() and len(text) <= len(str(10**6)) else text


def _season_form(season: stored.Season | None, error: str | None = None, status: int = BAD_REQUEST):
    """The season form (new or to change), with the refusal next to it."""
    conn = db.get_db()
    rule = season.rule if season else DEFAULT_RULE
    page = render_template(
        "club/season_form.html",
        season=season,
        form=request.form if request.method == "POST" else None,
        rule=rule,
        chosen=set(season.evenings) if season else set(),
        evenings=stored.evenings(conn),
        evening_label=evening_label,
        places=range(1, MAX_PLACES + 1),
        error=error,
    )
    return page, (status if error else 200)


def _save(season_id: int | None):
    """Store the posted season, or show the form again with the reason."""
    conn = db.get_db()
    try:
        with db.write_transaction(conn):
            saved = stored.save_season(conn, season_id, _season_fields(request.form), _now())
    except FORM_REFUSALS as refused:
        season = None if season_id is None else _season_or_404(season_id)
        return _season_form(season, translate_error(refused), refusal_status(refused))
    return redirect(url_for("club.season", season_id=saved), code=303)


def new_season():
    """The organiser defines a season: name, points rule, evenings."""
    if request.method == "POST":
        return _save(None)
    return _season_form(None)


def edit_season(season_id: int):
    """The organiser changes a season's name, rule or evenings."""
    season = _season_or_404(season_id)
    if request.method == "POST":
        return _save(season_id)
    return _season_form(season)


def standings_context(board, rule: dict, base: str, args: dict, heading: str) -> dict:
    """What a standings page, its printouts and its CSV show; `base` names their endpoints
    (`<base>`, `<base>_print`, `<base>_csv`, `<base>_qr`), `args` their URL arguments."""
    return {
        "heading": heading,
        "subheading": "",
        "board": board,
        "notes": [standings_text.tie_note(row, board) for row in board.rows],
        "rule_text": standings_text.rule_sentence(rule),
        "order_text": standings_text.ORDER_SENTENCE,
        "live_url": public_url(url_for(base, **args)),
        "base": base,
        "args": args,
        "papers": PAPERS,
        "title_of": title_of,
    }


def _board_context(season_id: int, evening_id: int | None) -> dict:
    """What a season's standings (or one of its evenings' under its rule) show."""
    season = _season_or_404(season_id)
    found = None
    if evening_id is not None:
        found = evening_or_404(evening_id)
        if evening_id not in season.evenings:
            abort(NOT_FOUND)
    board = club_league.board(season, evening_id)
    base = "club.season" if found is None else "club.season_evening"
    args = {"season_id": season_id} | ({} if found is None else {"evening_id": evening_id})
    heading = season.name if found is None else evening_label(found)
    return standings_context(board, season.rule, base, args, heading) | {
        "season": season,
        "evening": found,
        "subheading": "" if found is None else season.name,
        "evenings": [each for each in stored.evenings(db.get_db()) if each.id in season.evenings],
        "evening_label": evening_label,
    }


def season(season_id: int, evening_id: int | None = None):
    """The standings of a season, or of one of its evenings under the season's rule."""
    return render_template("club/standings.html", **_board_context(season_id, evening_id))


def print_page(context: dict, paper: str):
    """Standings laid out for A4, Letter or an 80/58 mm receipt, with the QR code, the games
    counted and when it was printed."""
    if paper not in PAPERS:
        abort(NOT_FOUND)
    board = context["board"]
    long_words = {row.person for row in board.rows if has_long_word(board.name(row.person), paper)}
    return render_template(
        "club/print_standings.html",
        **context,
        paper=paper,
        layout=PAPERS[paper],
        printed=printed_at(datetime.now().astimezone()),
        long_words=long_words,
    )


def printed_at(local: datetime) -> str:
    """When a printout was made, in the page's language (6. 12. 2026 20:15)."""
    return formats.date_time(local)


def print_board(season_id: int, paper: str, evening_id: int | None = None):
    """A season's (or its evening's) standings printed."""
    if paper not in PAPERS:
        abort(NOT_FOUND)
    return print_page(_board_context(season_id, evening_id), paper)


def csv_response(context: dict, names: tuple[str, ...], fallback: str) -> Response:
    """The standings as a CSV download named after the season or evening
    (standings-jarni-liga-2026.csv; `fallback` when no name has a letter or digit to keep)."""
    text = standings_text.standings_csv(context["board"], context["notes"])
    name = f"standings-{standings_text.file_slug(*names) or fallback}"
    return Response(
        "\ufeff" + text,  # the BOM makes spreadsheets read the Czech names as UTF-8
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
    )


def board_csv(season_id: int, evening_id: int | None = None):
    """The standings as CSV: place, person, points, games, wins, points per game, tie note."""
    context = _board_context(season_id, evening_id)
    found = context["evening"]
    names = () if found is None else (found.name, found.day.isoformat())
    return csv_response(context, (context["season"].name, *names), f"season-{season_id}")


def qr_response(context: dict) -> Response:
    """The QR code of a standings page (SVG), for the printouts."""
    body = qr.svg(context["live_url"], label=gettext("Open the standings on a phone"))
    return Response(body, mimetype="image/svg+xml")


def board_qr(season_id: int, evening_id: int | None = None):
    """The QR code of a season's (or its evening's) standings page."""
    return qr_response(_board_context(season_id, evening_id))
