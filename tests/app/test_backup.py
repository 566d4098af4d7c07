"""Backups (docs/backups.md): `companion backup` under moves, `companion restore` and its checks,
the instance lock, the automatic backups' rules (an injected clock) and their retention."""

import gzip
import os
import shutil
import sqlite3
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bench.longest_game import PLAYERS
from bench.longest_game import next_move as razzia_move
from companion_app import cli, create_app
from companion_app.store import backup, backup_auto, backup_check, db, get_store, instance_lock
from scoring import razzia
from scoring.razzia import cards
from tests.live import json_request, served

#: A liveness bound for the backup thread and the move poster, never a speed claim.
WAIT_S = 60.0
#: Razzia! tables the poster plays, and the moves of each (its long game's first moves).
TABLES, MOVES_PER_TABLE = 4, 30


def make_app(instance, **settings):
    """An app on `instance` (its database and backups live there)."""
    return create_app({"TESTING": True, "SECRET_KEY": "t", **settings}, instance_path=str(instance))


def play(app, tables=2, moves=3):
    """Tables of the counter game with `moves` moves each, through the store; their ids."""
    with app.app_context():
        store = get_store()
        ids = []
        for _ in range(tables):
            table = store.create_table("counter", {"players": ["Ann", "Bob"]})
            for _ in range(moves):
                table = store.apply_move(table.id, next_move(table.state), table.version)
            ids.append(table.id)
        return ids


def next_move(state):
    """Add 1 for the seat whose turn it is."""
    return {"type": "add", "seat": state["turn"], "n": 1}


def snapshot(app):
    """Every table's (id, version, state) as the store reads it."""
    with app.app_context():
        return sorted((t.id, t.version, t.state) for t in get_store().list_tables())


def run_cli(capsys, *argv):
    """`companion ...` in-process: (exit status, stdout, stderr)."""
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def check_file(path):
    """backup_check's findings on a file (it must pass)."""
    conn = backup.open_existing(str(path))
    try:
        return backup_check.check(conn, str(path))
    finally:
        conn.close()


def database(instance):
    """The database file of an instance folder."""
    return instance / "companion.sqlite3"


class Poster(threading.Thread):
    """Razzia! moves posted over HTTP to a real server, every acknowledged version remembered."""

    def __init__(self, base_url, copy_taken):
        super().__init__(daemon=True)
        self.base_url, self.copy_taken = base_url, copy_taken
        self.acknowledged: dict[str, int] = {}
        self.halfway = threading.Event()
        self.failure: object = None

    def run(self):
        try:
            for index in range(TABLES):
                self._play_one()
                if index == 0:
                    self.halfway.set()  # the copies start now ...
                    assert self.copy_taken.wait(WAIT_S)  # ... and one ends while moves go on
        except BaseException as exc:  # reported by the test, not lost in the thread
            self.failure = exc
            self.halfway.set()

    def _play_one(self):
        status, table = json_request(
            self.base_url, "POST", "/api/tables", {"game": "razzia", "players": PLAYERS}
        )
        assert status == 201, table
        for _ in range(MOVES_PER_TABLE):
            body = {"version": table["version"], "move": razzia_move(table["state"])}
            status, table = json_request(
                self.base_url, "POST", f"/api/tables/{table['id']}/moves", body
            )
            assert status == 200, table
            self.acknowledged[table["id"]] = table["version"]


def test_backup_while_serving_under_moves(tmp_path, capsys):
    """Copies taken while a thread posts moves to a real server open, pass every check, and
    the live database keeps every acknowledged move."""
    instance = tmp_path / "instance"
    app = make_app(instance)
    copy_taken = threading.Event()
    copies = []
    with served(app) as server:
        poster = Poster(f"http://127.0.0.1:{server.server_port}", copy_taken)
        poster.start()
        assert poster.halfway.wait(WAIT_S)
        while poster.is_alive() or not copies:
            target = tmp_path / f"copy-{len(copies)}.sqlite3"
            status, out, err = run_cli(capsys, "backup", "--instance", str(instance), str(target))
            assert (status, err) == (0, ""), err
            assert str(target) in out and "bytes" in out
            copies.append(target)
            copy_taken.set()
        poster.join(WAIT_S)
    assert poster.failure is None, poster.failure
    assert len(poster.acknowledged) == TABLES
    for copy in copies:
        found = check_file(copy)  # integrity, schema version, every table replays
        assert found.schema_version == db.SCHEMA_VERSION and found.tables >= 1
        assert not os.path.exists(f"{copy}-wal")  # one self-contained file
    live = {table_id: version for table_id, version, _state in snapshot(app)}
    assert live == poster.acknowledged


