"""An imported table's game replayed through the rules, as the store would have played it.

From the setup, each logged move is applied with the game's `apply` (the log holds moves as
completed, draws included, so no randomness is involved) and each undo restores the state
before the move it names, exactly as `Store.apply_move` and `Store.undo` do; every state goes
through JSON as the store's snapshots do. The last state must be the one the file stored (up
to what a newer release of the rules adds): a game that was edited, or that today's rules no
longer accept, is kept aside, never changed.
"""

import json
from dataclasses import dataclass

from companion_app.store.backup_check import grown_from, same_game
from companion_app.store.portable import canonical
from companion_app.store.portable_shape import KeptAside
from scoring.errors import InvalidSetup
from scoring.games import get_game


@dataclass(frozen=True)
class Row:
    """One replayed log row: the file's entry, the state after it, its snapshot text and top."""

    entry: dict
    state: dict
    state_text: str
    top: int | None
    finished: bool


@dataclass(frozen=True)
class Replayed:
    """A replayed table: its initial state (its text, whether finished) and its log rows."""

    initial: dict
    initial_text: str
    initial_finished: bool
    rows: tuple[Row, ...]

    @property
    def final(self) -> dict:
        """The state at the head of the log."""
        return self.rows[-1].state if self.rows else self.initial


def _dumps(value: object) -> str:
    """Compact JSON, as the store writes its snapshots."""
    return json.dumps(value, separators=(",", ":"))


def _through_json(state: dict) -> tuple[dict, str]:
    """The state as a cold load of its snapshot gives it, and the snapshot's text."""
    text = _dumps(state)
    return json.loads(text), text


def replay(table: dict) -> Replayed:
    """Replay a checked table entry (portable_shape.check_table), or KeptAside saying why."""
    try:
        rules = get_game(table["game"])
    except InvalidSetup:
        raise KeptAside(f"its game {table['game'][:40]!r} is not known here.") from None
    try:
        initial, initial_text = _through_json(rules.new_table(table["setup"]))
    except Exception as refused:  # any refusal of a foreign setup, however the rules put it
        raise KeptAside(f"its setup is refused: {refused}") from None
    rows: list[Row] = []
    for entry in table["log"]:
        rows.append(_step(rules, initial, rows, entry))
    replayed = Replayed(initial, initial_text, _finished(rules, initial), tuple(rows))
    _compare(rules, table, replayed)
    return replayed


def _step(rules, initial: dict, rows: list[Row], entry: dict) -> Row:
    """The row an entry makes after `rows`: a move applied, or an undo's restored state."""
    seq = entry["seq"]
    current = rows[-1].state if rows else initial
    if entry["kind"] == "move":
        try:
            state = rules.apply(current, entry["move"])
        except Exception as refused:  # a foreign move may break the rules in any way
            raise KeptAside(f"move {seq} no longer replays: {refused}") from None
        top = seq
    else:
        target = rows[-1].top if rows else None
        if entry["undoes"] != target:
            raise KeptAside(f"entry {seq} undoes {entry['undoes']}, not the latest active move.")
        state = rows[target - 2].state if target > 1 else initial
        top = rows[target - 2].top if target > 1 else None
    state, text = _through_json(state)
    return Row(entry, state, text, top, _finished(rules, state))


def _compare(rules, table: dict, replayed: Replayed) -> None:
    """Refuse a replay that ends elsewhere than the file says (state, version, finished).

    What the rules changing between releases explains passes, as for a restore
    (store/backup_check.py): the stored state with keys a later release added, or the same
    game (equal results and summary). Only the replayed states are written, never the file's.
    """
    final, stored = replayed.final, table["state"]
    if not (
        canonical(final) == canonical(stored)
        or grown_from(final, stored)
        or same_game(rules, final, stored)
    ):
        raise KeptAside("replayed, its moves end in another state than the one stored.")
    if table["version"] != len(replayed.rows):
        raise KeptAside(f"its version {table['version']} is not its {len(replayed.rows)} entries.")
    finished = replayed.rows[-1].finished if replayed.rows else replayed.initial_finished
    if finished != table["finished"]:
        raise KeptAside("its finished flag is not what its replay says.")


def _finished(rules, state: dict) -> bool:
    """Whether the rules call this state finished."""
    return bool(rules.summary(state)["finished"])
