"""Static files a browser keeps: every URL of one carries its content's hash (`?v=`), and such
a URL is answered with a year's max-age, so a tablet loads the app's CSS and scripts once, not
again (a conditional request each) at every move's page; a new file is a new URL."""

import hashlib
from datetime import timedelta
from functools import lru_cache
from pathlib import Path

from flask import Flask, request

#: How long a browser keeps a static file whose URL names its content.
KEPT = timedelta(days=365)
VERSION_ARG = "v"


@lru_cache(maxsize=256)
def version_of(folder: str, filename: str) -> str:
    """The first hex digits of the file's SHA-256 ("" for a file that is not there)."""
    path = Path(folder, filename)
    if not path.is_file():
        return ""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def init_app(app: Flask) -> None:
    """Version every static URL the app builds; keep the versioned ones for a year."""
    folder = str(app.static_folder)

    @app.url_defaults
    def add_version(endpoint: str, values: dict) -> None:
        if endpoint == "static" and VERSION_ARG not in values and "filename" in values:
            version = version_of(folder, values["filename"])
            if version:
                values[VERSION_ARG] = version

    def max_age(filename: str | None) -> int | None:
        """A year for a URL that names the file's content, else the default (revalidate)."""
        wanted = request.args.get(VERSION_ARG)
        if filename and wanted and wanted == version_of(folder, filename):
            return int(KEPT.total_seconds())
        return None

    app.get_send_file_max_age = max_age  # type: ignore[method-assign]
