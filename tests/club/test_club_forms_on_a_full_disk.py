"""The club's forms on a full disk (issue 30 item 6): the sentence next to the field, a 503,
nothing changed; with space again the same post goes through.

The instance folder is a small tmpfs (root, as in CI), filled by a file the test deletes.
"""

import re

from companion_app.store import db
from scoring.league.points import PLACING
from tests.app.test_storage_faults import FULL, serving
from tests.disks import fill, small_disk


def area_error(page: str, area: str) -> str:
    """The refusal shown next to a field (data-error="area"), or empty."""
    found = re.search(rf'data-error="{area}">(.*?)</p>', page, re.S)
    return found.group(1).strip() if found else ""


def count(app, sql: str) -> int:
    """One number read from the database."""
    with app.app_context():
        return db.get_db().execute(sql).fetchone()[0]


def test_club_forms_say_the_disk_is_full_next_to_their_field(tmp_path):
    """Naming an evening, a new season, renaming a person, moving a table to another evening
    and a club tablet's link: each refused with the sentence at its field (503), nothing
    changed; after the filler is gone the evening's name goes through."""
    with small_disk(tmp_path / "disk") as instance:
        app = serving(instance)
        client = app.test_client()
        made = client.post("/api/tables", json={"game": "razzia", "players": ["Eva", "Filip"]})
        assert made.status_code == 201, made.get_json()
        table = made.get_json()["id"]
        before = count(app, "SELECT COUNT(*) FROM seasons")
        filler = fill(instance)

        named = client.post("/club/evenings/1/name", data={"name": "Club night"})
        assert named.status_code == 503 and area_error(named.get_data(as_text=True), "name") == FULL
        winter = {"name": "Winter", "kind": PLACING, "place_1": "3", "place_2": "1", "evening": "1"}
        season = client.post("/club/seasons/new", data=winter)
        assert season.status_code == 503
        assert area_error(season.get_data(as_text=True), "season") == FULL
        tablet = client.post("/club/tablets", data={"name": "Door"})
        assert (
            tablet.status_code == 503 and area_error(tablet.get_data(as_text=True), "name") == FULL
        )
        moved = client.post(f"/club/tables/{table}/evening", data={"day": "2026-01-05"})
        assert moved.status_code == 503
        assert area_error(moved.get_data(as_text=True), "evening") == FULL
        renamed = client.post("/people/1/rename", data={"name": "Evička"}, follow_redirects=True)
        assert FULL in renamed.get_data(as_text=True)

        assert count(app, "SELECT COUNT(*) FROM seasons") == before
        assert count(app, "SELECT name FROM evenings WHERE id = 1") == ""
        assert count(app, "SELECT name FROM people WHERE id = 1") == "Eva"
        assert count(app, "SELECT COUNT(*) FROM club_tablets") == 0

        filler.unlink()
        named = client.post("/club/evenings/1/name", data={"name": "Club night"})
        assert named.status_code == 303
        assert count(app, "SELECT name FROM evenings WHERE id = 1") == "Club night"
