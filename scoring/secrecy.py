"""What players keep hidden at the physical table, and what of a table everyone may see.

Each game's rules package declares `SECRETS` (its `secrets.py`): what a player keeps hidden
while the game runs (RULES.md says which; docs/games/ quote the seed), each with the places
it shows in the table's view: its state, actions, summary and live standings, as dotted
paths (`"state.players.*.coins"`, `*` for every item). `table_view(state)` is that view with
every secret in force replaced by a marker: a list keeps its count ("3 checks face down"),
anything else nothing but the mark. Once the game is over nothing is hidden.

The page shows a marker as hidden; the room display and viewers' API reads take
`public_view(state)` as it is (docs/game-contract.md, "Secrets").

The move log would tell the same secrets (bids add up to coins, houses sold to checks won):
each game also declares `LOG_SECRETS`, the move fields and setup keys that carry a secret or
let one be worked out, each tied to its `Secret`; `log_view` conceals them while that secret
is in force, so a log read while the game runs replays to nothing hidden.
"""

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from scoring.games import get_game

#: A path part that stands for every item of a list (or every value of a dict).
EVERY = "*"
#: The key of the marker that stands where a hidden value was.
MARK = "hidden"
#: The parts of a table's view a secret's paths start with.
PARTS = ("state", "actions", "summary", "standings")
#: The player keys an undeclared game still shows: who plays, nothing they hold.
UNDECLARED_SHOWN = ("name",)
#: The move fields an undeclared game's log still shows: what happened and who did it.
UNDECLARED_MOVE_SHOWN = ("type", "seat")


@dataclass(frozen=True)
class Secret:
    """One thing a player keeps hidden at the physical table while the game runs."""

    name: str
    paths: tuple[str, ...]
    rule: str
    applies: Callable[[dict], bool] | None = None

    def __post_init__(self) -> None:
        """Refuse a path outside the table's view (a typo would hide nothing)."""
        for path in self.paths:
            if path.split(".")[0] not in PARTS:
                raise ValueError(f"{self.name}: {path!r} does not start with one of {PARTS}.")

    def in_force(self, state: dict) -> bool:
        """True if this secret hides something in `state` (the game is known to run)."""
        return self.applies is None or self.applies(state)


@dataclass(frozen=True)
class LogSecret:
    """Where a `Secret` shows in the move log: move fields by move type, and setup keys.

    `moves` are dotted paths starting with the move type ("bid.coins", "sell.houses.*");
    `setup` dotted paths into the table's setup ("hands"). Both are concealed while `secret`
    is in force in the table's current state.
    """

    secret: Secret
    moves: tuple[str, ...] = ()
    setup: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """Refuse a move path without a field (it would hide the whole move's type)."""
        for path in self.moves:
            if len(path.split(".")) < 2:
                raise ValueError(f"{self.secret.name}: {path!r} names no field of a move.")

    @property
    def name(self) -> str:
        """The name of the secret this log secret gives away."""
        return self.secret.name

    def in_force(self, state: dict) -> bool:
        """True while its secret hides something in `state` (the game is known to run)."""
        return self.secret.in_force(state)

    def move_paths(self, move_type: object) -> list[list[str]]:
        """The field paths (split) this secret conceals in a move of `move_type`."""
        return [path.split(".")[1:] for path in self.moves if path.split(".")[0] == move_type]


def hidden(value: object) -> dict:
    """The marker for a hidden value: a list keeps its count, anything else only the mark."""
    if is_hidden(value):
        return value  # type: ignore[return-value]
    if isinstance(value, list):
        return {MARK: True, "count": len(value)}
    return {MARK: True}


def is_hidden(value: object) -> bool:
    """True for a marker that stands where a hidden value was."""
    return isinstance(value, dict) and value.get(MARK) is True


def declared(game: str) -> tuple[Secret, ...] | None:
    """The game's declared secrets, or None for a game that has not declared them yet."""
    return getattr(get_game(game), "SECRETS", None)


def full_view(state: dict) -> dict:
    """Everything the table shows of a state: its state, actions, summary, standings."""
    return _full_view(state, get_game(state["game"]))


def _full_view(state: dict, rules: ModuleType) -> dict:
    """The full view from the game's rules; a copy: concealing a part never touches the state."""
    view = {
        "state": state,
        "actions": rules.actions(state),
        "summary": rules.summary(state),
        "standings": rules.live_standings(state),
    }
    return _copied(view)


def in_force(state: dict, summary: dict | None = None) -> tuple[Secret, ...]:
    """The declared secrets hiding something now: none once the game is over."""
    rules = get_game(state["game"])
    return _in_force(state, summary or rules.summary(state), getattr(rules, "SECRETS", None))


def _in_force(state: dict, summary: dict, secrets: tuple[Secret, ...] | None) -> tuple:
    """The secrets among `secrets` hiding something now (none once the game is over)."""
    if summary["finished"]:
        return ()
    return tuple(secret for secret in secrets or () if secret.in_force(state))


def _undeclared(state: dict) -> Secret:
    """A game without a declaration shows who plays and nothing they hold or score."""
    held = sorted({key for player in state["players"] for key in player} - set(UNDECLARED_SHOWN))
    paths = tuple(f"state.players.*.{key}" for key in held)
    return Secret(
        "undeclared",
        (*paths, "standings.*.points", "standings.*.total", "summary.totals"),
        "docs/game-contract.md, Secrets: a game shows only what it declared public",
    )


