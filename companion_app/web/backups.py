"""The organiser's backups on the club page: each one's time and size, and its download.

The files are the whole season (every table, every person), so only the organiser sees the
list and may download one (rights.is_organiser, like the club's writes); the host checks of
server/guard.py come before, as for every request. Names are matched against the backups'
own pattern before any path is built, so no name reaches outside the backups folder.
"""

from flask import Response, abort, current_app, send_file
from flask_babel import gettext

from companion_app.i18n import formats
from companion_app.server import rights
from companion_app.store import backup
from scoring.errors import N_

NOT_FOUND = 404
NEEDS_ORGANISER = N_(
    "Only the club's organiser can download backups; the organiser link is on the club page"
    " of the companion's own computer."
)
#: A backup holds a whole season: never kept by a browser's or proxy's cache.
NO_STORE = "no-store"
_KB = 1000
_MB = _KB * _KB


def size_label(size: int) -> str:
    """A backup's size in the page's language: 1.2 MB (1,2 MB in Czech), 350 kB below 1 MB."""
    if size < _MB:
        kilobytes = formats.whole(max(1, round(size / _KB)))
        return gettext("%(size)s kB", size=kilobytes)
    megabytes = formats.one_decimal(size / _MB)
    return gettext("%(size)s MB", size=megabytes)


def time_label(backup_file: backup.BackupFile) -> str:
    """When a backup was written, in this computer's time zone and the page's language."""
    return formats.date_time(backup_file.taken_at)


def rows() -> list[dict]:
    """The backups the organiser sees on the club page, the newest first; none for others."""
    if not rights.is_organiser():
        return []
    return [
        {"name": found.name, "time": time_label(found), "size": size_label(found.size)}
        for found in backup.listed(current_app.instance_path)
    ]


def download(name: str) -> Response:
    """One backup as a file to save, for the organiser; 403 for anyone else, 404 if unknown."""
    if not rights.is_organiser():
        raise rights.NotAllowed(NEEDS_ORGANISER)
    path = backup.find(current_app.instance_path, name)
    if path is None:
        abort(NOT_FOUND)
    response = send_file(
        path, mimetype="application/vnd.sqlite3", as_attachment=True, download_name=name
    )
    response.headers["Cache-Control"] = NO_STORE
    return response
