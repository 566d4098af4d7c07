"""What of a running game's standings a shared screen may show: the room display's columns.

The columns are read from the table's public view (`scoring.secrecy.public_view`: what every
player sees at the physical table, each game's declared secrets concealed), so the room display
and the table page hide the same things for the same reasons (docs/game-contract.md "Secrets").
A hidden number is None here and `hidden` names why. A finished game shows everything through
its `results(state)` instead.

- Razzia! (RULES.md §1): families are face up and every round is scored openly, so the points
  of the rounds scored so far are public, and so is what the round would give if it ended now,
  except in round 3 while a check lies face down (its points count the face-down checks).
- For Sale (RULES.md §2): coins may be kept secret and won checks lie face down, so only how
  many houses and checks each player holds; no money until the end.
- Cech zlodějů (RULES.md §3): gold lies on the table; the number of cards in hand is seen.
- Adel Verpflichtet (RULES.md §4 "Hidden information"): hands are secret; the pawns on the
  track are public.
- Klub ztroskotanců (RULES.md §5): each competition's score is on the boards (cash, tiles,
  the votes track, the society chart); the tile penalty counts only at the end.
"""

from collections.abc import Callable

from scoring import secrecy
from scoring.prodigals_club.scores import competition_scores

Values = dict[str, int | None]
#: The room's words for what a declared secret holds back (companion_app/games/room.py).
HIDDEN_KINDS = {
    "coins": "coins",
    "checks": "check_values",
    "hands": "hands",
    "face_down_checks": "face_down_checks",
    "check_points": "check_points",
}


def _shown(value: object) -> object:
    """A value as the room may print it: None where a secret holds it back."""
    return None if secrecy.is_hidden(value) else value


def _count(value: object) -> int:
    """How many items a list holds, hidden or not (a hidden list keeps its count)."""
    return value["count"] if secrecy.is_hidden(value) else len(value)  # type: ignore[index]


def _standings(state: dict, columns: dict[str, list], hidden: list[str]) -> dict:
    """{"columns", "rows" (seat order: seat, name, values), "hidden"} from per-column lists."""
    rows = [
        {
            "seat": seat,
            "name": player["name"],
            "values": {column: values[seat] for column, values in columns.items()},
        }
        for seat, player in enumerate(state["players"])
    ]
    return {"columns": list(columns), "rows": rows, "hidden": list(hidden)}


def razzia(view: dict) -> dict:
    """Points of the rounds scored so far, and this round's if it ended now (during play)."""
    state = view["state"]
    columns = {"points": list(state["totals"])}
    if state["phase"] in ("turn", "auction"):
        columns["this_round"] = [_shown(entry["points"]["total"]) for entry in view["standings"]]
    return _standings(state, columns, view["hidden"])


def for_sale(view: dict) -> dict:
    """How many houses and checks each holds; coins and the checks' values stay hidden."""
    players = view["state"]["players"]
    columns = {
        "houses": [_count(player["houses"]) for player in players],
        "checks": [_count(player["checks"]) for player in players],
    }
    return _standings(view["state"], columns, view["hidden"])


def thieves_guild(view: dict) -> dict:
    """Gold on the table and how many cards each holds (what the cards are stays hidden)."""
    players = view["state"]["players"]
    columns = {
        "gold": [_shown(player["gold"]) for player in players],
        "cards": [_shown(player["cards"]) for player in players],
    }
    return _standings(view["state"], columns, [*view["hidden"], "hands"])


def adel_verpflichtet(view: dict) -> dict:
    """Each pawn's space on the track; the hands stay hidden."""
    positions = [_shown(player["position"]) for player in view["state"]["players"]]
    return _standings(view["state"], {"space": positions}, view["hidden"] or ["hands"])


def prodigals_club(view: dict) -> dict:
    """Each competition's score as the boards show it (lowest wins; no tile penalty yet)."""
    state = view["state"]
    seats = range(len(state["players"]))
    scores = [competition_scores(state, seat, game_end=False) for seat in seats]
    columns = {name: [score.get(name) for score in scores] for name in state["competitions"]}
    return _standings(state, columns, view["hidden"])


#: Game name -> its public standings while the game runs.
#: Each takes the public view (`scoring.secrecy.public_view`).
PUBLIC_STANDINGS: dict[str, Callable[[dict], dict]] = {
    "razzia": razzia,
    "for_sale": for_sale,
    "thieves_guild": thieves_guild,
    "adel_verpflichtet": adel_verpflichtet,
    "prodigals_club": prodigals_club,
}


def public_standings(game: str, state: dict) -> dict:
    """The standings of a running `game` a shared screen may show (KeyError: unknown game)."""
    shown = PUBLIC_STANDINGS[game](secrecy.public_view(state))
    kinds = [HIDDEN_KINDS.get(name, name) for name in shown["hidden"]]
    return {**shown, "hidden": list(dict.fromkeys(kinds))}
