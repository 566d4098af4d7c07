"""The shape of an imported club document, checked before anything is written.

A fault in the file's frame (its format and version, people, evenings, seasons) makes the
whole file unusable (BadFile): tables point at those. A fault inside one table only keeps
that table aside (KeptAside), like a game that no longer replays.
"""

import re
from datetime import datetime

from companion_app.store import counted, labels, league
from companion_app.store.portable import FORMAT, VERSION, BadFile
from scoring.errors import RuleError
from scoring.league.points import check_rule
from scoring.league.roster import check_person_name
from scoring.names import check_text

#: A table id the pages can put in a URL (the store's own ids are 8 of these characters).
TABLE_ID = re.compile(r"[0-9A-Za-z_-]{1,40}")
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
LISTS = ("people", "evenings", "seasons", "tables")
LOG_KINDS = ("move", "undo")


class KeptAside(Exception):
    """One table cannot be imported as it is; the message says why."""


def is_int(value: object) -> bool:
    """A JSON whole number (not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_moment(value: object) -> bool:
    """Stored time text (ISO 8601, as the store writes it)."""
    if not isinstance(value, str):
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def check_document(document: object) -> dict:
    """The document if its frame can be imported, else BadFile saying what is wrong."""
    if not isinstance(document, dict) or "format" not in document:
        raise BadFile("The file is not a companion club export: it has no format key.")
    if document["format"] != FORMAT:
        raise BadFile(f'The file is not a companion club export: its format is not "{FORMAT}".')
    if document.get("version") != VERSION:
        raise BadFile(
            f"The file is version {ascii(document.get('version'))[:20]} of the club format;"
            f" this companion reads version {VERSION}."
        )
    for key in LISTS:
        if not isinstance(document.get(key), list):
            raise BadFile(f'The file has no list of "{key}".')
    if not isinstance(document.get("settings", {}), dict):
        raise BadFile('The file\'s "settings" is not an object.')
    if not isinstance(document.get("club_tablets", []), list):
        raise BadFile('The file\'s "club_tablets" is not a list.')
    _unique([_tablet(each) for each in document.get("club_tablets", [])], "club tablet")
    _unique([_person(each) for each in document["people"]], "person")
    keepers(document["people"])
    evenings = [_evening(each) for each in document["evenings"]]
    _unique(evenings, "evening")
    _unique([_evening_day(each) for each in document["evenings"]], "evening day")
    _unique([_season(each, set(evenings)) for each in document["seasons"]], "season")
    _unique([_table_id(each, place) for place, each in enumerate(document["tables"], 1)], "table")
    return document


def _unique(ids: list, what: str) -> None:
    """Refuse a file that lists one id twice."""
    seen = set()
    for each in ids:
        if each in seen:
            raise BadFile(f"The file lists {what} {str(each)[:40]} twice.")
        seen.add(each)


def _person(person: object) -> int:
    """A person's id, once its fields are checked."""
    if not isinstance(person, dict) or not is_int(person.get("id")):
        raise BadFile("A person in the file has no id.")
    where = f"Person {person['id']}"
    names = [person.get("name")]
    aliases = person.get("aliases", [])
    if not isinstance(aliases, list):
        raise BadFile(f"{where}'s aliases are not a list.")
    for name in [*names, *aliases]:
        try:
            clean = check_person_name(name)
        except RuleError as refused:
            raise BadFile(f"{where} has a name the roster refuses: {refused}") from None
        if clean != name:
            raise BadFile(f"{where} has a name with blanks around it or in another Unicode form.")
    merged = person.get("merged_into")
    if not is_moment(person.get("created_at")):
        raise BadFile(f"{where} has no creation time.")
    if merged is not None and not is_int(merged):
        raise BadFile(f"{where} is merged into something that is not a person's id.")
    return person["id"]


def _evening(evening: object) -> int:
    """An evening's id, once its fields are checked."""
    if not isinstance(evening, dict) or not is_int(evening.get("id")):
        raise BadFile("An evening in the file has no id.")
    _label(evening.get("name", ""), league.EVENING_NAME, f"Evening {evening['id']}")
    if "rule" in evening:
        try:
            check_rule(evening["rule"])
        except RuleError as refused:
            raise BadFile(f"Evening {evening['id']}: {refused}") from None
    return evening["id"]


