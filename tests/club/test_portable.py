"""`companion export` and `companion import` (docs/export.md): a club moved to another instance.

Done means: export, then import into a fresh instance gives the same results (each finished
game's export with its verification code, its results page), the same standings and ratings;
a second import adds nothing; a game whose move was changed is named and kept aside; a bad
file exits 2 with a sentence and changes nothing. The club: Razzia!, For Sale and Klub
ztroskotanců games on two evenings (one named), a season over both, a person merged into
another, an undone move, an abandoned table, games still in play (one at a reveal), a game
the organiser took out of what counts, one a club tablet started and a revoked tablet.
"""

import contextlib
import gzip
import io
import json
import random
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion_app import cli, create_app
from companion_app.cli.portable import shown_id
from companion_app.club import ratings
from companion_app.device.status import get_status
from companion_app.results.verify import active_moves, verification_code
from companion_app.store import counted, db, finished, get_store, instance_lock, league, roster
from companion_app.store import reveals as reveal
from companion_app.store import tables as store_tables
from scoring.games import get_game
from tests.results.conftest import play_table
from tests.scoring import for_sale_random, prodigals_play, prodigals_random

EVENING_1 = datetime(2026, 3, 6, 18, 0, tzinfo=UTC)
EVENING_2 = datetime(2026, 3, 13, 18, 0, tzinfo=UTC)
MAX_STEPS = 2000
#: Rows that only count (the club's generation) or are left out on purpose (table_origins;
#: merges, the record an undo of a merge reads, stays on the computer that merged; access_keys,
#: the organiser and device keys, belong to the instance whose secret made them).
UNCOMPARED = {"table_origins", "merges", "access_keys"}


def ticking_clock(monkeypatch, start: datetime) -> None:
    """The store's clock from `start`, a second further at every reading."""
    moments = (start + timedelta(seconds=step) for step in range(10**6))
    monkeypatch.setattr(store_tables, "_now", lambda: next(moments).isoformat())


def play_random(app, game: str, setup: dict, random_move, seed: int) -> str:
    """A random legal game through the store until it is over (reveals pressed); its id."""
    rng = random.Random(seed)
    with app.app_context():
        store = get_store()
        table = store.create_table(game, setup)
        rules = get_game(game)
        for _step in range(MAX_STEPS):
            if table.state["phase"] == "game_over":
                return table.id
            if getattr(rules, "reveal_seats", None) and rules.reveal_seats(table.state):
                found = reveal.current(table.id)
                for seat in found.seats:
                    reveal.press(table.id, found.id, seat)
            table = store.apply_move(table.id, random_move(table.state, rng), table.version)
    raise AssertionError("the random game did not end")


def play_to_a_reveal(app, names: list[str], seed: int) -> str:
    """A For Sale table played until its players sell at once, one of them locked in; its id."""
    rng = random.Random(seed)
    with app.app_context():
        store = get_store()
        table = store.create_table("for_sale", {"players": names})
        while not get_game("for_sale").reveal_seats(table.state):
            table = store.apply_move(table.id, _fs_move(table.state, rng), table.version)
        found = reveal.current(table.id)
        reveal.press(table.id, found.id, found.seats[0])
        return table.id


def with_undo(app, table_id: str) -> None:
    """Undo the table's last move and play it again (the log keeps both)."""
    with app.app_context():
        store = get_store()
        last = store.latest_entry(table_id).move
        table = store.undo(table_id, store.get(table_id).version)
        store.apply_move(table_id, last, table.version)