def table_view(state: dict, *, reveal: bool = False) -> dict:
    """The table as its page shows it: every declared secret in force concealed, unless `reveal`.

    `hidden` names the secrets concealed, so a page can say what it holds back. A game that
    has declared nothing keeps its page as it is (it hides what it must itself).
    """
    rules = get_game(state["game"])
    view = _full_view(state, rules)
    if reveal:
        return _concealed(view, ())
    return _concealed(view, _in_force(state, view["summary"], getattr(rules, "SECRETS", None)))


def public_view(state: dict) -> dict:
    """What anyone may see of a table now: state, actions, summary, standings (and `hidden`).

    The call for the room display and for readers without edit rights. A game that has not
    declared its secrets shows who plays and nothing they hold or score until it ends.
    """
    rules = get_game(state["game"])
    view = _full_view(state, rules)
    secrets = getattr(rules, "SECRETS", None)
    if secrets is None and not view["summary"]["finished"]:
        return _concealed(view, (_undeclared(state),))
    return _concealed(view, _in_force(state, view["summary"], secrets))


def public_standings(state: dict) -> list[dict]:
    """Live standings as far as secrecy allows: hidden points and totals are markers."""
    return public_view(state)["standings"]


def _concealed(view: dict, secrets: tuple[Secret, ...]) -> dict:
    """The view with every path of `secrets` replaced by its marker, and their names."""
    for secret in secrets:
        for path in secret.paths:
            _conceal(view, path.split("."))
    return {**view, "hidden": [secret.name for secret in secrets]}


def _copied(value: object) -> object:
    """A deep copy of JSON-like data (dicts, lists, scalars), faster than copy.deepcopy."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_copied(item) for item in value]
    return value


def _conceal(node: object, parts: list[str], *, keep_none: bool = False) -> None:
    """Replace what `parts` leads to under `node` by its marker (missing places are skipped).

    With `keep_none` a null stays null: in a move it says a seat had nothing to enter (a seat
    without houses at a sale), which the table sees; in a view a null can tell (no bid limit).
    """
    head, rest = parts[0], parts[1:]
    for key in _keys(node, head):
        if rest:
            _conceal(node[key], rest, keep_none=keep_none)  # type: ignore[index]
        elif not (keep_none and node[key] is None):  # type: ignore[index]
            node[key] = hidden(node[key])  # type: ignore[index]


def _keys(node: object, part: str) -> list:
    """The keys of `node` that `part` names: every one for `*`, else that one if present."""
    if isinstance(node, list):
        return list(range(len(node))) if part == EVERY else []
    if isinstance(node, dict) and not is_hidden(node):
        return list(node) if part == EVERY else ([part] if part in node else [])
    return []


def log_secrets_in_force(state: dict, *, reveal: bool = False) -> tuple[LogSecret, ...] | None:
    """The log secrets hiding something now; () once the game is over or on `reveal`.

    None for a running game that has not declared `LOG_SECRETS`: its log shows only what
    happened and who did it (`UNDECLARED_MOVE_SHOWN`), and no setup.
    """
    rules = get_game(state["game"])
    if reveal or rules.summary(state)["finished"]:
        return ()
    declared_log = getattr(rules, "LOG_SECRETS", None)
    if declared_log is None:
        return None
    return tuple(secret for secret in declared_log if secret.in_force(state))


def log_view(state: dict, moves: list, *, setup: dict | None = None, reveal: bool = False) -> dict:
    """The moves (None for an undo) and setup as a log read now may show them, and `hidden`.

    `state` is the table's current state: what is in force now decides, for every entry,
    since an old bid adds up to today's coins. Markers as in `table_view`; a field that is
    null or missing says nothing and stays as it is. Copies: the inputs are never changed.
    """
    secrets = log_secrets_in_force(state, reveal=reveal)
    if secrets is None:
        return {
            "setup": None if setup is None else hidden(setup),
            "moves": [_undeclared_move(move) for move in moves],
            "hidden": ["undeclared"],
        }
    return {
        "setup": None if setup is None else _concealed_setup(setup, secrets),
        "moves": [concealed_move(move, secrets) for move in moves],
        "hidden": list(dict.fromkeys(secret.name for secret in secrets)),
    }


def public_move(state: dict, move: dict | None) -> dict | None:
    """One move as anyone may read it now (the room display's last move)."""
    return log_view(state, [move])["moves"][0]


def concealed_move(move: dict | None, secrets: tuple[LogSecret, ...]) -> dict | None:
    """A copy of `move` with every field `secrets` name for its type replaced by a marker."""
    if not isinstance(move, dict):
        return move
    shown = _copied(move)
    for secret in secrets:
        for parts in secret.move_paths(move.get("type")):
            _conceal(shown, parts, keep_none=True)
    return shown  # type: ignore[return-value]


def _concealed_setup(setup: dict, secrets: tuple[LogSecret, ...]) -> dict:
    """A copy of the setup with every key `secrets` name replaced by a marker."""
    shown = _copied(setup)
    for secret in secrets:
        for path in secret.setup:
            _conceal(shown, path.split("."), keep_none=True)
    return shown  # type: ignore[return-value]


def _undeclared_move(move: dict | None) -> dict | None:
    """An undeclared game's move: its type and seat, every other field a marker."""
    if not isinstance(move, dict):
        return move
    return {
        key: value if key in UNDECLARED_MOVE_SHOWN else hidden(value) for key, value in move.items()
    }
