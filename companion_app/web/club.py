"""The club's pages: people, evenings, seasons and their standings (docs/club.md).

Reads are open like every page but the backups (the organiser's, web/backups.py); writes
(rename, merge and its undo, adding, removing, hiding and showing people, an evening's name,
moving a table to another evening, a season, counting a table, club tablets) need the
organiser (server/rights.py, docs/security.md).
"""

from fractions import Fraction

from flask import Blueprint, Flask

from companion_app.i18n import formats, per_page
from companion_app.server import rights
from companion_app.web import (
    backups,
    club_home,
    club_keys,
    counting,
    evening,
    league,
    people,
    roster_pages,
    table_evening,
)

bp = Blueprint("club", __name__)

#: Writes only the organiser may make; taking the organiser link is open (the key decides).
ORGANISER_WRITES = (
    "club.rename",
    "club.merge",
    "club.add_person",
    "club.remove_person",
    "club.hide_person",
    "club.show_person",
    "club.undo_merge",
    "club.name_evening",
    "club.evening_rule",
    "club.table_evening",
    "club.new_season",
    "club.edit_season",
    "club.count_table",
    "club.uncount_table",
    "club.new_tablet",
    "club.revoke_tablet",
    "club.revoke_key",
)
#: The organiser link and a club tablet's link check their keys in the view.
OPEN_WRITES = ("club.organiser", "club.tablet")


def league_points(value: Fraction) -> str:
    """League points as the locale writes them, at most two decimals (8, 5,33)."""
    return formats.number(round(float(value), 2))


def rating_number(value: float) -> str:
    """A rating's shown number with one decimal (12.3 / 12,3)."""
    return formats.rating(value)


bp.add_app_template_filter(per_page(league_points), "league_points")
bp.add_app_template_filter(per_page(rating_number), "rating")
bp.add_app_template_filter(per_page(league.evening_label), "evening_label")
bp.add_app_template_global(counting.table_counted, "table_counted")

bp.add_url_rule("/people", "people", people.people_list)
bp.add_url_rule("/people/<int:person_id>", "person", people.person)
bp.add_url_rule("/people/<int:person_id>/rename", "rename", people.rename, methods=["POST"])
bp.add_url_rule("/people/<int:person_id>/merge", "merge", roster_pages.merge, methods=["POST"])
bp.add_url_rule("/people/add", "add_person", roster_pages.add_person, methods=["POST"])
bp.add_url_rule("/people/match", "match_person", roster_pages.match)
bp.add_url_rule(
    "/people/<int:person_id>/remove", "remove_person", roster_pages.remove_person, methods=["POST"]
)
bp.add_url_rule(
    "/people/<int:person_id>/hide", "hide_person", roster_pages.hide_person, methods=["POST"]
)
bp.add_url_rule(
    "/people/<int:person_id>/show", "show_person", roster_pages.show_person, methods=["POST"]
)
bp.add_url_rule(
    "/people/merges/<int:merge_id>/undo", "undo_merge", roster_pages.undo_merge, methods=["POST"]
)
bp.add_url_rule("/club", "club", club_home.club)
bp.add_url_rule("/club/backups/<name>", "backup", backups.download)
bp.add_url_rule("/club/organiser/<key>", "organiser", club_home.organiser, methods=["GET", "POST"])
bp.add_url_rule("/club/tablets", "new_tablet", club_home.new_tablet, methods=["POST"])
bp.add_url_rule(
    "/club/keys/<int:key_id>/revoke", "revoke_key", club_keys.revoke_key, methods=["POST"]
)
bp.add_url_rule(
    "/club/tablets/<int:tablet_id>/revoke",
    "revoke_tablet",
    club_home.revoke_tablet,
    methods=["POST"],
)
bp.add_url_rule(
    "/club/tablets/<int:tablet_id>/<key>", "tablet", club_home.tablet, methods=["GET", "POST"]
)
bp.add_url_rule("/club/evenings/<int:evening_id>", "evening", evening.evening)
bp.add_url_rule(
    "/club/evenings/<int:evening_id>/name", "name_evening", evening.name_evening, methods=["POST"]
)
bp.add_url_rule(
    "/club/evenings/<int:evening_id>/rule", "evening_rule", evening.pick_rule, methods=["POST"]
)
bp.add_url_rule(
    "/club/evenings/<int:evening_id>/print/<paper>", "evening_print", evening.print_standings
)
bp.add_url_rule(
    "/club/evenings/<int:evening_id>/standings.csv", "evening_csv", evening.standings_csv
)
bp.add_url_rule("/club/evenings/<int:evening_id>/qr.svg", "evening_qr", evening.standings_qr)
bp.add_url_rule(
    "/club/tables/<table_id>/evening",
    "table_evening",
    table_evening.table_evening,
    methods=["GET", "POST"],
)
bp.add_url_rule(
    "/club/tables/<table_id>/count", "count_table", counting.count_table, methods=["POST"]
)
bp.add_url_rule(
    "/club/tables/<table_id>/uncount", "uncount_table", counting.uncount_table, methods=["POST"]
)
bp.add_url_rule("/club/seasons/new", "new_season", league.new_season, methods=["GET", "POST"])
bp.add_url_rule("/club/seasons/<int:season_id>", "season", league.season)
bp.add_url_rule(
    "/club/seasons/<int:season_id>/edit", "edit_season", league.edit_season, methods=["GET", "POST"]
)
bp.add_url_rule(
    "/club/seasons/<int:season_id>/evenings/<int:evening_id>", "season_evening", league.season
)
bp.add_url_rule("/club/seasons/<int:season_id>/print/<paper>", "season_print", league.print_board)
bp.add_url_rule(
    "/club/seasons/<int:season_id>/evenings/<int:evening_id>/print/<paper>",
    "season_evening_print",
    league.print_board,
)
bp.add_url_rule("/club/seasons/<int:season_id>/standings.csv", "season_csv", league.board_csv)
bp.add_url_rule(
    "/club/seasons/<int:season_id>/evenings/<int:evening_id>/standings.csv",
    "season_evening_csv",
    league.board_csv,
)
bp.add_url_rule("/club/seasons/<int:season_id>/qr.svg", "season_qr", league.board_qr)
bp.add_url_rule(
    "/club/seasons/<int:season_id>/evenings/<int:evening_id>/qr.svg",
    "season_evening_qr",
    league.board_qr,
)


def init_app(app: Flask) -> None:
    """Register the club's pages and the rights their writes need."""
    app.register_blueprint(bp)
    for endpoint in ORGANISER_WRITES:
        rights.declare(app, endpoint, rights.CLUB)
    for endpoint in OPEN_WRITES:
        rights.declare(app, endpoint, rights.OPEN)
