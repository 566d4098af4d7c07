"""Society bookkeeping: token values or their sum, limited to the chart (RULES.md §5)."""

from scoring.errors import N_, IllegalMove
from scoring.prodigals_club.board import SOCIETY_TOKENS, is_int


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
        player["tokens"] = list(tokens)
        total = sum(tokens)
    elif is_int(total):
        player["tokens"] = None
    else:
        raise IllegalMove(
            N_("sum: enter the 4 token values or their sum as a whole number, not {value}."),
            value=repr(total),
        )
    score = limited(total, state["board"]["society_range"])
    player["society"] = score
    if score != total:
        return {"kind": "society_limited", "seat": seat, "wanted": total, "score": score}
    return None