def test_backup_default_goes_to_the_backups_folder(tmp_path, counter, capsys):
    instance = tmp_path / "instance"
    play(make_app(instance))
    status, out, _ = run_cli(capsys, "backup", "--instance", str(instance))
    assert status == 0
    (made,) = backup.listed(str(instance))
    assert made.name.endswith("-manual.sqlite3") and made.name in out
    assert check_file(instance / "backups" / made.name).tables == 2


def test_backup_refusals_are_sentences(tmp_path, counter, capsys):
    """No database, a place that cannot be written, the database itself: exit 2, a sentence."""
    nothing = tmp_path / "empty"
    status, out, err = run_cli(capsys, "backup", "--instance", str(nothing))
    assert (status, out) == (2, "") and "There is no database" in err
    assert not nothing.exists()  # a backup never creates a database, nor its folder
    instance = tmp_path / "instance"
    play(make_app(instance))
    (tmp_path / "a-file").write_text("x")
    status, _, err = run_cli(
        capsys, "backup", "--instance", str(instance), str(tmp_path / "a-file" / "b.sqlite3")
    )
    assert status == 2 and err.startswith("Cannot write the backup") and "Traceback" not in err
    status, _, err = run_cli(capsys, "backup", "--instance", str(instance), str(database(instance)))
    assert status == 2 and "is the database itself" in err


def test_backup_refused_while_a_restore_holds_the_instance(tmp_path, counter, capsys):
    instance = tmp_path / "instance"
    play(make_app(instance))
    with instance_lock.exclusive(str(instance)):  # what a restore holds
        status, out, err = run_cli(capsys, "backup", "--instance", str(instance))
    assert (status, out) == (2, "") and "A restore is replacing the database" in err
    assert backup.listed(str(instance)) == []


def test_restore_after_damage(tmp_path, counter, capsys):
    """The live file truncated and garbled: the backup restored, the app opens with the tables."""
    instance = tmp_path / "instance"
    app = make_app(instance)
    play(app, tables=3, moves=4)
    before = snapshot(app)
    kept = tmp_path / "kept.sqlite3"
    assert run_cli(capsys, "backup", "--instance", str(instance), str(kept))[0] == 0
    live = database(instance)
    with open(live, "r+b") as damaged:
        damaged.truncate(3000)
        damaged.seek(0)
        damaged.write(b"\x00garbage" * 20)
    with pytest.raises(sqlite3.DatabaseError):
        make_app(instance)  # the damage is real: the app no longer opens
    status, out, err = run_cli(capsys, "restore", "--instance", str(instance), str(kept))
    assert (status, err) == (0, ""), err
    assert "3 table(s) replay" in out
    aside = [name for name in os.listdir(instance) if ".before-restore-" in name]
    assert any(not name.endswith(("-wal", "-shm")) for name in aside)
    assert snapshot(make_app(instance)) == before


def test_restore_refused_while_a_server_holds_the_lock(tmp_path, counter, capsys):
    instance = tmp_path / "instance"
    app = make_app(instance)  # kept: its open connection keeps the WAL files where they are
    play(app)
    kept = tmp_path / "kept.sqlite3"
    assert run_cli(capsys, "backup", "--instance", str(instance), str(kept))[0] == 0
    listing, content = sorted(os.listdir(instance)), database(instance).read_bytes()
    held = instance_lock.hold_shared(str(instance))  # what `companion serve` holds
    try:
        status, out, err = run_cli(capsys, "restore", "--instance", str(instance), str(kept))
    finally:
        held.close()
    assert (status, out) == (2, "")
    assert err.startswith("Stop the companion first:") and "Nothing was changed." in err
    assert sorted(os.listdir(instance)) == listing and database(instance).read_bytes() == content
    assert snapshot(app)


def test_companion_serve_holds_the_lock_and_backs_up_at_start(tmp_path, capsys):
    """The real `companion serve`: a backup at its start, a restore refused until it stops."""
    from tests.app.live_server import free_port, start_server

    instance = tmp_path / "instance"
    server = start_server(instance, free_port(), tmp_path / "serve.log")
    try:
        deadline = time.monotonic() + WAIT_S
        while not backup.listed(str(instance)) and time.monotonic() < deadline:
            time.sleep(0.05)
        (started,) = backup.listed(str(instance))
        assert started.name.endswith("-start.sqlite3")
        copy = instance / "backups" / started.name
        status, _, err = run_cli(capsys, "restore", "--instance", str(instance), str(copy))
        assert status == 2 and "Stop the companion first" in err
    finally:
        server.terminate()
        server.wait(WAIT_S)
    status, _, err = run_cli(capsys, "restore", "--instance", str(instance), str(copy))
    assert (status, err) == (0, "")


