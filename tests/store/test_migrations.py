"""The migration runner: fresh files, version-1 files, newer files, interruptions, copies."""

import sqlite3
import subprocess
import sys

import pytest

from companion_app import create_app
from companion_app.store import db, migrations
from companion_app.store.migrations import MIGRATIONS, Migration, SchemaTooNew

LATEST = migrations.latest_version()


def open_db(path) -> sqlite3.Connection:
    """The companion's own kind of connection to `path`."""
    return db.connect(str(path))


def version_of(path) -> int:
    """The user_version recorded in the file at `path`."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def names_in(path) -> set[str]:
    """The tables and indexes in the file at `path`."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        return {name for (name,) in rows}
    finally:
        conn.close()


def schema_of(path) -> set[tuple[str, str]]:
    """Every table's and index's name and SQL in the file at `path`."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL")
        return {(name, " ".join(sql.split())) for name, sql in rows}
    finally:
        conn.close()


def version_one_file(path, *later: str) -> None:
    """A file as the first release wrote it (with some later tables, as releases did)."""
    conn = sqlite3.connect(path)
    conn.executescript(migrations.TABLES_AND_LOG + "".join(later))
    conn.execute(
        "INSERT INTO tables VALUES ('t1', 'razzia', '{}', '{}', 0, 0, '2026-11-30', '2026-11-30')"
    )
    conn.execute("PRAGMA user_version=1")
    conn.commit()
    conn.close()


def test_the_registry_is_numbered_one_two_three():
    migrations.check_numbering(MIGRATIONS)
    assert db.SCHEMA_VERSION == LATEST == len(MIGRATIONS)


def test_a_registry_with_a_gap_is_refused(tmp_path):
    gap = (MIGRATIONS[0], Migration(3, "skips 2", "CREATE TABLE x (a);"))
    conn = open_db(tmp_path / "gap.sqlite")
    with pytest.raises(ValueError, match="1, 2, 3"):
        migrations.migrate(conn, str(tmp_path / "gap.sqlite"), gap)
    assert migrations.user_version(conn) == 0
    conn.close()


def test_a_fresh_file_gets_the_latest_version_and_no_copy(tmp_path):
    path = tmp_path / "fresh.sqlite"
    assert db.init_schema(str(path)) is None
    assert version_of(path) == LATEST
    assert {"tables", "log", "reveals", "people", "table_origins", "settings"} <= names_in(path)
    assert not list(tmp_path.glob("*.before-v*"))


def test_opening_a_current_file_changes_nothing_and_keeps_no_copy(tmp_path):
    path = tmp_path / "current.sqlite"
    db.init_schema(str(path))
    assert db.init_schema(str(path)) is None
    assert not list(tmp_path.glob("*.before-v*"))


def test_a_version_one_file_is_upgraded_to_the_shape_of_a_fresh_one(tmp_path):
    old, fresh = tmp_path / "old.sqlite", tmp_path / "fresh.sqlite"
    version_one_file(old)
    db.init_schema(str(old))
    db.init_schema(str(fresh))
    assert version_of(old) == LATEST
    assert schema_of(old) == schema_of(fresh)
    conn = sqlite3.connect(old)
    assert conn.execute("SELECT id FROM tables").fetchall() == [("t1",)]
    conn.close()


def test_a_version_one_file_that_already_has_later_tables_keeps_their_rows(tmp_path):
    path = tmp_path / "old.sqlite"
    version_one_file(path, migrations.REVEALS_AND_SETTINGS, migrations.ABANDONED_TABLES)
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO settings VALUES ('device_table', '\"t1\"')")
    conn.execute("INSERT INTO abandoned_tables VALUES ('t1', '2026-11-30')")
    conn.commit()
    conn.close()
    db.init_schema(str(path))
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT value_json FROM settings").fetchall() == [('"t1"',)]
    assert conn.execute("SELECT table_id FROM abandoned_tables").fetchall() == [("t1",)]
    conn.close()
    assert version_of(path) == LATEST


def test_a_copy_of_the_old_file_is_kept_before_migrating(tmp_path):
    path = tmp_path / "old.sqlite"
    version_one_file(path)
    kept = db.init_schema(str(path))
    assert kept == f"{path}.before-v{LATEST}"
    assert version_of(kept) == 1
    assert names_in(kept) == {"tables", "log", "tables_by_activity"}
    conn = sqlite3.connect(kept)
    assert conn.execute("SELECT id FROM tables").fetchall() == [("t1",)]
    conn.close()


def test_a_second_copy_never_replaces_the_first(tmp_path):
    path = tmp_path / "old.sqlite"
    version_one_file(path)
    first = f"{path}.before-v{LATEST}"
    with open(first, "w") as earlier:
        earlier.write("an earlier copy")
    assert db.init_schema(str(path)) == f"{first}.1"
    with open(first) as earlier:
        assert earlier.read() == "an earlier copy"


def test_a_newer_file_is_refused_with_its_path_and_both_versions(tmp_path):
    path = tmp_path / "companion.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE future (a)")
    conn.execute(f"PRAGMA user_version={LATEST + 1}")
    conn.close()
    with pytest.raises(SchemaTooNew) as refused:
        create_app({"TESTING": True, "SECRET_KEY": "test"}, instance_path=str(tmp_path))
    assert (refused.value.path, refused.value.found, refused.value.known) == (
        str(path),
        LATEST + 1,
        LATEST,
    )
    sentence = str(refused.value)
    assert str(path) in sentence and f"{LATEST + 1}" in sentence and f"{LATEST}" in sentence
    assert sentence.endswith(".") and "\n" not in sentence
    assert version_of(path) == LATEST + 1
    assert names_in(path) == {"future"}
    assert not list(tmp_path.glob("*.before-v*"))


def failing(_conn: sqlite3.Connection) -> None:
    """A migration step that breaks after its SQL ran."""
    raise RuntimeError("the disk went away")


def test_a_failed_migration_leaves_the_version_and_shape_it_found(tmp_path):
    path = tmp_path / "old.sqlite"
    version_one_file(path)
    broken = (*MIGRATIONS, Migration(LATEST + 1, "breaks", "CREATE TABLE half (a);", failing))
    conn = open_db(path)
    with pytest.raises(RuntimeError, match="disk went away"):
        migrations.migrate(conn, str(path), broken)
    assert not conn.in_transaction
    conn.close()
    assert version_of(path) == LATEST  # the earlier migrations committed, each on its own
    assert "half" not in names_in(path)
    conn = open_db(path)
    assert migrations.migrate(conn, str(path)) is None  # today's code opens it as it is
    conn.close()


KILLED_MID_MIGRATION = """
import os, sys
from companion_app.store import db, migrations