def build_club(app, monkeypatch) -> dict:
    """The club of the module's docstring; the ids of its parts."""
    ticking_clock(monkeypatch, EVENING_1)
    razzia = play_table(app, names=["Ann", "Bobby", "Cid", "Dee"])
    for_sale = play_random(app, "for_sale", {"players": ["Ann", "Cid", "Dee"]}, _fs_move, 1)
    with_undo(app, for_sale)
    ticking_clock(monkeypatch, EVENING_2)
    prodigals = play_random(
        app, "prodigals_club", prodigals_play.setup(["Bob", "Cid", "Eve"]), _pc_move, 3
    )
    open_game = play_table(app, names=["Ann", "Cid", "Dee", "Eve"], rounds=1)
    gone = play_table(app, names=["Cid", "Dee", "Eve", "Ann"], rounds=1)
    selling = play_to_a_reveal(app, ["Dee", "Eve", "Ann"], 5)
    with app.app_context():
        get_store().abandon(gone)
        conn = db.get_db()
        with db.write_transaction(conn):
            conn.execute(
                "INSERT INTO settings (key, value_json) VALUES ('device_table', ?)",
                (json.dumps(selling),),
            )
            moment = EVENING_2.isoformat()
            window = counted.new_tablet(conn, "Stůl u okna", moment)
            counted.take_tablet(conn, window, moment)
            conn.execute(  # as if the club tablet by the window had started the Klub game
                "UPDATE counted_tables SET how = 'tablet', tablet_id = ? WHERE table_id = ?",
                (window, prodigals),
            )
            counted.revoke_tablet(conn, counted.new_tablet(conn, "Lost", moment), moment)
            counted.uncount(conn, for_sale)  # the organiser took the For Sale game out
            people = {person.name: person.id for person in roster.everyone(conn)}
            roster.merge(conn, people["Bob"], people["Bobby"])
            evenings = sorted(evening.id for evening in league.evenings(conn))
            league.name_evening(conn, evenings[1], "Jarní turnaj")
            season = league.save_season(
                conn,
                None,
                {
                    "name": "Jaro 2026",
                    "rule": {"kind": "placing", "points": [10, 6, 4, 2]},
                    "evenings": evenings,
                },
                EVENING_2.isoformat(),
            )
    return {
        "finished": [razzia, for_sale, prodigals],
        "open": open_game,
        "selling": selling,
        "abandoned": gone,
        "season": season,
    }


def _fs_move(state, rng):
    """For Sale's random move."""
    return for_sale_random.random_move(state, rng)


def _pc_move(state, rng):
    """Klub ztroskotanců's random move."""
    return prodigals_random.random_move(state, rng)


def run(capsys, *argv) -> tuple[int, str, str]:
    """`companion ARGV` in this process: (exit status, stdout, stderr)."""
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def every_row(instance: Path) -> dict[str, list[tuple]]:
    """Every row of every table of the database, sorted (the counter of changes aside)."""
    conn = sqlite3.connect(instance / "companion.sqlite3")
    try:
        names = [
            row[0]
            for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if row[0] not in UNCOMPARED
        ]
        found = {name: sorted(conn.execute(f"SELECT * FROM {name}"), key=repr) for name in names}
    finally:
        conn.close()
    found["settings"] = [row for row in found["settings"] if row[0] != "club_generation"]
    return found


def row_counts(instance: Path) -> dict[str, int]:
    """Rows of every table of the instance's database."""
    conn = sqlite3.connect(instance / "companion.sqlite3")
    try:
        names = [
            row[0]
            for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if row[0] not in UNCOMPARED
        ]
        return {name: conn.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0] for name in names}
    finally:
        conn.close()


def fresh_app(instance: Path):
    """The app on an instance folder, as the tests' `app` fixture builds it."""
    return create_app({"TESTING": True, "SECRET_KEY": "test"}, instance_path=str(instance))