def tamper(path, sql):
    """Change a backup file behind the companion's back."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute(sql)
    finally:
        conn.close()


def garble_a_page(path):
    """Overwrite the middle of the log's root page with noise (the file's header stays)."""
    conn = sqlite3.connect(path)
    try:
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'log'").fetchone()
    finally:
        conn.close()
    with open(path, "r+b") as file:
        file.seek((root - 1) * size + 8)
        file.write(bytes(range(256)) * (size // 512))


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (lambda path: garble_a_page(path), ("damaged", "not a readable")),
        (lambda path: path.write_bytes(b"not a database at all" * 50), ("not an SQLite",)),
        (
            lambda path: tamper(path, f"PRAGMA user_version={db.SCHEMA_VERSION + 1}"),
            ("newer than this companion knows",),
        ),
        (
            lambda path: tamper(path, "UPDATE log SET move_json = json_set(move_json, '$.n', 3)"),
            ("does not replay to its stored state",),
        ),
        (
            lambda path: tamper(path, "UPDATE log SET move_json = '{' WHERE seq = 2"),
            ("does not replay (JSONDecodeError",),
        ),
        (
            lambda path: tamper(path, "DELETE FROM log WHERE seq = 3"),
            ("its log has 5 row(s)",),
        ),
        (
            lambda path: tamper(
                path, "UPDATE log SET state_json = json_set(state_json, '$.total', 99)"
            ),
            ("does not replay to its stored state",),
        ),
        (lambda path: tamper(path, "DROP TABLE log"), ("not the companion's",)),
    ],
    ids=[
        "garbled",
        "not-sqlite",
        "newer-schema",
        "move-edited",
        "move-unreadable",
        "row-lost",
        "snapshot-edited",
        "no-log",
    ],
)
def test_restore_refuses_a_bad_backup(tmp_path, counter, capsys, damage, says):
    """A bad backup: exit 2, a sentence naming what is wrong, the database untouched."""
    instance = tmp_path / "instance"
    app = make_app(instance)  # kept: its open connection keeps the WAL files where they are
    play(app, tables=12, moves=6)  # several pages, so one can be garbled
    bad = tmp_path / "bad.sqlite3"
    assert run_cli(capsys, "backup", "--instance", str(instance), str(bad))[0] == 0
    damage(bad)
    listing, content = sorted(os.listdir(instance)), database(instance).read_bytes()
    status, out, err = run_cli(capsys, "restore", "--instance", str(instance), str(bad))
    assert (status, out) == (2, "")
    assert any(part in err for part in says), err
    assert "Traceback" not in err and err.rstrip().endswith("Nothing was changed.")
    assert sorted(os.listdir(instance)) == listing and database(instance).read_bytes() == content
    assert snapshot(app)


def test_restore_takes_a_database_an_older_release_wrote(tmp_path, capsys):
    """A golden database of 4444574 (schema 1): restored, every table replayed (its Cech
    zlodějů game from before the no_card confirmation too); the app migrates it and has every
    table."""
    packed = Path(__file__).parents[1] / "fixtures" / "golden" / "4444574.sqlite.gz"
    old = tmp_path / "old.sqlite3"
    with gzip.open(packed) as source, open(old, "wb") as out:
        shutil.copyfileobj(source, out)
    instance = tmp_path / "instance"
    status, out, err = run_cli(capsys, "restore", "--instance", str(instance), str(old))
    assert (status, err) == (0, ""), err
    assert "11 table(s) replay" in out and "no longer replay" not in out
    app = make_app(instance)
    with app.app_context():
        assert db.get_db().execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 11
        assert db.get_db().execute("PRAGMA user_version").fetchone()[0] == db.SCHEMA_VERSION
    assert len(snapshot(app)) == 10  # one of the eleven was abandoned


class Clock:
    """A clock the test moves."""

    def __init__(self):
        self.now = datetime(2026, 12, 3, 18, 0, tzinfo=UTC)

    def __call__(self):
        return self.now

    def advance(self, **delta):
        self.now += timedelta(**delta)


@pytest.fixture
def auto(app):
    """The app's automatic backups on a test clock; (AutoBackup, clock), stopped afterwards."""
    clock = Clock()
    started = backup_auto.start(app, clock)
    assert started.wait_idle(WAIT_S)
    yield started, clock
    started.stop()


QUICK_PLAYERS = ["Ann", "Bob", "Cid"]


def quick_game() -> list[dict]:
    """A short whole Razzia! game for three: every turn draws the police (78 moves)."""
    state, moves = razzia.new_table({"players": QUICK_PLAYERS}), []
    while state["phase"] != "game_over":
        move = razzia_move(state)
        if move["type"] == "deal":
            move = {"type": "deal", "sets": ["A", "B", "C"]}
        elif move["type"] in ("draw", "thief", "forced_auction"):
            move = {"type": "draw", "seat": move["seat"], "card": cards.POLICE}
        state = razzia.apply(state, move)
        moves.append(move)
    return moves


QUICK_GAME = quick_game()


