"""The organiser's backups on the club page: time, size and download; nobody else's (403)."""

import re
from datetime import UTC, datetime
from pathlib import Path

from companion_app.store import backup, db

OUTSIDE = {"REMOTE_ADDR": "192.168.1.50"}
EN = {"Accept-Language": "en"}
SQLITE_HEADER = b"SQLite format 3\x00"


def take_backup(app, reason=backup.HOURLY):
    """One backup in the app's backups folder, as the automatic ones are written; its name."""
    with app.app_context():
        database = db.database_path(app)
    folder = backup.backups_dir(app.instance_path)
    path = backup.dated_path(folder, reason, datetime(2026, 12, 3, 21, 30, tzinfo=UTC))
    backup.take(database, path)
    return path.rsplit("/", 1)[1]


def organiser_link(app):
    """The organiser link this computer's club page shows (its path)."""
    page = app.test_client().get("/club", headers=EN).get_data(as_text=True)
    link = re.search(r'href="(http[^"]*/club/organiser/[^"]+)"', page).group(1)
    return "/" + link.split("://", 1)[1].split("/", 1)[1]


def test_the_club_page_lists_backups_for_the_organiser(app, club):
    club.play(["Ann", "Bob"], [1, 2])
    name = take_backup(app)
    page = app.test_client().get("/club", headers=EN).get_data(as_text=True)
    assert 'data-testid="backups"' in page
    assert f'data-backup="{name}"' in page and f'href="/club/backups/{name}"' in page
    assert re.search(r"\d+ kB|\d\.\d MB", page)  # its size
    assert "2026" in page  # its time
    with app.test_client().get(f"/club/backups/{name}") as download:
        assert download.status_code == 200
        assert download.data.startswith(SQLITE_HEADER)
        assert "attachment" in download.headers["Content-Disposition"]
        assert download.headers["Cache-Control"] == "no-store"


def test_the_club_page_says_so_when_there_is_no_backup_yet(app):
    page = app.test_client().get("/club", headers=EN).get_data(as_text=True)
    assert "No backup yet." in page


def test_a_non_organisers_download_is_refused(app):
    name = take_backup(app)
    tablet = app.test_client()
    page = tablet.get("/club", headers=EN, environ_base=OUTSIDE).get_data(as_text=True)
    assert 'data-testid="backups"' not in page and name not in page
    refused = tablet.get(f"/club/backups/{name}", headers=EN, environ_base=OUTSIDE)
    assert refused.status_code == 403
    assert "Only the club&#39;s organiser can download backups" in refused.get_data(as_text=True)
    assert not refused.data.startswith(SQLITE_HEADER)
    czech = tablet.get(
        f"/club/backups/{name}", headers={"Accept-Language": "cs"}, environ_base=OUTSIDE
    )
    assert czech.status_code == 403 and "organizátor" in czech.get_data(as_text=True)


def test_a_tablet_let_in_as_organiser_downloads(app):
    name = take_backup(app)
    tablet = app.test_client()
    assert tablet.post(organiser_link(app), environ_base=OUTSIDE).status_code == 303
    page = tablet.get("/club", headers=EN, environ_base=OUTSIDE).get_data(as_text=True)
    assert f'data-backup="{name}"' in page
    with tablet.get(f"/club/backups/{name}", environ_base=OUTSIDE) as download:
        assert download.status_code == 200 and download.data.startswith(SQLITE_HEADER)


def test_the_download_passes_the_host_checks_and_names_only_backups(app):
    name = take_backup(app)
    client = app.test_client()
    foreign = client.get(f"/club/backups/{name}", headers={"Host": "evil.example"})
    assert foreign.status_code == 400 and not foreign.data.startswith(SQLITE_HEADER)
    (Path(app.instance_path) / "backups" / "notes.txt").write_text("not a backup")
    for other in ("notes.txt", "..%2Fsecret_key", "..%2Fcompanion.sqlite3", "missing"):
        assert client.get(f"/club/backups/{other}").status_code == 404, other


def test_the_backups_section_in_czech(app):
    take_backup(app)
    page = app.test_client().get("/club", headers={"Accept-Language": "cs"}).get_data(as_text=True)
    assert "Zálohy" in page and "Stáhnout" in page and " kB" in page