def _evening_day(evening: dict) -> str:
    """An evening's day (YYYY-MM-DD)."""
    day = evening.get("day")
    if (
        not isinstance(day, str)
        or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", day)
        or not is_moment(day)
    ):
        raise BadFile(f"Evening {evening['id']} has no day (YYYY-MM-DD).")
    return day


def _label(text: object, refusal: str, where: str) -> None:
    """Refuse an evening or season name the organiser's form would not keep as it is."""
    if not isinstance(text, str):
        raise BadFile(f"{where}'s name is not text.")
    try:
        name = check_text(text, league.LeagueError, refusal)
    except RuleError as refused:
        raise BadFile(f"{where}: {refused}") from None
    if name != text or len(name) > league.MAX_LABEL:
        raise BadFile(f"{where}'s name is not one the organiser's form would keep.")


def _season(season: object, evenings: set[int]) -> int:
    """A season's id, once its name, rule, creation time and evenings are checked."""
    if not isinstance(season, dict) or not is_int(season.get("id")):
        raise BadFile("A season in the file has no id.")
    where = f"Season {season['id']}"
    _label(season.get("name"), league.SEASON_NAME, where)
    if not season["name"] or not is_moment(season.get("created_at")):
        raise BadFile(f"{where} has no name or no creation time.")
    try:
        check_rule(season.get("rule"))
    except RuleError as refused:
        raise BadFile(f"{where}: {refused}") from None
    chosen = season.get("evenings")
    if not isinstance(chosen, list) or not all(is_int(each) for each in chosen):
        raise BadFile(f"{where}'s evenings are not a list of evening ids.")
    if not set(chosen) <= evenings:
        raise BadFile(f"{where} counts an evening the file does not list.")
    return season["id"]


def _tablet(tablet: object) -> int:
    """A club tablet's id, once its name and times are checked."""
    if not isinstance(tablet, dict) or not is_int(tablet.get("id")):
        raise BadFile("A club tablet in the file has no id.")
    where = f"Club tablet {tablet['id']}"
    name = tablet.get("name")
    try:
        clean = (
            check_text(name, counted.CountError, counted.TABLET_NAME)
            if isinstance(name, str)
            else None
        )
    except RuleError as refused:
        raise BadFile(f"{where}: {refused}") from None
    if clean != name or len(name) > counted.MAX_TABLET_NAME:
        raise BadFile(f"{where}'s name is not one the organiser's form would keep.")
    if not is_moment(tablet.get("created_at")):
        raise BadFile(f"{where} has no creation time.")
    for key in ("taken_at", "revoked_at"):
        if tablet.get(key) is not None and not is_moment(tablet[key]):
            raise BadFile(f"{where}'s {key} is not a time.")
    return tablet["id"]


def _table_id(table: object, place: int) -> str:
    """A table's id: text, so a table kept aside can be named."""
    if not isinstance(table, dict) or not isinstance(table.get("id"), str) or not table["id"]:
        raise BadFile(f"Table number {place} in the file has no id.")
    return table["id"]


#: A table's keys that may be left out, and what leaving them out means.
TABLE_DEFAULTS = {
    "abandoned_at": None,
    "label": None,
    "number": None,
    "evening": None,
    "counted": None,
    "reveals": [],
}
#: Why a table counts (store/counted.py).
COUNTED_HOWS = (counted.HOST, counted.TABLET, counted.ORGANISER, counted.UPGRADE)


