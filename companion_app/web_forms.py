"""Turn the table page's form posts into moves; the rules judge them, not this module."""

from werkzeug.datastructures import MultiDict

#: Which panel of the table page shows the refusal of each kind of move.
AREAS = {
    "deal": "deal",
    "draw": "draw",
    "thief": "thief",
    "forced_auction": "forced",
    "bid": "auction",
    "pass": "auction",
    "next_round": "next_round",
}
GENERAL_AREA = "general"
#: The panels that show their own errors in each phase; others go to the top of the page.
PHASE_AREAS = {
    "deal": ("deal",),
    "turn": ("draw", "thief", "forced"),
    "auction": ("auction",),
    "round_end": ("next_round",),
    "game_over": (),
}
#: A version no table has: a form without a readable version is refused as stale.
UNREADABLE_VERSION = -1


def whole_number(text: str | None) -> int | str | None:
    """An int if the text is one; otherwise the text itself, for the rules to refuse by name."""
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def parse_version(form: MultiDict) -> int:
    """The table version the form was rendered at."""
    version = whole_number(form.get("version"))
    return version if isinstance(version, int) else UNREADABLE_VERSION


def parse_move(form: MultiDict) -> dict:
    """The move a table-page form describes (fields as the rules name them)."""
    move: dict = {"type": form.get("type", "")}
    if "seat" in form:
        move["seat"] = whole_number(form["seat"])
    kind = move["type"]
    if kind == "draw":
        move["card"] = form.get("card", "")
    elif kind == "thief":
        move["take"] = form.getlist("take")
    elif kind == "bid":
        move["check"] = whole_number(form.get("check", ""))
    elif kind == "deal" and form.get("how") == "by_hand":
        move["sets"] = form.getlist("sets")
    return move


def area_of(move: dict) -> str:
    """The panel that shows this move's errors."""
    return AREAS.get(move.get("type"), GENERAL_AREA)


def areas_shown(phase: str) -> tuple[str, ...]:
    """The panels of the table page that show their own errors in this phase."""
    return PHASE_AREAS.get(phase, ())
