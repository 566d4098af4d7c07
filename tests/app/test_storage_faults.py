"""A full or read-only disk while serving: moves refused in a sentence, reads go on, nothing lost.

The instance folder is a small tmpfs mounted for the test (root, as in CI), filled to the last
byte by a file the test deletes again, or remounted read-only.
"""

import errno
import logging
import sqlite3
from pathlib import Path

from companion_app import create_app
from companion_app.store import db, faults, get_store
from tests.disks import fill, mount, small_disk
from tests.web import game_script as g
from tests.web.conftest import Pages
from tests.web.test_moves import error_in
from tests.web.test_pages import table_id, text

FULL = "The companion could not save: the disk is full; nothing was changed."
READ_ONLY = "The companion could not save: the disk is read-only; nothing was changed."
FULL_CS = "Aplikace nemohla uložit: disk je plný; nic se nezměnilo."
FAULT_LOGGER = "companion_app.store.faults"


class Clock:
    """The fault log's clock, moved by the test (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def serving(instance: Path, clock: Clock | None = None):
    """The app on `instance`, its fault log reading `clock`."""
    config = {"TESTING": True, "SECRET_KEY": "test", faults.CLOCK_KEY: clock or Clock()}
    return create_app(config, instance_path=str(instance))


def api_move(client, url: str, step: tuple, version: int):
    """POST one scripted step to the API; (status, json)."""
    body = {"version": version, "move": g.as_form(step)}
    response = client.post(f"/api/tables/{table_id(url)}/moves", json=body)
    return response.status_code, response.get_json()


def stored(app, url: str) -> tuple[int, list]:
    """The table's version and its log (kind, move) as stored."""
    with app.app_context():
        store = get_store()
        entries = store.history(table_id(url))
        return store.get(table_id(url)).version, [(each.kind, each.move) for each in entries]


def fault_lines(caplog) -> list[logging.LogRecord]:
    """The fault log's records so far."""
    return [record for record in caplog.records if record.name == FAULT_LOGGER]


def assert_reads_work(client, url: str) -> None:
    """The table page, its history, the home page and the table's JSON still answer."""
    for path in (url, f"{url}/history", "/", f"/api/tables/{table_id(url)}"):
        assert client.get(path).status_code == 200, path


def assert_new_tables_refused(client, sentence: str) -> None:
    """A new table's form keeps the names typed and says why under them (503); the API 503s."""
    response = client.post("/tables/new/razzia", data={"player": ["Eva", "Filip", "Gita"]})
    page = text(response)
    assert response.status_code == 503 and error_in(page, "players") == sentence
    assert 'value="Filip"' in page
    response = client.post("/api/tables", json={"game": "razzia", "players": ["Eva", "Filip"]})
    assert response.status_code == 503 and response.get_json()["error"]


def test_a_full_disk_refuses_moves_in_a_sentence_and_loses_nothing(tmp_path, caplog):
    """Disk full: the form says so at its control, the API answers 503, one log line per 10 s,
    reads go on; space freed, the next move goes through; all of it there after a restart."""
    caplog.set_level(logging.INFO)
    clock = Clock()
    with small_disk(tmp_path / "disk") as instance:
        app = serving(instance, clock)
        client = app.test_client()
        pages = Pages(client)
        url = pages.dealt()
        pages.play(url, g.ROUND_1[:2])
        acknowledged = stored(app, url)
        filler = fill(instance)

        response = pages.post(url, g.as_form(g.ROUND_1[2]))
        assert response.headers["Location"] == f"{url}#draw"
        assert error_in(text(client.get(url)), "draw") == FULL
        status, answer = api_move(client, url, g.ROUND_1[2], acknowledged[0])
        assert (status, answer) == (503, {"error": FULL})
        clock.now += faults.LOG_EVERY_S - 1
        client.post("/lang", data={"lang": "cs", "next": "/"})
        pages.post(url, g.as_form(g.ROUND_1[2]))
        assert error_in(text(client.get(url)), "draw") == FULL_CS
        assert_new_tables_refused(client, FULL_CS)
        client.post(f"{url}/undo", data={"version": acknowledged[0]})
        assert error_in(text(client.get(f"{url}/history")), "undo") == FULL_CS
        assert stored(app, url) == acknowledged
        assert_reads_work(client, url)

        lines = fault_lines(caplog)
        assert len(lines) == 1 and "the disk is full" in lines[0].getMessage()
        assert f"POST {url}/moves refused." in lines[0].getMessage()
        assert all(record.exc_info is None for record in caplog.records)
        assert not [record for record in caplog.records if "Unhandled" in record.getMessage()]
        clock.now += 2
        assert api_move(client, url, g.ROUND_1[2], acknowledged[0])[0] == 503
        lines = fault_lines(caplog)
        # the refusals between (API, Czech form, new-table form and API, undo) counted
        assert len(lines) == 2 and "(5 more since the last line)" in lines[1].getMessage()

        filler.unlink()
        response = pages.post(url, g.as_form(g.ROUND_1[2]))
        assert response.headers["Location"] == url
        status, answer = api_move(client, url, g.ROUND_1[3], acknowledged[0] + 1)
        assert status == 200 and answer["version"] == acknowledged[0] + 2
        after = stored(app, url)
        assert after[1][: len(acknowledged[1])] == acknowledged[1]

        restarted = serving(instance)
        assert stored(restarted, url) == after
        with restarted.app_context():
            assert get_store().replay(table_id(url)) == get_store().get(table_id(url)).state


