"""The roster (issue 26 item 2): players are people; rename and merge keep the statistics right.

"Players are people kept by the companion ... rename and merge two entries (history follows);
the statistics and results use the person, not the spelling. Old tables keep working (their
names map to people). Names from outside are validated before they are stored." Names follow
scoring/names.py (docs/game-contract.md): two spellings equal after case folding, NFKC and
spaces are one name.
"""

import re
import sqlite3

import pytest

from companion_app import create_app
from companion_app.store import db, roster
from tests.results.conftest import play_table

OUTSIDE = {"REMOTE_ADDR": "192.168.1.50"}


def person_id(app, name: str) -> int:
    with app.app_context():
        return roster.find(db.get_db(), name)


def stat(html: str, table: str, key: str, name: str) -> str:
    """A number of the archive's statistics table: the row of `name` in `table`'s game."""
    row = re.search(
        rf'<tr data-player="{re.escape(name)}" data-game="{table}">(.*?)</tr>', html, re.S
    )
    assert row, name
    return re.search(rf'data-stat="{key}">([^<]*)<', row.group(1)).group(1)


def test_a_new_table_seats_people_and_the_same_spelling_finds_the_same_person(app, client, club):
    club.play(["Ann", "Bob"], [1, 2])
    club.play(["  ANN ", "Čeněk"], [2, 1])  # capitals and spaces do not make a new person
    with app.app_context():
        people = {person.name: person for person in roster.everyone(db.get_db())}
    assert set(people) == {"Ann", "Bob", "Čeněk"}
    assert people["Ann"].tables == 2
    page = client.get(f"/people/{people['Ann'].id}").get_data(as_text=True)
    assert '<span class="big-number" data-stat="played">2</span>' in page
    assert '<span class="big-number" data-stat="won">1</span>' in page


def test_rename_keeps_the_statistics_and_old_tables_keep_their_names(app, client, club):
    table = club.play(["Jan", "Eva"], [1, 2])
    jan = person_id(app, "Jan")
    response = client.post(f"/people/{jan}/rename", data={"name": "Jan Novák"})
    assert response.status_code == 303
    page = client.get(f"/people/{jan}").get_data(as_text=True)
    assert 'data-testid="person-name">Jan Novák<' in page
    assert '<span class="big-number" data-stat="won">1</span>' in page
    assert "(as Jan)" in page  # the recent game names the spelling played with
    history = client.get("/history").get_data(as_text=True)
    assert stat(history, "ranked", "plays", "Jan Novák") == "1"
    assert 'data-player="Jan"' not in history
    results = client.get(f"/tables/{table}/results").get_data(as_text=True)
    assert "Jan" in results  # the finished table shows what was played (its code covers it)
    # the old spelling is free again: a new "Jan" is a new person
    club.play(["Jan", "Eva"], [2, 1])
    assert person_id(app, "Jan") != jan


def test_a_rename_that_would_clash_or_hide_characters_is_refused_and_nothing_changes(
    app, client, club
):
    club.play(["Ann", "Bob"], [1, 2])
    ann = person_id(app, "Ann")
    for name, reason in (
        ("  bob ", "already the name of Bob; merge the two instead"),
        ("Ann\u200b", "invisible character U+200B"),
        ("", "A person needs a name."),
        ("x" * 41, "longer than 40 characters"),
    ):
        response = client.post(f"/people/{ann}/rename", data={"name": name}, follow_redirects=True)
        page = response.get_data(as_text=True)
        assert reason in page.replace("&#34;", '"').replace("&#39;", "'"), name
        assert 'data-testid="person-name">Ann<' in page


def test_merge_moves_the_games_and_the_spelling_finds_the_person_again(app, client, club):
    club.play(["Petr", "Eva"], [1, 2])
    club.play(["Ptr", "Eva"], [1, 2])  # a typo made a second entry
    petr, typo = person_id(app, "Petr"), person_id(app, "Ptr")
    history = client.get("/history").get_data(as_text=True)
    assert stat(history, "ranked", "plays", "Petr") == "1"
    assert (
        client.post(f"/people/{petr}/merge", data={"other": typo, "confirm": "yes"}).status_code
        == 303
    )
    history = client.get("/history").get_data(as_text=True)
    assert stat(history, "ranked", "plays", "Petr") == "2"
    assert stat(history, "ranked", "wins", "Petr") == "2"
    assert 'data-player="Ptr"' not in history
    page = client.get(f"/people/{petr}").get_data(as_text=True)
    assert '<span class="big-number" data-stat="played">2</span>' in page
    moved = client.get(f"/people/{typo}")
    assert moved.status_code == 301 and moved.headers["Location"].endswith(f"/people/{petr}")
    club.play(["ptr", "Eva"], [2, 1])  # the typo again finds Petr
    assert person_id(app, "ptr") == petr
    eva = person_id(app, "Eva")
    page = client.get(f"/people/{eva}").get_data(as_text=True)
    assert re.search(rf'data-rival="{petr}">.*?data-stat="together">3<', page, re.S)


