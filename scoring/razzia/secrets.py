"""What Razzia! players keep hidden while the game runs (RULES.md §1, docs/games/razzia.md).

The centre check an auction's winner takes lies face down until the round ends ("Tento
pokládá zakrytě ... tento šek zůstává ležet až do konce kola zakrytý"): the table sees that
it is there, not its value. Loot, face-up checks and the points written down after each
round are public.

The move log would tell them: the winner of an auction takes the centre check, which is the
check the previous winner bid, so the bids replayed give every face-down value. While a check
lies face down the log shows who bid, not which check (`LOG_SECRETS`); at the round's end,
when every check is turned face up, the bids show again.
"""

from scoring.razzia.cards import ROUNDS
from scoring.secrecy import LogSecret, Secret

#: The phases of a round in play (before its end screen).
RUNNING = ("turn", "auction")


def _some_face_down(state: dict) -> bool:
    """True while the round runs and a check lies face down in front of a player.

    At the round's end everyone turns their checks face up (RULES.md §1 "Round end").
    """
    running = state["phase"] in RUNNING
    return running and any(player["down"] for player in state["players"])


def _checks_score_with_some_face_down(state: dict) -> bool:
    """True in the last round while a check lies face down: check points would give it away."""
    return state["round"] == ROUNDS and _some_face_down(state)


FACE_DOWN_CHECKS = Secret(
    "face_down_checks",
    ("state.players.*.down",),
    'RULES.md §1 "Auction"; seed: "Tento pokládá zakrytě vedle svého rodinného majetku."',
    _some_face_down,
)
CHECK_POINTS = Secret(
    "check_points",
    ("standings.*.points.checks", "standings.*.points.total", "standings.*.total"),
    'RULES.md §1 "Round 3 only": check sums count face-down checks ("odkrytých i zakrytých")',
    _checks_score_with_some_face_down,
)
SECRETS = (FACE_DOWN_CHECKS, CHECK_POINTS)

#: A bid's check: the auction's winner bid it into the centre, the next winner took it face
#: down. Every bid of the game: the last bid of a round is the centre the next round starts
#: with, so an earlier round's bids name a face-down check too.
LOG_SECRETS = (LogSecret(FACE_DOWN_CHECKS, moves=("bid.check",)),)