def test_a_read_only_disk_refuses_moves_and_the_next_one_goes_through_once_writable(
    tmp_path, caplog
):
    """Read-only disk: the read-only sentence at the control and as a 503, reads go on; writable
    again, the very next move goes through (no connection stays read-only); nothing lost."""
    caplog.set_level(logging.INFO)
    with small_disk(tmp_path / "disk") as instance:
        app = serving(instance)
        client = app.test_client()
        pages = Pages(client)
        url = pages.dealt()
        pages.play(url, g.ROUND_1[:2])
        acknowledged = stored(app, url)
        _let_go_of_the_disk(app, instance)
        mount("-o", "remount,ro", str(instance))

        response = pages.post(url, g.as_form(g.ROUND_1[2]))
        assert response.headers["Location"] == f"{url}#draw"
        assert error_in(text(client.get(url)), "draw") == READ_ONLY
        status, answer = api_move(client, url, g.ROUND_1[2], acknowledged[0])
        assert (status, answer) == (503, {"error": READ_ONLY})
        assert_reads_work(client, url)
        assert stored(app, url) == acknowledged
        lines = fault_lines(caplog)
        assert len(lines) == 1 and "the disk is read-only" in lines[0].getMessage()
        assert all(record.exc_info is None for record in caplog.records)

        mount("-o", "remount,rw", str(instance))
        response = pages.post(url, g.as_form(g.ROUND_1[2]))
        assert response.headers["Location"] == url
        assert stored(app, url)[0] == acknowledged[0] + 1
        _let_go_of_the_disk(app, instance)
        restarted = serving(instance)
        assert stored(restarted, url)[1][: len(acknowledged[1])] == acknowledged[1]


def _let_go_of_the_disk(app, instance: Path) -> None:
    """Close the app's connection, so Linux lets the tmpfs be remounted read-only.

    Linux refuses to remount a file system read-only while a file on it is open for writing,
    as SQLite's are; a disk the kernel turns read-only by itself (an ext4 error) does not ask.
    The WAL and shared-memory files SQLite removes on its last close are left behind empty, as
    a running server's are, so that a connection opened on the read-only disk can still read.
    """
    with app.app_context():
        db.close_connection()
    database = db.database_path(app)
    for suffix in ("-wal", "-shm"):
        Path(database + suffix).touch()


def test_storage_errors_are_told_apart():
    """SQLite's and the system's codes for a full, read-only or failing disk; others are none."""
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = sqlite3.SQLITE_FULL
    read_only = sqlite3.OperationalError("attempt to write a readonly database")
    read_only.sqlite_errorcode = 1032  # SQLITE_READONLY_DBMOVED: an extended code
    failing = sqlite3.OperationalError("disk I/O error")
    failing.sqlite_errorcode = 778  # SQLITE_IOERR_WRITE
    busy = sqlite3.OperationalError("database is locked")
    busy.sqlite_errorcode = sqlite3.SQLITE_BUSY
    assert faults.classify(full) == faults.FULL
    assert faults.classify(read_only) == faults.READONLY
    assert faults.classify(failing) == faults.FAILING
    assert faults.classify(busy) is None
    assert faults.classify(OSError(errno.ENOSPC, "No space left on device")) == faults.FULL
    assert faults.classify(OSError(errno.EROFS, "Read-only file system")) == faults.READONLY
    assert faults.classify(OSError(errno.ENOENT, "No such file")) is None
    assert faults.classify(ValueError("no")) is None


def test_a_failing_write_is_named_after_the_disk_it_met(tmp_path):
    """SQLite's "disk I/O error" on a disk that turned read-only or full says which."""
    failing = sqlite3.OperationalError("disk I/O error")
    failing.sqlite_errorcode = 778
    with small_disk(tmp_path / "disk") as folder:
        assert faults.classify(failing, str(folder)) == faults.FAILING
        filler = fill(folder)
        assert faults.classify(failing, str(folder)) == faults.FULL
        filler.unlink()
        mount("-o", "remount,ro", str(folder))
        assert faults.classify(failing, str(folder)) == faults.READONLY


def test_the_fault_log_writes_a_line_per_kind_per_interval():
    """Two kinds each get their line; repeats within LOG_EVERY_S are counted, not written."""
    clock = Clock()
    fault_log = faults.FaultLog(clock)
    error = OSError(errno.ENOSPC, "No space left on device")
    assert fault_log.report(faults.FULL, error, "here")
    assert not fault_log.report(faults.FULL, error, "here")
    assert fault_log.report(faults.READONLY, error, "here")
    clock.now += faults.LOG_EVERY_S
    assert fault_log.report(faults.FULL, error, "here")


def test_a_full_disk_met_outside_the_store_is_a_503_without_a_traceback(app, client, caplog):
    """ENOSPC from any file of the instance folder: the sentence, 503 (JSON and page), a log
    line without a traceback."""

    def write_a_file():
        raise OSError(errno.ENOSPC, "No space left on device", "/instance/somefile")

    app.add_url_rule("/api/writes-a-file", view_func=write_a_file)
    app.add_url_rule("/writes-a-file", view_func=write_a_file)
    caplog.set_level(logging.INFO)
    response = client.get("/api/writes-a-file")
    assert (response.status_code, response.get_json()) == (503, {"error": FULL})
    response = client.get("/writes-a-file")
    assert response.status_code == 503 and FULL in text(response)
    lines = fault_lines(caplog)
    assert len(lines) == 1 and "GET /api/writes-a-file" in lines[0].getMessage()
    assert all(record.exc_info is None for record in caplog.records)