def test_two_people_who_shared_a_table_cannot_be_merged(app, client, club):
    club.play(["Ann", "Bob"], [1, 2])
    ann, bob = person_id(app, "Ann"), person_id(app, "Bob")
    page = client.post(f"/people/{ann}/merge", data={"other": bob}, follow_redirects=True).get_data(
        as_text=True
    )
    assert "played at the same table" in page
    assert person_id(app, "Bob") == bob


def test_two_seats_spelling_one_person_are_refused_at_setup(app, client, club):
    club.play(["Petr", "Eva"], [1, 2])
    club.play(["Ptr", "Eva"], [1, 2])
    client.post(
        f"/people/{person_id(app, 'Petr')}/merge",
        data={"other": person_id(app, "Ptr"), "confirm": "yes"},
    )
    response = client.post("/tables/new/razzia", data={"player": ["Petr", "Ptr", "Eva"]})
    assert response.status_code == 400
    assert "Petr and Ptr are the same person in the roster (Petr)" in response.get_data(
        as_text=True
    )


def test_only_the_organiser_renames_merges_or_sets_up_seasons(app, club):
    club.play(["Ann", "Bob"], [1, 2])
    ann = person_id(app, "Ann")
    tablet = app.test_client()
    writes = [
        (f"/people/{ann}/rename", {"name": "Anna"}),
        (f"/people/{ann}/merge", {"other": "2"}),
        ("/club/seasons/new", {"name": "S", "kind": "beaten", "beaten_points": "10"}),
        ("/club/evenings/1/name", {"name": "Friday"}),
    ]
    for url, form in writes:
        refused = tablet.post(url, data=form, environ_base=OUTSIDE)
        assert refused.status_code == 403, url
        assert "Only the club&#39;s organiser" in refused.get_data(as_text=True)
    assert person_id(app, "Ann") == ann
    page = tablet.get(f"/people/{ann}", environ_base=OUTSIDE).get_data(as_text=True)
    assert "rename-name" not in page  # no controls for a viewer
    # the organiser link, shown on this computer's club page, lets the tablet in
    link = re.search(
        r'href="(http[^"]*/club/organiser/[^"]+)"',
        app.test_client().get("/club").get_data(as_text=True),
    ).group(1)
    path = link.split("://", 1)[1].split("/", 1)[1]
    assert tablet.post(f"/{path[:-3]}bad", environ_base=OUTSIDE).status_code == 403
    assert tablet.post(f"/{path}", environ_base=OUTSIDE).status_code == 303
    done = tablet.post(f"/people/{ann}/rename", data={"name": "Anna"}, environ_base=OUTSIDE)
    assert done.status_code == 303
    assert person_id(app, "Anna") == ann


def test_an_old_database_maps_its_tables_to_people_when_opened(tmp_path):
    """A database from before the roster: its tables, finished games and names get linked."""
    instance = tmp_path / "old"
    app = create_app({"TESTING": True, "SECRET_KEY": "t"}, instance_path=str(instance))
    finished = play_table(app, names=["Ann", "Bob", "Cid", "Dee"])
    play_table(app, names=["ann", "Eva", "Bob", "Fay"], rounds=1)
    path = str(instance / app.config["DATABASE"])
    conn = sqlite3.connect(path)
    for name in (
        "placings",
        "finished_games",
        "season_evenings",
        "seasons",
        "table_evenings",
        "evenings",
        "seats",
        "person_aliases",
        "people",
    ):
        conn.execute(f"DROP TABLE {name}")
    conn.execute("PRAGMA user_version=1")  # what every release before issue 30 wrote
    conn.commit()
    conn.close()
    reopened = create_app({"TESTING": True, "SECRET_KEY": "t"}, instance_path=str(instance))
    with reopened.app_context():
        conn = db.get_db()
        people = {person.name: person.tables for person in roster.everyone(conn)}
        assert people == {"Ann": 2, "Bob": 2, "Cid": 1, "Dee": 1, "Eva": 1, "Fay": 1}
        assert [p.name for p in roster.seated(conn, finished)] == ["Ann", "Bob", "Cid", "Dee"]
        counted = conn.execute("SELECT table_id FROM finished_games").fetchall()
        assert [row[0] for row in counted] == [finished]
        assert conn.execute("SELECT COUNT(*) FROM table_evenings").fetchone()[0] == 2
    client = reopened.test_client()
    ann = person_id(reopened, "Ann")
    page = client.get(f"/people/{ann}").get_data(as_text=True)
    assert '<span class="big-number" data-stat="played">1</span>' in page
    assert client.get(f"/tables/{finished}/results").status_code == 200


@pytest.mark.parametrize("url", ["/people/999", "/club/evenings/999", "/club/seasons/999"])
def test_unknown_people_evenings_and_seasons_are_not_found(client, url):
    assert client.get(url).status_code == 404