def what_matters(app, club: dict) -> dict:
    """What a move to another instance must keep: results, codes, standings, ratings, pages."""
    client = app.test_client()
    english = {"Accept-Language": "en"}
    found = {}
    for table_id in club["finished"]:
        found[f"export {table_id}"] = client.get(f"/tables/{table_id}/export.json").get_json()
        found[f"results {table_id}"] = client.get(
            f"/tables/{table_id}/results", headers=english
        ).get_data(as_text=True)
    season = f"/club/seasons/{club['season']}"
    found["standings"] = client.get(f"{season}/standings.csv", headers=english).get_data()
    found["season page"] = client.get(season, headers=english).get_data(as_text=True)
    found["people page"] = client.get("/people", headers=english).get_data(as_text=True)
    found["history"] = client.get("/history.csv", headers=english).get_data()
    with app.app_context():
        names = roster.names(db.get_db())
        found["ratings"] = {
            names[person]: (rating.mu, rating.sigma)
            for person, rating in ratings.book().overall.items()
        }
        found["open game"] = get_store().get(club["open"]).state
        found["abandoned"] = get_store().get(club["abandoned"]).abandoned
        found["reveal"] = reveal.current(club["selling"])
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The club built and exported once for the module: (its ids, its folder, the file)."""
    folder = tmp_path_factory.mktemp("club")
    app = fresh_app(folder / "instance")
    with pytest.MonkeyPatch.context() as patch:
        club = build_club(app, patch)
    path = folder / "club.json"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(["export", "--instance", app.instance_path, str(path)])
    assert (status, err.getvalue()) == (0, "")
    assert out.getvalue() == f"Exported 6 tables, 5 people, 2 evenings and 1 season to {path}.\n"
    return club, folder / "instance", path


@pytest.fixture
def exported(built, tmp_path):
    """(the club's ids, a copy of its export file, an app on a copy of its instance)."""
    club, instance, path = built
    shutil.copytree(instance, tmp_path / "source")
    shutil.copy(path, tmp_path / "club.json")
    return club, tmp_path / "club.json", fresh_app(tmp_path / "source")


def test_export_then_import_into_a_fresh_instance_keeps_every_result(exported, tmp_path, capsys):
    club, path, source = exported
    document = json.loads(path.read_text(encoding="utf-8"))
    assert (document["format"], document["version"]) == ("companion-club", 1)
    target = tmp_path / "elsewhere"
    status, out, err = run(capsys, "import", "--instance", str(target), str(path))
    assert (status, err) == (0, ""), err
    assert out == (
        "Imported 6 tables, 5 people, 2 evenings, 1 season; 0 already there; 0 kept aside.\n"
    )
    before, after = what_matters(source, club), what_matters(fresh_app(target), club)
    assert after.keys() == before.keys()
    for key, value in before.items():
        assert after[key] == value, key
    rows, imported = every_row(Path(source.instance_path)), every_row(target)
    for name, found in rows.items():  # a fresh instance keeps every id: the same rows
        assert imported[name] == found, name


def test_the_merged_person_stays_merged(exported, tmp_path, capsys):
    _club, path, _source = exported
    target = tmp_path / "elsewhere"
    run(capsys, "import", "--instance", str(target), str(path))
    with fresh_app(target).app_context():
        conn = db.get_db()
        bob = roster.find(conn, "Bob")
        assert roster.find(conn, "Bobby") == bob  # the merged spelling finds Bob
        merged = conn.execute("SELECT id FROM people WHERE name = 'Bobby'").fetchone()[0]
        assert roster.get(conn, merged)[0].id == bob


def test_a_second_import_adds_nothing(exported, tmp_path, capsys):
    _club, path, _source = exported
    target = tmp_path / "elsewhere"
    run(capsys, "import", "--instance", str(target), str(path))
    counts = row_counts(target)
    status, out, _err = run(capsys, "import", "--instance", str(target), str(path))
    assert status == 0
    assert out == (
        "Imported 0 tables, 0 people, 0 evenings, 0 seasons; 14 already there; 0 kept aside.\n"
    )
    assert row_counts(target) == counts


def test_importing_into_the_instance_it_came_from_adds_nothing(exported, capsys):
    _club, path, source = exported
    counts = row_counts(Path(source.instance_path))
    status, out, _err = run(capsys, "import", "--instance", source.instance_path, str(path))
    assert status == 0 and out.startswith("Imported 0 tables, 0 people, 0 evenings, 0 seasons;")
    assert row_counts(Path(source.instance_path)) == counts


def test_the_box_check_stays_on_the_computer(exported, tmp_path, capsys):
    """Issue 33 item 7: the box check's row (a check asked from a box page) is no part of an
    export, and an import brings none."""
    club, path, source = exported
    get_status(source).update(mode="simulator", connected=True)
    asked = source.test_client().post(f"/api/tables/{club['open']}/box-check", json={})
    assert asked.status_code == 202, asked.get_json()
    again = tmp_path / "again.json"
    status, _out, err = run(capsys, "export", "--instance", source.instance_path, str(again))
    assert (status, err) == (0, "")
    assert json.loads(again.read_text(encoding="utf-8")) == json.loads(
        path.read_text(encoding="utf-8")
    )
    target = tmp_path / "elsewhere"
    assert run(capsys, "import", "--instance", str(target), str(again))[0] == 0
    assert every_row(Path(source.instance_path))["box_check"] != []
    assert every_row(target)["box_check"] == []


def test_a_taken_table_id_gives_the_imported_table_a_new_one(exported, tmp_path, capsys):
    club, path, source = exported
    first = club["finished"][0]
    target = tmp_path / "elsewhere"
    with fresh_app(target).app_context():  # another table here already has the first id
        state = json.dumps(get_game("razzia").new_table({"players": ["Xena", "Yuri"]}))
        db.get_db().execute(
            "INSERT INTO tables (id, game, setup_json, state_json, created_at, updated_at)"
            ' VALUES (?, \'razzia\', \'{"players":["Xena","Yuri"]}\', ?, ?, ?)',
            (first, state, "2026-01-01T10:00:00+00:00", "2026-01-01T10:00:00+00:00"),
        )
    status, out, err = run(capsys, "import", "--instance", str(target), str(path))
    assert (status, err) == (0, "") and out.startswith("Imported 6 tables,")
    moved = fresh_app(target)
    with moved.app_context():
        created = json.loads(path.read_text("utf-8"))["tables"][0]["created_at"]
        new_id = (
            db.get_db()
            .execute("SELECT id FROM tables WHERE created_at = ? AND game = 'razzia'", (created,))
            .fetchone()[0]
        )
    assert new_id != first
    with source.test_request_context():
        code = source.test_client().get(f"/tables/{first}/export.json").get_json()
    again = moved.test_client().get(f"/tables/{new_id}/export.json").get_json()
    assert again["verification_code"] == code["verification_code"]
    assert again["results"] == code["results"]


def test_a_tampered_game_is_named_and_kept_aside(exported, tmp_path, capsys):
    club, path, _source = exported
    document = json.loads(path.read_text(encoding="utf-8"))
    for_sale = next(each for each in document["tables"] if each["game"] == "for_sale")
    bid = next(e for e in for_sale["log"] if e["kind"] == "move" and e["move"]["type"] == "bid")
    bid["move"]["coins"] += 1  # one coin more than was bid: the game ends elsewhere or not at all
    path.write_text(json.dumps(document), encoding="utf-8")
    target = tmp_path / "elsewhere"
    status, out, err = run(capsys, "import", "--instance", str(target), str(path))
    assert status == 1
    assert err.startswith(f"Table {for_sale['id']} was kept aside: ")
    assert f"; 1 kept aside ({for_sale['id']}) in {target}/import-rejected-" in out
    with fresh_app(target).app_context():
        assert [table.id for table in get_store().list_tables()].count(for_sale["id"]) == 0
    rejected = json.loads(next(target.glob("import-rejected-*.json")).read_text("utf-8"))
    assert [each["id"] for each in rejected["tables"]] == [for_sale["id"]]
    assert rejected["kept_aside"][0]["id"] == for_sale["id"]
    assert club["finished"][1] == for_sale["id"]
    again, out_again, _err = run(capsys, "import", "--instance", str(target), str(path))
    assert again == 1 and out_again.endswith(out.rpartition(" in ")[2])  # the same file
    assert out_again.startswith("Imported 0 tables,")
    assert len(list(target.glob("import-rejected-*.json"))) == 1


def test_people_already_here_are_found_by_the_rosters_comparison(exported, tmp_path, capsys):
    _club, path, _source = exported
    target = tmp_path / "elsewhere"
    with fresh_app(target).app_context():
        ann = get_store().create_table("razzia", {"players": ["ANN", "Zed"]}).id
    status, out, _err = run(capsys, "import", "--instance", str(target), str(path))
    assert status == 0
    assert out == (
        "Imported 6 tables, 4 people, 2 evenings, 1 season; 1 already there; 0 kept aside.\n"
    )
    with fresh_app(target).app_context():
        conn = db.get_db()
        assert sorted(p.name for p in roster.everyone(conn)) == [
            "ANN",
            "Bob",
            "Cid",
            "Dee",
            "Eve",
            "Zed",
        ]
        here = roster.seated(conn, ann)[0].id
        assert roster.find(conn, "Ann") == here
        sat = conn.execute("SELECT COUNT(*) FROM seats WHERE person_id = ?", (here,)).fetchone()
        assert sat[0] == 1 + 5  # her own table here and Ann's five of the file
        # what counts for her: the Razzia! game (the organiser took the For Sale one out)
        assert [play.game for play in finished.plays(conn, person=here)] == ["razzia"]


def test_a_changed_state_is_kept_aside_too(exported, tmp_path, capsys):
    _club, path, _source = exported
    document = json.loads(path.read_text(encoding="utf-8"))
    razzia = document["tables"][0]
    razzia["state"]["round"] = 2  # the file says one thing, the moves another
    path.write_text(json.dumps(document), encoding="utf-8")
    status, _out, err = run(capsys, "import", "--instance", str(tmp_path / "b"), str(path))
    assert status == 1
    assert err == (
        f"Table {razzia['id']} was kept aside: replayed, its moves end in another state than"
        " the one stored.\n"
    )


def bad_files() -> list[tuple[str, bytes, str]]:
    """(case, file bytes, a fragment of the sentence on stderr)."""
    good = {"format": "companion-club", "version": 1, "people": [], "evenings": []}
    good |= {"seasons": [], "tables": []}
    return [
        ("not JSON", b"{", "is not valid JSON"),
        ("not UTF-8", b'{"format": "\xff"}', "is not UTF-8 text"),
        ("a list", b"[]", "not a companion club export"),
        ("another format", json.dumps({**good, "format": "x"}).encode(), "format is not"),
        ("version 2", json.dumps({**good, "version": 2}).encode(), "version 2 of the club"),
        ("no tables", json.dumps({**good, "tables": None}).encode(), 'no list of "tables"'),
        (
            "a hidden name",
            json.dumps(
                {**good, "people": [{"id": 1, "name": "A\u200bn", "created_at": "2026-01-01"}]}
            ).encode(),
            "Person 1 has a name the roster refuses",
        ),
        (
            "a tablet named with a control character",
            json.dumps(
                {**good, "club_tablets": [{"id": 1, "name": "A\x07", "created_at": "2026-01-01"}]}
            ).encode(),
            "Club tablet 1: ",
        ),
        (
            "a merge in a circle",
            json.dumps(
                {
                    **good,
                    "people": [
                        {"id": 1, "name": "A", "created_at": "2026-01-01", "merged_into": 2},
                        {"id": 2, "name": "B", "created_at": "2026-01-01", "merged_into": 1},
                    ],
                }
            ).encode(),
            "Person 1 is merged in a circle",
        ),
        (
            "a season of no evening",
            json.dumps(
                {
                    **good,
                    "seasons": [
                        {
                            "id": 1,
                            "name": "S",
                            "created_at": "2026-01-01",
                            "evenings": [4],
                            "rule": {"kind": "placing", "points": [3, 1]},
                        }
                    ],
                }
            ).encode(),
            "Season 1 counts an evening the file does not list",
        ),
    ]


@pytest.mark.parametrize(("case", "raw", "fragment"), bad_files(), ids=[c[0] for c in bad_files()])
def test_a_bad_file_exits_2_with_a_sentence_and_changes_nothing(
    app, tmp_path, capsys, case, raw, fragment
):
    path = tmp_path / "bad.json"
    path.write_bytes(raw)
    with app.app_context():
        get_store().create_table("razzia", {"players": ["Ann", "Bob"]})
    counts = row_counts(Path(app.instance_path))
    status, out, err = run(capsys, "import", "--instance", app.instance_path, str(path))
    assert (status, out) == (2, "")
    assert err.startswith("Nothing was imported: ") and fragment in err and err.count("\n") == 1
    assert row_counts(Path(app.instance_path)) == counts
    status, _out, _err = run(capsys, "import", "--instance", str(tmp_path / "new"), str(path))
    assert status == 2 and not (tmp_path / "new").exists()  # a bad file creates no instance


def test_a_missing_file_or_database_exits_2(tmp_path, capsys):
    status, _out, err = run(capsys, "import", str(tmp_path / "none.json"))
    assert status == 2 and err.startswith("Nothing was imported: Cannot read ")
    status, _out, err = run(capsys, "export", "--instance", str(tmp_path), str(tmp_path / "x"))
    assert (
        status == 2 and err == f"There is no companion database at {tmp_path}/companion.sqlite3.\n"
    )


def test_an_export_that_cannot_be_written_exits_2_and_leaves_no_file(app, tmp_path, capsys):
    target = tmp_path / "missing" / "club.json"
    status, _out, err = run(capsys, "export", "--instance", app.instance_path, str(target))
    assert status == 2 and err.startswith(f"Cannot write {target}: ")
    assert not target.parent.exists()


def _undo_of_the_first_move(table: dict) -> None:
    """An undo appended that names the first move while a later one is the latest."""
    table["log"].append({**table["log"][-1], "seq": len(table["log"]) + 1, "kind": "undo"})
    table["log"][-1] |= {"move": None, "undoes": 1}


BROKEN_TABLES = {
    "an unknown game": (lambda t: t.update(game="chess"), "its game 'chess' is not known here."),
    "a refused setup": (lambda t: t["setup"].update(players=[]), "its setup is refused: "),
    "no log": (lambda t: t.update(log={}), "its log is not a list."),
    "a missing entry": (lambda t: t["log"].pop(0), "its log entry 1 is missing."),
    "a wrong undo": (_undo_of_the_first_move, "undoes 1, not the latest active move."),
    "a bad time": (lambda t: t.update(created_at="yesterday"), "its created_at is not a time."),
    "an unlisted person": (lambda t: t["seats"].__setitem__(0, 99), "person 99, whom the file"),
    "a seat too many": (lambda t: t["seats"].append(t["seats"][0]), "seats for 4 players."),
    "a bad id": (lambda t: t.update(id="../\x1b[2J"), "its id is not made of letters"),
    "a bad reveal": (lambda t: t["reveals"].append({"id": "x"}), "a reveal of it has no id."),
    "an unlisted tablet": (
        lambda t: t.update(counted={"how": "tablet", "tablet": 9, "at": t["created_at"]}),
        "it counts through club tablet 9, not listed in the file.",
    ),
    "a bad count": (lambda t: t.update(counted={"how": "friend"}), "its counted entry is wrong."),
}


@pytest.mark.parametrize("case", BROKEN_TABLES)
def test_a_broken_table_is_kept_aside_and_the_rest_imported(exported, tmp_path, capsys, case):
    _club, path, _source = exported
    document = json.loads(path.read_text(encoding="utf-8"))
    broken = document["tables"][0]  # the finished Razzia! table
    change, reason = BROKEN_TABLES[case]
    change(broken)
    path.write_text(json.dumps(document), encoding="utf-8")
    target = tmp_path / "elsewhere"
    status, out, err = run(capsys, "import", "--instance", str(target), str(path))
    assert status == 1
    assert err.startswith(f"Table {shown_id(broken['id'])} was kept aside: ") and reason in err
    assert "\x1b" not in out + err  # a file's control characters never reach the terminal
    assert out.startswith("Imported 5 tables, 5 people, 2 evenings, 1 season;")
    with fresh_app(target).app_context():
        assert len(get_store().list_tables()) == 4  # the abandoned one is not listed


def test_a_table_without_seats_finds_its_people_by_name(exported, tmp_path, capsys):
    club, path, _source = exported
    document = json.loads(path.read_text(encoding="utf-8"))
    razzia = document["tables"][0]
    razzia["seats"] = []  # as an older companion that had no roster could have written it
    path.write_text(json.dumps(document), encoding="utf-8")
    target = tmp_path / "elsewhere"
    status, _out, err = run(capsys, "import", "--instance", str(target), str(path))
    assert (status, err) == (0, "")
    with fresh_app(target).app_context():
        seated = [person.name for person in roster.seated(db.get_db(), club["finished"][0])]
    assert seated == ["Ann", "Bob", "Cid", "Dee"]  # Bobby's seat is Bob's: the merged spelling


def test_neither_command_runs_while_a_restore_replaces_the_database(exported, tmp_path, capsys):
    _club, path, source = exported
    counts = row_counts(Path(source.instance_path))
    with instance_lock.exclusive(source.instance_path):  # as `companion restore` holds it
        status, out, err = run(capsys, "import", "--instance", source.instance_path, str(path))
        assert (status, out) == (2, "")
        assert err == (
            "Nothing was imported: A restore is replacing the database; run this again once it"
            " is done.\n"
        )
        status, _out, err = run(
            capsys, "export", "--instance", source.instance_path, str(tmp_path / "again.json")
        )
        assert status == 2 and err.startswith("A restore is replacing the database")
    assert row_counts(Path(source.instance_path)) == counts
    assert not (tmp_path / "again.json").exists()


def test_a_file_from_an_older_release_whose_state_lacks_a_newer_key_imports(
    exported, tmp_path, capsys
):
    club, path, source = exported
    document = json.loads(path.read_text(encoding="utf-8"))
    razzia = document["tables"][0]
    added_later = sorted(razzia["state"])[-1]
    del razzia["state"][added_later]  # as an older release stored it, before the key existed
    path.write_text(json.dumps(document), encoding="utf-8")
    target = tmp_path / "elsewhere"
    status, _out, err = run(capsys, "import", "--instance", str(target), str(path))
    assert (status, err) == (0, "")
    with source.app_context():
        expected = get_store().get(razzia["id"]).state
    with fresh_app(target).app_context():  # the replay's state is written, key and all
        assert get_store().get(club["finished"][0]).state == expected


@pytest.mark.parametrize("fixture", ["4444574", "420566e"])
def test_a_club_an_older_release_kept_moves_whole(fixture, tmp_path, capsys):
    """A golden database of an older release (tests/fixtures/golden), opened by today's code,
    exported and imported elsewhere: every table goes in (its Cech zlodějů game from before
    the no_card confirmation too) with the verification code it had."""
    packed = Path(__file__).parents[1] / "fixtures" / "golden" / f"{fixture}.sqlite.gz"
    expected = json.loads(packed.with_name(f"{fixture}.expected.json").read_text("utf-8"))
    source = tmp_path / "source"
    source.mkdir()
    with gzip.open(packed) as packed_file, open(source / "companion.sqlite3", "wb") as out:
        shutil.copyfileobj(packed_file, out)
    fresh_app(source)  # migrated as a start of today's companion would
    path, target = tmp_path / "club.json", tmp_path / "elsewhere"
    assert run(capsys, "export", "--instance", str(source), str(path))[0] == 0
    status, out, err = run(capsys, "import", "--instance", str(target), str(path))
    assert (status, err) == (0, ""), err
    assert "0 kept aside" in out
    with fresh_app(target).app_context():
        store = get_store()
        for want in expected["tables"]:
            entries = store.history(want["id"])
            table = store.get(want["id"])
            code = verification_code(table.game, table.setup, active_moves(entries))
            assert code == want["verification_code"], (want["id"], want["game"])
