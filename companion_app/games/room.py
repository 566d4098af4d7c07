"""What the room display says of each game's table: its round, who acts, its public columns.

The room display (`web/room.py`) shows every table from across the room, so it needs a few
words per game beside the view modules' names (TITLE, phase_label, describe, LED_LABELS):
how the game counts its rounds, who the table waits for when one player acts, and the labels
of the columns `scoring.public_standings` shows. A new game adds its line to each table.
"""

from collections.abc import Callable

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

#: Labels of the public standings' columns (scoring/public_standings.py), Klub's competitions too.
COLUMN_LABELS = {
    "points": _l("Points"),
    "this_round": _l("This round"),
    "score": _l("Final score"),
    "money": _l("Money"),
    "houses": _l("Houses"),
    "checks": _l("Checks"),
    "gold": _l("Gold"),
    "cards": _l("Cards"),
    "space": _l("Space"),
    "property": _l("Property"),
    "legacy": _l("Legacy"),
    "election": _l("Election"),
    "society": _l("Society"),
}
#: What a game keeps off the screen while it runs, in one sentence per hidden kind.
HIDDEN = {
    "coins": _l("Coins stay hidden until the end."),
    "check_values": _l("What the checks are worth stays hidden until the end."),
    "hands": _l("The cards in hand stay hidden."),
    "face_down_checks": _l("Checks lying face down stay hidden until the round ends."),
    "check_points": _l("Check points stay hidden while a check lies face down."),
}
#: What a finished game's score is, as a column of the ranking (by default "Final score").
FINAL_COLUMNS = {
    "razzia": "points",
    "for_sale": "money",
    "thieves_guild": "gold",
    "adel_verpflichtet": "space",
}
#: A line for spectators of a game whose standings read unlike the others.
NOTES = {"prodigals_club": _l("Each player’s highest score counts; the lowest wins.")}


def _of_rounds(summary: dict) -> str:
    """ "Round 2 of 3"."""
    numbers = {"round": summary["round"], "rounds": summary["rounds"]}
    return gettext("Round %(round)s of %(rounds)s", **numbers)


def _for_sale_round(summary: dict) -> str:
    """For Sale counts its buying rounds, then its selling rounds (none before the start)."""
    if summary["phase"] == "start":
        return ""
    numbers = {"round": summary["round"], "rounds": summary["rounds"]}
    if summary["phase"] in ("selling", "reveal", "game_over"):
        return gettext("Selling round %(round)s of %(rounds)s", **numbers)
    return gettext("Buying round %(round)s of %(rounds)s", **numbers)


def _thieves_round(summary: dict) -> str:
    """Cech zlodějů has no last round: the round play has reached (none before the start)."""
    return gettext("Round %(round)s", round=summary["round"]) if summary["round"] else ""


def _adel_turn(summary: dict) -> str:
    """Adel Verpflichtet counts turns until a pawn reaches the banquet."""
    return gettext("Turn %(turn)s", turn=summary["round"])


#: Game -> how its round reads on the room display, from the rules' `summary(state)`.
ROUNDS: dict[str, Callable[[dict], str]] = {
    "razzia": _of_rounds,
    "for_sale": _for_sale_round,
    "thieves_guild": _thieves_round,
    "adel_verpflichtet": _adel_turn,
    "prodigals_club": _of_rounds,
}


def round_text(game: str, summary: dict) -> str:
    """The table's round as the room display shows it ("" when the game has not started)."""
    return ROUNDS.get(game, _of_rounds)(summary)


def acting(state: dict, actions: dict) -> str | None:
    """Who the table waits for when one player acts now (None: the phase says it all)."""
    names = [player["name"] for player in state["players"]]
    if actions.get("actor") is not None:
        return gettext("%(name)s’s turn", name=names[actions["actor"]])
    if actions.get("buyer") is not None:  # Adel's auction house
        return gettext("%(name)s buys at the auction house", name=names[actions["buyer"]])
    if actions.get("owner") is not None:  # Adel's thieves at the castle
        owner = names[actions["owner"]]
        return gettext("Thief %(number)s of %(name)s steals", number=actions["thief"], name=owner)
    return None
