"""The tablet pages: the blueprint, its URL map and the language switch."""

from flask import Blueprint, redirect, request, url_for

from companion_app import i18n, labels, web_home, web_results, web_score, web_tables
from companion_app.games import VIEWS, view_for

bp = Blueprint("web", __name__)


@bp.app_context_processor
def page_globals() -> dict:
    """Names every page template may use."""
    return {"labels": labels}


def language():
    """Remember the CS | EN choice and go back to the page it was made on."""
    i18n.set_language(request.form.get("lang", ""))
    target = request.form.get("next", "")
    if not target.startswith("/") or target.startswith("//"):
        target = url_for("web.home")
    return redirect(target.rstrip("?"), code=303)


bp.add_url_rule("/lang", view_func=language, methods=["POST"])
bp.add_url_rule("/", "home", web_home.home)
bp.add_url_rule("/tables/new", "choose_game", web_home.choose_game)
bp.add_url_rule("/tables/new/<game>", "new_table", web_home.new_table, methods=["GET", "POST"])
bp.add_url_rule("/tables/<table_id>", "table", web_tables.table)
bp.add_url_rule("/tables/<table_id>/moves", "move", web_tables.move, methods=["POST"])
bp.add_url_rule("/tables/<table_id>/undo", "undo", web_tables.undo, methods=["POST"])
bp.add_url_rule("/tables/<table_id>/history", "history", web_tables.history)
bp.add_url_rule("/tables/<table_id>/results", "results", web_results.results)
bp.add_url_rule("/tables/<table_id>/print/<paper>", "results_print", web_results.print_results)
bp.add_url_rule("/tables/<table_id>/qr/<kind>.<fmt>", "results_qr", web_results.qr_image)
bp.add_url_rule("/tables/<table_id>/export.json", "export_game", web_results.export_game)
bp.add_url_rule("/history", "games_history", web_results.games_history)
bp.add_url_rule("/history.csv", "history_csv", web_results.history_csv)
bp.add_url_rule("/score", "score", web_score.choose_calculator)

for _game in VIEWS:
    for _rule, _endpoint, _view, _methods in view_for(_game).ROUTES:
        bp.add_url_rule(_rule, _endpoint, _view, methods=_methods)
