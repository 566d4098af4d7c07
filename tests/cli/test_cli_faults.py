"""The `companion` command on a bad folder, database, port or path: a sentence, exit 2.

Never a traceback. Each case runs the command as a user does
(`python -m companion_app.cli ...`) in a child process.
"""

import os
import socket
import sqlite3
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion_app.cli import EXIT_CANNOT_SERVE
from tests.disks import fill, mount, small_disk

#: Seconds a child may take: it stops at its first check, long before serving.
CHILD_S = 120
DATABASE = "companion.sqlite3"


def companion(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run `companion ARGS` in a child; its exit status and streams."""
    return subprocess.run(
        [sys.executable, "-m", "companion_app.cli", *args],
        capture_output=True,
        text=True,
        timeout=CHILD_S,
        env={**os.environ, **(env or {})},
        check=False,
    )


def refused(done: subprocess.CompletedProcess, *fragments: str) -> str:
    """Assert exit 2 with a sentence holding every fragment and no traceback; the sentence."""
    assert done.returncode == EXIT_CANNOT_SERVE == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr and done.stdout == ""
    for fragment in fragments:
        assert fragment in done.stderr, done.stderr
    return done.stderr


def used_instance(folder: Path, env: dict | None = None) -> Path:
    """A folder a companion has used (database and session key), as `device key` leaves it."""
    folder.mkdir(exist_ok=True)
    done = companion("device", "key", "--instance", str(folder), env=env)
    assert done.returncode == 0, done.stderr
    return folder


def serve(instance: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """`companion serve` on `instance` (any free port: it must stop before listening)."""
    return companion("serve", "--port", "0", "--instance", str(instance), env=env)


def test_an_instance_that_is_a_file_is_refused(tmp_path):
    """`--instance` naming a file, or a folder under a file: the file named, for serve and key."""
    afile = tmp_path / "notes.txt"
    afile.write_text("not a folder")
    refused(serve(afile), f"{afile} is a file, not a folder")
    refused(companion("device", "key", "--instance", str(afile)), f"{afile} is a file")
    refused(serve(afile / "inside"), f"{afile / 'inside'} is in the way")


def test_device_key_for_a_missing_folder_makes_nothing(tmp_path):
    """A key for a folder no companion uses no server would accept: refused, nothing made."""
    missing = tmp_path / "nonexistent" / "x"
    refused(companion("device", "key", "--instance", str(missing)), "no companion folder")
    assert not (tmp_path / "nonexistent").exists()


def test_device_key_prints_the_key_of_a_used_folder(tmp_path):
    """The folder a server used gives its key, the same each time."""
    instance = used_instance(tmp_path / "instance")
    first = companion("device", "key", "--instance", str(instance))
    again = companion("device", "key", "--instance", str(instance))
    assert first.returncode == again.returncode == 0 and first.stderr == ""
    assert first.stdout == again.stdout and len(first.stdout.split()) == 1


def test_a_file_that_is_not_a_database_is_refused_with_the_newest_backup(tmp_path):
    """Garbage in the database file: named, with the newest backup (never a half-written one)
    and how to restore it."""
    instance = used_instance(tmp_path / "instance")
    (instance / DATABASE).write_bytes(b"these bytes were never a database" * 100)
    backups = instance / "backups"
    backups.mkdir()
    older = backups / "companion-2026-01-01-200000-hourly.sqlite3"
    newer = backups / "companion-2026-01-02-200000-evening.sqlite3"
    older.write_bytes(b"old")
    newer.write_bytes(b"new")
    (backups / "companion-2026-01-03-200000-manual.sqlite3.partial").write_bytes(b"half")
    os.utime(older, (1_000_000, 1_000_000))
    said = refused(serve(instance), f"The database {instance / DATABASE} is damaged")
    assert f"Restore it with: companion restore --instance {instance} {newer}" in said
    refused(companion("device", "key", "--instance", str(instance)), "is damaged")


def test_a_truncated_database_is_refused(tmp_path):
    """A database cut short (half its pages gone): named as damaged; no backup to offer."""
    instance = used_instance(tmp_path / "instance")
    database = instance / DATABASE
    os.truncate(database, database.stat().st_size // 2)
    refused(serve(instance), f"{database} is damaged", "There is no backup in")


def test_a_database_from_a_newer_companion_is_refused(tmp_path):
    """A schema newer than this code knows: the file and both versions said."""
    instance = used_instance(tmp_path / "instance")
    conn = sqlite3.connect(instance / DATABASE)
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    refused(serve(instance), str(instance / DATABASE), "999")


def test_a_session_key_that_is_a_folder_is_refused(tmp_path):
    """Something in the way of the session key: the file named."""
    instance = used_instance(tmp_path / "instance")
    (instance / "secret_key").unlink()
    (instance / "secret_key").mkdir()
    refused(serve(instance), str(instance / "secret_key"))


def test_a_read_only_folder_is_refused(tmp_path):
    """The instance on a disk mounted read-only: the folder named."""
    with small_disk(tmp_path / "disk") as disk:
        instance = used_instance(disk / "instance")
        read_only(disk)
        refused(serve(instance), f"{instance} is read-only")
        refused(serve(disk / "new"), f"{disk / 'new'} is read-only")


def test_a_full_disk_is_refused_at_the_start(tmp_path):
    """No byte left on the instance's disk: the database named, free some space."""
    with small_disk(tmp_path / "disk") as disk:
        instance = used_instance(disk / "instance")
        fill(disk)
        refused(serve(instance), f"The disk holding {instance / DATABASE} is full")
        refused(serve(disk / "new"), "is full")


def test_a_database_on_a_read_only_disk_is_refused(tmp_path):
    """COMPANION_DATABASE on a read-only disk beside a writable folder: the database named."""
    with small_disk(tmp_path / "disk") as disk:
        env = {"COMPANION_DATABASE": str(disk / DATABASE)}
        instance = used_instance(tmp_path / "instance", env)
        read_only(disk)
        refused(serve(instance, env), f"{disk / DATABASE} is read-only")


def read_only(disk: Path) -> None:
    """Remount the test's tmpfs read-only."""
    mount("-o", "remount,ro", str(disk))


@pytest.mark.parametrize("port", ["99999", "-1", "abc", "65536"])
def test_a_port_out_of_range_is_refused_by_argparse(tmp_path, port):
    """Not a port number: argparse's sentence, exit 2, before anything is opened."""
    done = companion("serve", f"--port={port}", "--instance", str(tmp_path / "instance"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"argument --port: '{port}' is not a port" in done.stderr
    assert not (tmp_path / "instance").exists()


@contextmanager
def busy_port():
    """A port another socket listens on."""
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    try:
        yield holder.getsockname()[1]
    finally:
        holder.close()


def test_a_busy_port_says_so_and_exits_2(tmp_path):
    """Another program on the port: the existing sentence, now with exit 2."""
    with busy_port() as port:
        done = companion("serve", "--port", str(port), "--instance", str(tmp_path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"Cannot listen on port {port}:")


def test_device_run_refuses_an_address_it_cannot_use():
    """`device run --app` that is no http:// address: argparse's sentence, exit 2."""
    done = companion("device", "run", "--app", "ftp://example")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "the app's address must look like http://host:port" in done.stderr


def test_device_check_refuses_a_report_it_could_not_keep(tmp_path):
    """`device check --report` naming a folder or a file in a missing folder: said before the
    check begins (no box is looked for), exit 2."""
    done = companion("device", "check", "--report", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.strip() == f"{tmp_path} is a folder: give --report a file name."
    missing = tmp_path / "missing" / "report.txt"
    done = companion("device", "check", "--report", str(missing))
    assert done.returncode == 2 and f"There is no folder {missing.parent}" in done.stderr


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("LIVE_MAX_VIEWERS", "lots", "a whole number"),
        ("BACKUP_KEEP", "ten", "a whole number"),
        ("BACKUP_EVERY_S", "hourly", "a number"),
    ],
)
def test_a_mistyped_setting_is_named_not_a_traceback(tmp_path, name, value, words):
    """A COMPANION_* number that is no number: exit 2 with a sentence naming it."""
    done = serve(tmp_path / "instance", env={f"COMPANION_{name}": value})
    refused(done, f"COMPANION_{name} must be {words}, not '{value}'.")
