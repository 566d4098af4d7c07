"""The home page (tables to resume, finished games), the game choice and the new-table form."""

from flask import abort, redirect, render_template, request, url_for

from companion_app.games import VIEWS, playable, view_for
from companion_app.i18n import translate_error
from companion_app.server import rights
from companion_app.store import get_store
from scoring.errors import RuleError
from scoring.games import game_names, get_game

BAD_REQUEST, NOT_FOUND = 400, 404


def home():
    """Tables in progress to resume and finished games with their winners."""
    tables = [table for table in get_store().list_tables() if table.game in VIEWS]
    listed = [(t, get_game(t.game).summary(t.state), view_for(t.game)) for t in tables]
    playing = [row for row in listed if not row[1]["finished"]]
    finished = [row for row in listed if row[1]["finished"]]
    return render_template("home.html", playing=playing, finished=finished)


def choose_game():
    """Which game is the new table for?"""
    return render_template("choose_game.html", games=playable())


def new_table(game: str):
    """The players and setup form of a game; on POST create the table and go to it."""
    if game not in VIEWS or game not in game_names():
        abort(NOT_FOUND)
    view = view_for(game)
    names = [""] * view.MAX_PLAYERS
    error, error_area = None, "players"
    if request.method == "POST":
        typed = request.form.getlist("player")[: view.MAX_PLAYERS]
        names[: len(typed)] = typed
        try:
            table = get_store().create_table(game, view.parse_setup(request.form))
        except RuleError as refused:
            error = translate_error(refused)
            error_area = getattr(view, "setup_error_area", lambda _refused: "players")(refused)
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
        form=request.form,
        **view.setup_context(),
    )
    return page, (BAD_REQUEST if error else 200)
