"""The home page (tables to resume, finished games) and the new-table form."""

from flask import redirect, render_template, request, url_for

from companion_app import web_view
from companion_app.i18n import translate_error
from companion_app.store import get_store
from scoring.errors import RuleError
from scoring.games import get_game
from scoring.razzia import cards

GAME = "razzia"
BAD_REQUEST = 400


def home():
    """Tables in progress to resume and finished games with their winners."""
    tables = get_store().list_tables()
    listed = [(table, get_game(table.game).summary(table.state)) for table in tables]
    playing = [(table, summary) for table, summary in listed if not summary["finished"]]
    finished = [(table, summary) for table, summary in listed if summary["finished"]]
    return render_template("home.html", playing=playing, finished=finished)


def new_table():
    """The players form; on POST create the table and go to its deal."""
    names = [""] * cards.MAX_PLAYERS
    error = None
    if request.method == "POST":
        typed = request.form.getlist("player")[: cards.MAX_PLAYERS]
        names[: len(typed)] = typed
        try:
            table = get_store().create_table(GAME, {"players": [n for n in typed if n.strip()]})
        except RuleError as refused:
            error = translate_error(refused)
        else:
            return redirect(url_for("web.table", table_id=table.id), code=303)
    page = render_template("new_table.html", names=names, error=error, variants=web_view.variants())
    return page, (BAD_REQUEST if error else 200)
