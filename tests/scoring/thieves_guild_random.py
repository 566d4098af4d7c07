"""Random but legal Cech zlodějů tables, for the property tests and the app's tests."""

import random

from scoring import thieves_guild
from scoring.thieves_guild import seats

COSTS = [1, 2, 3, 4]
#: Chances of the moves a table might make when it may.
BUY_CHANCE = 0.3
CARD_CHANCE = 0.15
STOP_CHANCE = 0.05
#: A random game longer than this is a bug (the sudden end always comes).
MOST_MOVES = 20_000


def names(count: int) -> list[str]:
    """Player names for a table of `count`."""
    return ["Eva", "Petr", "Jana", "Karel", "Olga", "Tomáš", "Věra", "Ivan", "Zita"][:count]


def random_card(state: dict, rng: random.Random) -> dict | None:
    """A card some player with cards might play now, with a random legal effect."""
    options = thieves_guild.actions(state)
    if not options.get("card_players"):
        return None
    seat = rng.choice(options["card_players"])
    players = state["players"]
    move: dict = {"type": "card", "seat": seat, "card": rng.choice(["Drzost", "Alarm", "Trezor"])}
    giver = rng.randrange(len(players))
    effect = rng.random()
    # A player's own card never gives away their own last gold (seed: "Zloděj nikdy nesmí
    # připravit sám sebe o poslední zlatý").
    most = players[giver]["gold"] - (giver == seat)
    if effect < 0.5 and most > 0:
        to = rng.choice(["bank", *(s for s in range(len(players)) if s != giver)])
        move["transfers"] = [{"from": giver, "to": to, "gold": rng.randint(1, most)}]
    elif effect < 0.65 and options["roll_change"]:
        move["card"] = "Špatná informace"
        move["roll"] = rng.choice(
            [
                r
                for r in seats.DIE
                if len(players) != 5 or r != 6 or options["roll_change"] == "loot"
            ]
        )
    elif effect < 0.8 and state["phase"] != "ending":
        move["jail"] = rng.randrange(len(players))
    elif effect < 0.9 and state["black_peter"] in (None, seat):
        move["card"] = "Černý Petr"
        move["black_peter"] = rng.randrange(len(players))
    if state["phase"] != "ending" and rng.random() < STOP_CHANCE * 4:
        move["stop"] = True  # the card stopped the robbery: the turn ends with it
    return move


def random_move(state: dict, rng: random.Random) -> dict:
    """A legal move chosen the way a table might play it."""
    options = thieves_guild.actions(state)
    phase = options["phase"]
    if phase == "start":
        return (
            {"type": "start"}
            if rng.random() < 0.5
            else {"type": "start", "seat": rng.choice(options["seats"])}
        )
    if phase in ("reaction", "aim", "robbery", "ending") and rng.random() < CARD_CHANCE:
        card = random_card(state, rng)
        if card is not None:
            return card
    if phase == "buy":
        if options["can_buy"] and rng.random() < BUY_CHANCE:
            return {"type": "buy"}
        return {"type": "loot", "roll": rng.choice(options["rolls"])}
    if phase in ("reaction", "aim", "robbery") and rng.random() < STOP_CHANCE:
        if state["cards_played"]:
            return {"type": "end_turn"}
        return {"type": "end_turn", "no_card": True}
    if phase == "reaction":
        move = {"type": "target", "roll": rng.choice(options["rolls"])}
        if len(state["players"]) >= 5 and rng.random() < 0.3:
            move["direction"] = rng.choice(seats.DIRECTIONS)
        return move
    if phase == "aim":
        return {"type": "aim", "direction": rng.choice(seats.DIRECTIONS)}
    if phase == "robbery":
        return {"type": "rob"}
    if phase == "ending":
        return {"type": "settle"}
    raise AssertionError(f"no move in phase {phase}")


def random_junk_move(state: dict, rng: random.Random) -> dict:
    """A move built from random parts: usually illegal, sometimes not."""
    move = {
        "type": rng.choice(
            [
                "start",
                "buy",
                "loot",
                "card",
                "target",
                "aim",
                "rob",
                "end_turn",
                "settle",
                "x",
                None,
            ]
        ),
        "seat": rng.choice([-1, 0, 1, 2, 8, 9, True, "0", None, 2.0]),
        "roll": rng.choice([0, 1, 6, 7, -3, "5", 5.0, None, True]),
        "direction": rng.choice(["left", "right", "up", "", None, 1]),
        "card": rng.choice(["Alarm", "", "\u202e", "x" * 41, 7, None]),
        "transfers": rng.choice(
            [
                [],
                [{"from": 0, "to": "bank", "gold": 999}],
                [{"from": 0, "to": 0, "gold": 1}],
                [{"from": 1, "to": 2, "gold": 0}],
                [{"from": 1}],
                "1",
                [5],
                None,
            ]
        ),
        "jail": rng.choice([0, 9, "x", None]),
        "black_peter": rng.choice([0, 1, -1, None]),
        "stop": rng.choice([True, False, 1, "yes", None]),
        "no_card": rng.choice([True, False, 0, "true", None]),
    }
    keep = rng.sample(list(move), rng.randint(1, len(move)))
    return {key: move[key] for key in keep}


def play(count: int, rng: random.Random, costs: list[int] | None = None) -> tuple[dict, list[dict]]:
    """A complete random game: the final state and the completed moves."""
    state = thieves_guild.new_table({"players": names(count), "card_costs": costs or COSTS})
    moves = []
    while state["phase"] != "game_over":
        move = thieves_guild.complete_move(state, random_move(state, rng), rng)
        state = thieves_guild.apply(state, move)
        moves.append(move)
        assert len(moves) < MOST_MOVES
    return state, moves
