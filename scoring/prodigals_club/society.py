"""Society bookkeeping: token values or their sum, limited to the chart (RULES.md §5)."""

from scoring.common import is_int
from scoring.errors import N_, IllegalMove, collect, raise_all
from scoring.prodigals_club import chart
from scoring.prodigals_club.chart import SOCIETY_TOKENS


def limited(total: int, chart: list[int] | None) -> int:
    """The society score within the chart's range, when the table entered one."""
    if chart is None:
        return total
    return min(max(total, chart[0]), chart[1])


def apply_society(state: dict, seat: int, move: dict) -> dict | None:
    """Record new token values (or only their sum); the notice when the chart limits it."""
    tokens = move.get("tokens")
    total = move.get("sum")
    player = state["players"][seat]
    if tokens is not None:
        if not (
            isinstance(tokens, list)
            and len(tokens) == SOCIETY_TOKENS
            and all(is_int(value) for value in tokens)
        ):
            raise IllegalMove(
                N_("tokens: enter the 4 chart values under the tokens as whole numbers.")
            )
        if total is not None and total != sum(tokens):
            raise IllegalMove(
                N_(
                    "sum: the 4 token values add up to {total}, not {value}; correct the tokens"
                    " or leave the sum empty."
                ),
                total=sum(tokens),
                value=repr(total),
            )
        board = state["board"]
        if board.get("society_chart"):
            # Known spaces follow the entered values, so the token steppers keep working.
            player["spaces"] = chart.placed(board["society_chart"], player.get("spaces"), tokens)
        player["tokens"] = list(tokens)
        total = sum(tokens)
    elif is_int(total):
        player["tokens"] = None
        player["spaces"] = None
    else:
        raise IllegalMove(
            N_("sum: enter the 4 token values or their sum as a whole number, not {value}."),
            value=repr(total),
        )
    return _scored(state, seat, total)


def _scored(state: dict, seat: int, total: int) -> dict | None:
    """Keep the society score within the range; the notice when the chart limits it."""
    score = limited(total, state["board"]["society_range"])
    state["players"][seat]["society"] = score
    if score != total:
        return {"kind": "society_limited", "seat": seat, "wanted": total, "score": score}
    return None


def apply_token_step(state: dict, seat: int, move: dict) -> dict | None:
    """One token one space up or down its column of the chart; the score follows the chart."""
    board, player = state["board"], state["players"][seat]
    refusals: list = []
    token = collect(refusals, _token, move.get("token"))
    direction = collect(refusals, _direction, move.get("direction"))
    raise_all(refusals)
    if not board.get("society_chart"):
        raise IllegalMove(
            N_(
                "No society chart was entered at setup, so a token cannot be moved by one"
                " space; enter the new token values instead."
            )
        )
    if not player.get("spaces"):
        raise IllegalMove(
            N_(
                "Only {name}'s society sum is known, not where the tokens are; enter the 4"
                " token values first."
            ),
            name=player["name"],
        )
    player["spaces"] = chart.stepped(board["society_chart"], player["spaces"], token, direction)
    player["tokens"] = chart.values(board["society_chart"], player["spaces"])
    return _scored(state, seat, sum(player["tokens"]))


def _token(value: object) -> int:
    """A token by its index, 0 to 3 (the player sees 1 to 4)."""
    if not (is_int(value) and 0 <= value < SOCIETY_TOKENS):
        raise IllegalMove(N_("Choose which token moves: 1, 2, 3 or 4."))
    return value


def _direction(value: object) -> str:
    """Up or down."""
    if value not in chart.DIRECTIONS:
        raise IllegalMove(N_("A token moves up or down, not {value}."), value=repr(value))
    return value
