"""What of a running game's standings a shared screen may show: the room display's rule.

A stand-in for the shared secrecy rules (issue 26; docs/game-contract.md "Secrets" once they
land): each game's function returns only what every player sees at the physical table
(RULES.md), never a hidden total, and names what it leaves out. A finished game shows
everything through its `results(state)` instead.

- Razzia! (RULES.md §1): families are face up and every round is scored openly, so the points
  of the rounds scored so far are public, and so is what the round would give if it ended now.
- For Sale (RULES.md §2 "Coins"): coins may be kept secret and won checks lie face down, so
  only how many houses and checks each player holds; no money until the end.
- Cech zlodějů (RULES.md §3): gold lies on the table (a robbery counts the victim's gold);
  the cards in hand are secret, their number is not.
- Adel Verpflichtet (RULES.md §4 "Hidden information"): hands are secret; the pawns on the
  track are public.
- Klub ztroskotanců (RULES.md §5): each competition's score is on the boards (cash, tiles,
  the votes track, the society chart); the tile penalty counts only at the end.
"""

from collections.abc import Callable

from scoring.prodigals_club.scores import competition_scores
from scoring.razzia.rounds import round_scores

Values = dict[str, int | None]


def _standings(state: dict, columns: dict[str, list], hidden: tuple[str, ...]) -> dict:
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


def razzia(state: dict) -> dict:
    """Points of the rounds scored so far, and this round's if it ended now (during play)."""
    columns = {"points": list(state["totals"])}
    if state["phase"] in ("turn", "auction"):
        columns["this_round"] = [score["total"] for score in round_scores(state)]
    return _standings(state, columns, ())


def for_sale(state: dict) -> dict:
    """How many houses and checks each holds; coins and the checks' values stay hidden."""
    players = state["players"]
    columns = {
        "houses": [len(player["houses"]) for player in players],
        "checks": [len(player["checks"]) for player in players],
    }
    return _standings(state, columns, ("coins", "check_values"))


def thieves_guild(state: dict) -> dict:
    """Gold on the table and how many cards each holds (what the cards are stays hidden)."""
    players = state["players"]
    columns = {
        "gold": [player["gold"] for player in players],
        "cards": [player["cards"] for player in players],
    }
    return _standings(state, columns, ("hands",))


def adel_verpflichtet(state: dict) -> dict:
    """Each pawn's space on the track; the hands stay hidden."""
    positions = [player["position"] for player in state["players"]]
    return _standings(state, {"space": positions}, ("hands",))


def prodigals_club(state: dict) -> dict:
    """Each competition's score as the boards show it (lowest wins; no tile penalty yet)."""
    seats = range(len(state["players"]))
    scores = [competition_scores(state, seat, game_end=False) for seat in seats]
    columns = {name: [score.get(name) for score in scores] for name in state["competitions"]}
    return _standings(state, columns, ())


#: Game name -> its public standings while the game runs.
PUBLIC_STANDINGS: dict[str, Callable[[dict], dict]] = {
    "razzia": razzia,
    "for_sale": for_sale,
    "thieves_guild": thieves_guild,
    "adel_verpflichtet": adel_verpflichtet,
    "prodigals_club": prodigals_club,
}


def public_standings(game: str, state: dict) -> dict:
    """The standings of a running `game` a shared screen may show (KeyError: unknown game)."""
    return PUBLIC_STANDINGS[game](state)