def post_move(client, table):
    """The table's next move through the API (the after-request hook notifies the feed)."""
    body = {"version": table["version"], "move": QUICK_GAME[table["version"]]}
    response = client.post(f"/api/tables/{table['id']}/moves", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def new_table(client):
    """A Razzia! table for three through the API."""
    response = client.post("/api/tables", json={"game": "razzia", "players": QUICK_PLAYERS})
    assert response.status_code == 201
    return response.get_json()


def reasons(started):
    """Why each backup so far was taken (the end of its name)."""
    return [path.rsplit("-", 1)[1].removesuffix(".sqlite3") for path in started.taken]


def test_automatic_backup_at_start_and_hourly_while_moves_arrive(app, client, auto):
    """At most one an hour, taken after a move; no move (or another write): no backup."""
    started, clock = auto
    assert reasons(started) == ["start"]
    table, other = new_table(client), new_table(client)
    table = post_move(client, table)
    assert started.wait_idle(WAIT_S) and reasons(started) == ["start"]  # not an hour yet
    clock.advance(minutes=61)
    assert started.wait_idle(WAIT_S) and reasons(started) == ["start"]  # no move: no backup
    table = post_move(client, table)
    assert started.wait_idle(WAIT_S) and reasons(started) == ["start", "hourly"]
    clock.advance(minutes=30)
    table = post_move(client, table)
    assert started.wait_idle(WAIT_S) and reasons(started) == ["start", "hourly"]
    clock.advance(minutes=31)
    table = post_move(client, table)
    assert started.wait_idle(WAIT_S) and reasons(started) == ["start", "hourly", "hourly"]
    clock.advance(minutes=61)
    assert client.post(f"/api/tables/{other['id']}/abandon", json={}).status_code == 200
    assert started.wait_idle(WAIT_S) and reasons(started) == ["start", "hourly", "hourly"]
    for path in started.taken:
        check_file(path)
    assert check_file(started.taken[-1]).tables == 2


def test_automatic_backup_when_the_evenings_last_table_ends(app, client, auto):
    started, _clock = auto
    first, second = new_table(client), new_table(client)
    while not first["finished"]:
        first = post_move(client, first)
    assert started.wait_idle(WAIT_S) and reasons(started) == ["start"]  # one still in play
    while not second["finished"]:
        second = post_move(client, second)
    assert started.wait_idle(WAIT_S) and reasons(started) == ["start", "evening"]
    assert check_file(started.taken[-1]).tables == 2


def test_a_failed_automatic_backup_is_one_log_line_and_the_move_stands(
    app, client, caplog, tmp_path
):
    (tmp_path / "backups").write_text("a file where the folder should be")
    started = backup_auto.start(app, Clock())
    try:
        assert started.wait_idle(WAIT_S)
        table = post_move(client, new_table(client))
        assert table["version"] == 1
    finally:
        started.stop()
    failed = [record for record in caplog.records if "Automatic backup failed" in record.message]
    assert len(failed) == 1 and "\n" not in failed[0].getMessage()


def test_retention_keeps_the_newest_within_count_and_size(tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    base = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    names = []
    for hour in range(6):  # 100 bytes each, the newest last
        when = base + timedelta(hours=hour)
        path = backup.dated_path(str(folder), backup.HOURLY, when)
        with open(path, "wb") as made:
            made.write(b"x" * 100)
        os.utime(path, (when.timestamp(), when.timestamp()))
        names.append(os.path.basename(path))
    (folder / "notes.txt").write_text("not a backup: never pruned")
    assert backup.prune(str(tmp_path), keep=4, max_bytes=10_000) == names[1::-1]
    assert [b.name for b in backup.listed(str(tmp_path))] == names[:1:-1]
    assert backup.prune(str(tmp_path), keep=4, max_bytes=250) == [names[3], names[2]]
    assert backup.prune(str(tmp_path), keep=4, max_bytes=50) == [names[4]]  # the newest stays
    assert [b.name for b in backup.listed(str(tmp_path))] == [names[5]]
    assert (folder / "notes.txt").exists()


def test_automatic_backups_stay_within_the_configured_count(tmp_path):
    app = make_app(tmp_path / "instance", BACKUP_KEEP=2)
    clock = Clock()
    started = backup_auto.start(app, clock)
    client = app.test_client()
    try:
        # the start backup reads the clock in its thread: taken before the clock moves on
        assert started.wait_idle(WAIT_S)
        table = new_table(client)
        for _ in range(3):
            clock.advance(hours=2)
            table = post_move(client, table)
            assert started.wait_idle(WAIT_S)
    finally:
        started.stop()
    assert len(started.taken) == 4
    kept = [b.name for b in backup.listed(str(tmp_path / "instance"))]
    assert kept == [os.path.basename(path) for path in started.taken[:1:-1]]
