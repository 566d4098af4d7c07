"""What the room display (`web/room.py`) shows of one table: a tile.

Game, round or phase, who or what the table waits for, the police, the standings as far as
the players' secrets allow (`scoring.public_standings`: no hidden total while a game runs; a
finished game shows its results), the last move.
"""

import math
from dataclasses import dataclass, field, replace

from flask_babel import gettext

from companion_app.games import room, view_for
from companion_app.i18n import formats, table_label
from companion_app.store import Table, get_store, reveals
from companion_app.store.reveal_gate import pending_seats
from scoring import secrecy
from scoring.games import get_game
from scoring.public_standings import public_standings

#: More players than this make a tile's type smaller, its names short, and its standings two
#: columns when they show one number (Cech zlodějů seats 9).
SPLIT_AFTER = 5
EMPTY = "–"
#: The rules' `actions(state)` keys naming the one seat the table waits for.
ACTING_KEYS = ("actor", "buyer", "owner")


@dataclass(frozen=True)
class Line:
    """One player's line on a tile: name, the numbers shown, and what marks it."""

    name: str
    values: list[str]
    acting: bool = False
    choosing: bool = False
    rank: int | None = None
    winner: bool = False
    #: The name as the tile shows it: the short form on a tile of many players.
    shown: str = ""


@dataclass(frozen=True)
class Tile:
    """One table as the room display shows it."""

    table_id: str
    version: int
    label: str | None
    title: str
    round: str
    phase: str
    status: str | None
    police: tuple[int, int] | None
    columns: list[str]
    lines: list[Line]
    hidden: list[str]
    note: str | None
    last_move: str | None
    finished: bool
    winners: list[str] = field(default_factory=list)

    @property
    def podium(self) -> list[Line]:
        """A finished game's winners: drawn across the tile, its largest text (issue 32.6)."""
        return [line for line in self.lines if line.winner] if self.finished else []

    @property
    def halves(self) -> list[list[Line]]:
        """The other lines in one column, or two when the table seats more than SPLIT_AFTER."""
        rest = [line for line in self.lines if line not in self.podium]
        if not self.many or len(self.columns) > 1:  # two columns of numbers leave no room
            return [rest]  # for a name in half a tile: one column of smaller type
        half = math.ceil(len(rest) / 2)
        return [rest[:half], rest[half:]]

    @property
    def many(self) -> bool:
        """True when the table seats more than SPLIT_AFTER: smaller type, short names."""
        return len(self.lines) > SPLIT_AFTER


def short_name(name: str) -> str:
    """A name short enough for a tile of many players: "František Novák" -> "František N."."""
    first, *rest = name.split()
    return " ".join([first, *(f"{word[0]}." for word in rest)])


def short_names(names: list[str]) -> list[str]:
    """Each name's short form, but the full name where two short forms would read the same."""
    short = [short_name(name) if name.split() else name for name in names]
    return [
        full if short.count(mine) > 1 else mine for full, mine in zip(names, short, strict=True)
    ]


def _shown(lines: list[Line]) -> list[Line]:
    """The lines with the names a tile shows: short forms past SPLIT_AFTER players."""
    names = [line.name for line in lines]
    shown = short_names(names) if len(lines) > SPLIT_AFTER else names
    return [replace(line, shown=each) for line, each in zip(lines, shown, strict=True)]


def _number(value: int | None) -> str:
    """A standings number with the locale's digit grouping and a true minus (– for none)."""
    return EMPTY if value is None else formats.whole(value)


def _waiting(table: Table, rules) -> tuple[str | None, list[int]]:
    """A secret choice the table waits for: (sentence, the seats still choosing), or (None, [])."""
    state = table.state
    reveal = reveals.current(table.id)
    choosing = pending_seats(rules, state)
    if not choosing and (reveal is None or reveal.revealed):
        return None, []
    seats = choosing or reveal.seats
    covered = reveal is not None and all(seat in reveal.seats for seat in seats)
    waiting = [seat for seat in seats if not (covered and seat in reveal.locked)]
    if not waiting:
        return gettext("Everyone has locked in: the choices are being entered"), []
    names = ", ".join(state["players"][seat]["name"] for seat in waiting)
    return gettext("Choosing in secret: waiting for %(names)s", names=names), waiting


def _status(table: Table, rules, actions: dict) -> tuple[str | None, list[int]]:
    """Who or what the table waits for, and the seats to mark."""
    sentence, seats = _waiting(table, rules)
    if sentence is not None:
        return sentence, seats
    seat = next((actions[key] for key in ACTING_KEYS if actions.get(key) is not None), None)
    return room.acting(table.state, actions), ([] if seat is None else [seat])


def _last_move(table: Table, view) -> str | None:
    """The table's last move in words (an undo says what it undid), as anyone may read it:
    while the game runs the fields that would give a secret away read "?"."""
    entry = get_store().latest_entry(table.id)
    if entry is None:
        return None
    names = [player["name"] for player in table.state["players"]]
    line = view.describe(secrecy.public_move(table.state, entry.move), names)
    return gettext("Undone: %(move)s", move=line) if entry.kind == "undo" else line


def _final_lines(rules, state: dict) -> list[Line]:
    """A finished game's ranking, best first, with every score (nothing is hidden any more)."""
    players = sorted(rules.results(state)["players"], key=lambda row: (row["rank"], row["seat"]))
    return [
        Line(row["name"], [_number(row["score"])], rank=row["rank"], winner=row["winner"])
        for row in players
    ]


def _playing_lines(
    game: str, state: dict, marked: list[int]
) -> tuple[list[str], list[Line], list[str]]:
    """(columns, lines in seat order, hidden kinds) of a running game's public standings.

    One marked seat acts; several marked seats are choosing in secret at once.
    """
    public = public_standings(game, state)
    lines = [
        Line(
            row["name"],
            [_number(row["values"][column]) for column in public["columns"]],
            acting=row["seat"] in marked and len(marked) == 1,
            choosing=row["seat"] in marked and len(marked) > 1,
        )
        for row in public["rows"]
    ]
    return public["columns"], lines, public["hidden"]


def tile(table: Table) -> Tile:
    """What the room display shows of one table."""
    rules, view = get_game(table.game), view_for(table.game)
    state = table.state
    summary = rules.summary(state)
    finished = bool(summary["finished"])
    status, marked, police = None, [], None
    if finished:
        column = room.FINAL_COLUMNS.get(table.game, "score")
        columns, lines, hidden = [column], _final_lines(rules, state), []
    else:
        status, marked = _status(table, rules, rules.actions(state))
        columns, lines, hidden = _playing_lines(table.game, state, marked)
        if "police" not in getattr(view, "LED_LABELS", {}):  # the game's police, on the box
            display = rules.device_display(state)
            police = (display["police"], display["limit"])
    return Tile(
        table_id=table.id,
        version=table.version,
        label=table_label(table),
        title=str(view.TITLE),
        round=room.round_text(table.game, summary),
        phase=view.phase_label(summary["phase"]),
        status=status,
        police=police,
        columns=[str(room.COLUMN_LABELS.get(column, column)) for column in columns],
        lines=_shown(lines),
        hidden=[str(room.HIDDEN[kind]) for kind in hidden],
        note=None if finished or table.game not in room.NOTES else str(room.NOTES[table.game]),
        last_move=_last_move(table, view),
        finished=finished,
        winners=list(summary["winners"]) if finished else [],
    )
