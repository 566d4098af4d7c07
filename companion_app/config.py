"""Configuration read from the environment, with defaults that work out of the box."""

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the CLI imports this module for BadSetting before Flask is needed
    from flask import Flask

#: File in the instance folder holding the generated session key.
SECRET_KEY_FILE = "secret_key"
SECRET_KEY_BYTES = 32
#: Default cap on request bodies (bytes); larger bodies get a 413.
DEFAULT_MAX_BODY = 64 * 1024
#: Automatic backups (docs/backups.md): the folder under the instance folder, at most this many
#: files and bytes kept (the oldest go first; the newest always stays), and the longest gap
#: between two backups while moves arrive.
BACKUPS_DIR = "backups"
DEFAULT_BACKUP_KEEP = 20
DEFAULT_BACKUP_MAX_BYTES = 200 * 1000 * 1000
DEFAULT_BACKUP_EVERY_S = 3600


class BadSetting(ValueError):
    """A COMPANION_* variable that is not what it must be; the sentence names it."""


def _number(name: str, default, kind=int):
    """The COMPANION_<name> variable as a `kind` number, or `default` when it is not set."""
    text = os.environ.get(f"COMPANION_{name}")
    if text is None:
        return default
    try:
        return kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise BadSetting(f"COMPANION_{name} must be {what}, not {text[:40]!r}.") from None


class Config:
    """App settings; every value can be overridden by a COMPANION_* variable."""

    def __init__(self) -> None:
        """Read the COMPANION_* variables, falling back to the defaults."""
        #: None means "use the key persisted in the instance folder" (see init_app).
        self.SECRET_KEY = os.environ.get("COMPANION_SECRET_KEY") or None
        #: SQLite file; relative paths live in the instance folder.
        self.DATABASE = os.environ.get("COMPANION_DATABASE", "companion.sqlite3")
        #: Request bodies above this are refused with 413 before parsing.
        self.MAX_CONTENT_LENGTH = _number("MAX_BODY", DEFAULT_MAX_BODY)
        #: Address phones use to reach this companion (the QR code on results printouts),
        #: e.g. http://192.168.1.20:8000; empty: the address the tablet's request came to
        #: (`companion serve --lan` fills in the LAN address it prints).
        self.BASE_URL = os.environ.get("COMPANION_BASE_URL", "")
        #: Where the games are played, sent along with the BG Stats play import.
        self.LOCATION = os.environ.get("COMPANION_LOCATION", "")
        #: More names this companion answers to, comma separated (e.g. "games.lan, pi");
        #: loopback, the machine's name (and name.local), its IP addresses and the host of
        #: BASE_URL always work; ".lan" allows every name under lan; "*" turns the check off.
        #: Other Host headers (DNS rebinding) get a 400 (server/guard.py).
        self.ALLOWED_HOSTS = os.environ.get("COMPANION_ALLOWED_HOSTS", "")
        #: The session cookie (the language choice) is not sent along with cross-site posts
        #: and is out of reach of scripts.
        self.SESSION_COOKIE_SAMESITE = "Lax"
        self.SESSION_COOKIE_HTTPONLY = True
        #: Requests from this computer (loopback) may change every table, as its owner
        #: could edit the database anyway; "0" makes this computer a plain viewer too.
        self.LOCAL_IS_HOST = os.environ.get("COMPANION_LOCAL_IS_HOST", "1") != "0"
        #: Automatic backups kept in <instance>/backups: how many files, how many bytes in all.
        self.BACKUP_KEEP = _number("BACKUP_KEEP", DEFAULT_BACKUP_KEEP)
        self.BACKUP_MAX_BYTES = _number("BACKUP_MAX_BYTES", DEFAULT_BACKUP_MAX_BYTES)
        #: While moves arrive, a backup is taken after a move once the last is this old.
        self.BACKUP_EVERY_S = _number("BACKUP_EVERY_S", DEFAULT_BACKUP_EVERY_S, float)
        #: The room's totals for the whole server (docs/security.md "The room"): live streams,
        #: held long polls and connections in all; unset, the stock caps apply.
        for name in ("LIVE_MAX_VIEWERS", "LIVE_MAX_POLLS", "ROOM_MAX_CONNECTIONS"):
            if f"COMPANION_{name}" in os.environ:
                setattr(self, name, _number(name, None))
        self.BABEL_DEFAULT_LOCALE = "en"
        self.LANGUAGES = ("cs", "en")


def load_or_create_secret_key(instance_path: str) -> str:
    """The instance's persistent session key, generated (mode 0600) on first use."""
    path = os.path.join(instance_path, SECRET_KEY_FILE)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        with open(path, encoding="ascii") as existing:
            key = existing.read().strip()
        if key:
            return key
        raise RuntimeError(f"{path} is empty; delete it to generate a new session key.") from None
    key = os.urandom(SECRET_KEY_BYTES).hex()
    with os.fdopen(fd, "w", encoding="ascii") as created:
        created.write(key + "\n")
        created.flush()
        os.fsync(created.fileno())
    return key


def init_app(app: "Flask") -> None:
    """Give the app a session key that survives restarts (language choice lives in it)."""
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = load_or_create_secret_key(app.instance_path)
