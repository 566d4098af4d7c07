"""Sealed choices: what a seat's phone may seal now, and the one move every seat's choice makes.

A game with simultaneous secret choices (`reveal_seats`) may let each seat seal its own part
on its phone: `sealed_options(state, seat)` lists the choices that seat may seal now (JSON
values; empty when it has none), `sealed_move(state, choices)` the move they make together
once every choosing seat has sealed (`choices`: seat -> choice). Pure: the app stores the
sealed choices where nobody sees them and reveals them as that one move (issue 31).

Two optional hooks widen it to entries that are one player's alone but not a secret choice
the box gates (an Adel Verpflichtet exhibitor's cards): `sealed_seats(state)` names the seats
that enter now (default: `reveal_seats`), and `check_sealed(state, seat, choice)` validates a
choice too many to list (default: it must be one of `sealed_options`). A seat outside
`reveal_seats` has no lock-in: the move is made once every entering seat has entered.
"""

from scoring.errors import N_, IllegalMove


def supports(rules) -> bool:
    """True if the game lets seats seal their choices on their phones."""
    return hasattr(rules, "sealed_options") and hasattr(rules, "sealed_move")


def choosing_seats(rules, state: dict) -> list[int]:
    """The seats that seal a choice or an entry now (none for a game without the hooks)."""
    hook = getattr(rules, "sealed_seats", None) or getattr(rules, "reveal_seats", None)
    return list(hook(state)) if hook is not None and supports(rules) else []


def gated_seats(rules, state: dict) -> list[int]:
    """The seats whose choice is a simultaneous secret the reveal gates (`reveal_seats`)."""
    hook = getattr(rules, "reveal_seats", None)
    return list(hook(state)) if hook is not None else []


def options(rules, state: dict, seat: int) -> list:
    """The choices `seat` may seal now (empty when it chooses nothing now)."""
    if not supports(rules) or seat not in choosing_seats(rules, state):
        return []
    return list(rules.sealed_options(state, seat))


def check(rules, state: dict, seat: int, choice: object) -> object:
    """`choice` if `seat` may seal it now, else IllegalMove saying what it may do."""
    if seat not in choosing_seats(rules, state):
        raise IllegalMove(N_("{name} has nothing to choose now."), name=_name(state, seat))
    validate = getattr(rules, "check_sealed", None)
    if validate is not None:
        return validate(state, seat, choice)
    if choice not in options(rules, state, seat):
        raise IllegalMove(N_("{name} cannot choose that now."), name=_name(state, seat))
    return choice


def move(rules, state: dict, choices: dict[int, object]) -> dict | None:
    """The move every choosing seat's sealed choice makes, or None while a seat has not sealed."""
    if not all(seat in choices for seat in choosing_seats(rules, state)):
        return None
    return rules.sealed_move(state, dict(choices))


def _name(state: dict, seat: int) -> str:
    """The player's name at `seat`."""
    return state["players"][seat]["name"]