def check_table(table: dict) -> dict:
    """The table (its optional keys filled in) if every field has its shape, else KeptAside."""
    table = {**TABLE_DEFAULTS, **table}
    if not TABLE_ID.fullmatch(table["id"]):
        raise KeptAside("its id is not made of letters, digits, - and _ (at most 40).")
    _need(isinstance(table.get("game"), str), "it names no game.")
    _need(isinstance(table.get("setup"), dict), "its setup is not an object.")
    _need(isinstance(table.get("state"), dict), "its state is not an object.")
    for key in ("created_at", "updated_at"):
        _need(is_moment(table.get(key)), f"its {key} is not a time.")
    _need(is_int(table.get("version")), "its version is not a whole number.")
    _need(isinstance(table.get("finished"), bool), "its finished flag is not true or false.")
    abandoned = table["abandoned_at"]
    _need(abandoned is None or is_moment(abandoned), "its abandoned_at is not a time.")
    _need(table["evening"] is None or is_int(table["evening"]), "its evening is not an id.")
    _need(_is_label(table["label"]), "its label is not a short text.")
    _need(table["number"] is None or is_int(table["number"]), "its number is not a whole number.")
    _need(table["counted"] is None or _is_counted(table["counted"]), "its counted entry is wrong.")
    seats = table.get("seats")
    _need(isinstance(seats, list) and all(map(is_int, seats)), "its seats are not person ids.")
    log = table.get("log")
    _need(isinstance(log, list), "its log is not a list.")
    for seq, entry in enumerate(log, start=1):
        _log_entry(entry, seq)
    reveals = table["reveals"]
    _need(isinstance(reveals, list), "its reveals are not a list.")
    for reveal in reveals:
        _reveal(reveal)
    ids = [reveal["id"] for reveal in reveals]
    _need(len(set(ids)) == len(ids), "two of its reveals have one id.")
    return table


def _is_label(label: object) -> bool:
    """No label, or one the companion would have stored (store/labels.py)."""
    try:
        return label is None or labels.clean_label(label) == label
    except labels.InvalidLabel:
        return False


def _is_counted(entry: object) -> bool:
    """Why the club stands behind the table: how, the tablet (or none) and since when."""
    return (
        isinstance(entry, dict)
        and entry.get("how") in COUNTED_HOWS
        and (entry.get("tablet") is None or is_int(entry["tablet"]))
        and is_moment(entry.get("at"))
    )


def _need(ok: bool, reason: str) -> None:
    """Keep the table aside with `reason` unless `ok`."""
    if not ok:
        raise KeptAside(reason)


def _log_entry(entry: object, seq: int) -> None:
    """One log entry: a move with its object, or an undo of an earlier entry."""
    _need(isinstance(entry, dict) and entry.get("seq") == seq, f"its log entry {seq} is missing.")
    _need(entry.get("kind") in LOG_KINDS, f"its log entry {seq} is neither a move nor an undo.")
    _need(is_moment(entry.get("created_at")), f"its log entry {seq} has no time.")
    if entry["kind"] == "move":
        _need(isinstance(entry.get("move"), dict), f"its log entry {seq} has no move.")
    else:
        _need(is_int(entry.get("undoes")), f"its log entry {seq} undoes nothing.")


def _reveal(reveal: object) -> None:
    """One reveal row: ids, seats, who locked in, when."""
    _need(isinstance(reveal, dict) and is_int(reveal.get("id")), "a reveal of it has no id.")
    for key in ("seats", "locked"):
        found = reveal.get(key)
        _need(isinstance(found, list) and all(map(is_int, found)), f"a reveal's {key} are wrong.")
    _need(isinstance(reveal.get("disarmed"), bool), "a reveal's disarmed flag is wrong.")
    revealed = reveal.get("revealed_at")
    _need(revealed is None or is_moment(revealed), "a reveal's revealed_at is not a time.")
    for key in ("created_at", "updated_at"):
        _need(is_moment(reveal.get(key)), f"a reveal's {key} is not a time.")


def keepers(people: list[dict]) -> dict[int, int]:
    """Merged entry's id -> the id of the current person it ended up in (chains followed)."""
    into = {person["id"]: person.get("merged_into") for person in people}
    found: dict[int, int] = {}
    for person, target in into.items():
        seen = {person}
        while target is not None:
            if target not in into:
                raise BadFile(f"Person {person} is merged into person {target}, who is not listed.")
            if target in seen:
                raise BadFile(f"Person {person} is merged in a circle.")
            seen.add(target)
            if into[target] is None:
                found[person] = target
            target = into[target]
    return found