def die(_conn):
    os._exit(9)

sql = "CREATE TABLE half (a); INSERT INTO half VALUES (1);"
cut = migrations.Migration(migrations.latest_version() + 1, "cut off", sql, die)
steps = (*migrations.MIGRATIONS, cut)
conn = db.connect(sys.argv[1])
migrations.migrate(conn, sys.argv[1], steps)
"""


def test_a_process_killed_inside_a_migration_leaves_the_version_it_found(tmp_path):
    path = tmp_path / "cut.sqlite"
    db.init_schema(str(path))
    done = subprocess.run(
        [sys.executable, "-c", KILLED_MID_MIGRATION, str(path)], capture_output=True, check=False
    )
    assert done.returncode == 9, done.stderr
    assert version_of(path) == LATEST
    assert "half" not in names_in(path)


def test_statements_are_split_where_sqlite_ends_them():
    script = "-- a note; with a semicolon\nCREATE TABLE a (b TEXT DEFAULT ';');\nSELECT 1;\n"
    assert list(migrations.statements(script)) == [
        "-- a note; with a semicolon\nCREATE TABLE a (b TEXT DEFAULT ';');",
        "SELECT 1;",
    ]
    with pytest.raises(ValueError, match="unfinished"):
        list(migrations.statements("CREATE TABLE a (b"))


def test_no_migration_runs_when_the_copy_cannot_be_made(tmp_path, monkeypatch):
    path = tmp_path / "old.sqlite"
    version_one_file(path)

    def full_disk(_conn, _path, _version):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(migrations, "keep_copy", full_disk)
    with pytest.raises(OSError, match="No space"):
        db.init_schema(str(path))
    assert version_of(path) == 1
    assert names_in(path) == {"tables", "log", "tables_by_activity"}


class BrokenSource:
    """A connection whose backup starts writing the copy and then fails."""

    def backup(self, copy: sqlite3.Connection) -> None:
        copy.execute("CREATE TABLE started (a)")
        raise sqlite3.OperationalError("disk I/O error")


def test_half_a_copy_is_removed(tmp_path):
    path = tmp_path / "old.sqlite"
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        migrations.keep_copy(BrokenSource(), str(path), LATEST)
    assert not list(tmp_path.glob("*.before-v*"))


def test_a_migration_another_process_already_ran_is_not_run_again(tmp_path):
    path = tmp_path / "old.sqlite"
    version_one_file(path)
    first, second = open_db(path), open_db(path)
    stale = migrations.user_version(second)  # read before the other process migrated
    migrations.migrate(first, str(path))
    assert stale == 1
    assert [migrations.apply(second, each) for each in MIGRATIONS[1:]] == [False] * (LATEST - 1)
    assert migrations.user_version(second) == LATEST
    first.close()
    second.close()
