"""Writers take turns on the database's lock file (issue 33 item 7: bursts across workers).

SQLite's busy handler makes a waiting writer sleep and retry; the lock file wakes the next
writer when the last one commits. These check the turn is taken and released, not speed.
"""

import threading
import time

import pytest

from companion_app.store import db

pytestmark = pytest.mark.skipif(db.fcntl is None, reason="no flock on this platform")


def _database(tmp_path):
    """A file with one table, and its path."""
    path = str(tmp_path / "turns.sqlite3")
    conn = db.connect(path)
    conn.execute("CREATE TABLE moves (n INTEGER)")
    conn.close()
    return path


def test_a_writer_waits_for_the_turn_another_holds(tmp_path):
    """Issue 33 item 7: a second writer starts only when the first gives the turn back."""
    path = _database(tmp_path)
    first = db.connect(path)
    wrote = threading.Event()

    def write() -> None:
        second = db.connect(path)
        try:
            with db.write_transaction(second):
                second.execute("INSERT INTO moves VALUES (2)")
            wrote.set()
        finally:
            second.close()

    try:
        with db._writers_turn(first):
            writer = threading.Thread(target=write)
            writer.start()
            time.sleep(0.2)
            assert not wrote.is_set()  # it cannot have gone past the turn we hold
        writer.join(timeout=30)
        assert wrote.is_set()
        assert [row[0] for row in first.execute("SELECT n FROM moves")] == [2]
    finally:
        first.close()
    assert (tmp_path / "turns.sqlite3-writer").exists()


def test_a_failed_transaction_gives_the_turn_back(tmp_path):
    """Issue 33 item 7: a transaction that raises rolls back and the next writer goes on."""
    path = _database(tmp_path)
    conn = db.connect(path)
    try:
        with pytest.raises(RuntimeError), db.write_transaction(conn):
            conn.execute("INSERT INTO moves VALUES (1)")
            raise RuntimeError("the move was refused")
        with db.write_transaction(conn):
            conn.execute("INSERT INTO moves VALUES (3)")
        assert [row[0] for row in conn.execute("SELECT n FROM moves")] == [3]
    finally:
        conn.close()
