"""The tablet pages' blueprint: its URL map, the language switch and the page globals."""

from flask import Blueprint, current_app, redirect, request, url_for

from companion_app import i18n
from companion_app.games import VIEWS, view_for
from companion_app.i18n import labels
from companion_app.server.guard import local_target
from companion_app.web import home, results, room, score, seats, secrecy, tables
from scoring.secrecy import is_hidden

bp = Blueprint("web", __name__)


@bp.app_context_processor
def page_globals() -> dict:
    """Names every page template may use."""
    return {"labels": labels}


@bp.app_template_test("hidden")
def hidden(value: object) -> bool:
    """`{% if value is hidden %}`: a secret the page holds back (scoring.secrecy's marker)."""
    return is_hidden(value)


def language():
    """Remember the CS | EN choice and go back to the page it was made on."""
    i18n.set_language(request.form.get("lang", ""))
    target = local_target(request.form.get("next", "")) or url_for("web.home")
    return redirect(target.rstrip("?"), code=303)


def favicon():
    """The SVG icon for browsers that ask for /favicon.ico instead of reading the page's link."""
    return current_app.send_static_file("favicon.svg")


bp.add_url_rule("/lang", view_func=language, methods=["POST"])
bp.add_url_rule("/favicon.ico", "favicon", favicon, methods=["GET"])
bp.add_url_rule("/", "home", home.home)
bp.add_url_rule("/tables/new", "choose_game", home.choose_game)
bp.add_url_rule("/tables/new/<game>", "new_table", home.new_table, methods=["GET", "POST"])
bp.add_url_rule("/tables/<table_id>", "table", tables.table)
bp.add_url_rule("/tables/<table_id>/moves", "move", tables.move, methods=["POST"])
bp.add_url_rule("/tables/<table_id>/undo", "undo", tables.undo, methods=["POST"])
bp.add_url_rule("/tables/<table_id>/history", "history", tables.history)
bp.add_url_rule("/tables/<table_id>/secrets", "secrets", secrecy.reveal, methods=["POST"])
bp.add_url_rule("/tables/<table_id>/join/<key>", "join", tables.join, methods=["GET", "POST"])
bp.add_url_rule(
    "/tables/<table_id>/seat/<int:seat>/<key>",
    "seat_join",
    seats.seat_join,
    methods=["GET", "POST"],
)
bp.add_url_rule("/tables/<table_id>/seat", "seat_page", seats.seat_page)
bp.add_url_rule("/tables/<table_id>/seat/seal", "seal", seats.seal, methods=["POST"])
bp.add_url_rule(
    "/tables/<table_id>/seats/<int:seat>/drop", "drop_seat", seats.drop, methods=["POST"]
)
bp.add_url_rule("/tables/<table_id>/abandon", "abandon", tables.abandon, methods=["GET", "POST"])
bp.add_url_rule("/tables/<table_id>/restore", "restore", home.restore, methods=["POST"])
bp.add_url_rule("/tables/<table_id>/results", "results", results.results)
bp.add_url_rule("/tables/<table_id>/print/<paper>", "results_print", results.print_results)
bp.add_url_rule("/tables/<table_id>/qr/<kind>.<fmt>", "results_qr", results.qr_image)
bp.add_url_rule("/tables/<table_id>/export.json", "export_game", results.export_game)
bp.add_url_rule("/r/<table_id>", "bgstats_link", results.bgstats_link)
bp.add_url_rule("/history", "games_history", results.games_history)
bp.add_url_rule("/history.csv", "history_csv", results.history_csv)
bp.add_url_rule("/score", "score", score.choose_calculator)
bp.add_url_rule("/room", "room", room.room_display)

#: The games' score-sheet calculators: arithmetic on the posted sheet, nothing is stored.
CALCULATORS: tuple[str, ...] = ()
for _game in VIEWS:
    for _rule, _endpoint, _view, _methods in view_for(_game).ROUTES:
        bp.add_url_rule(_rule, _endpoint, _view, methods=_methods)
        if _rule.startswith("/score/"):
            CALCULATORS += (f"{bp.name}.{_endpoint}",)
