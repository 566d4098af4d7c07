"""A turn of Cech zlodějů: buying, the two rolls, the robbery, the next turn, the sudden end.

Every handler appends what happened to `log` (a list of plain event dicts), so the stored
move tells the history what the rules did ("Eva robs Petr of 4: Petr had 3, Eva pays a
fine"), including what followed by itself: a jailed turn skipped, Černý Petr's 2 gold.
"""

from scoring.common import ranks_by
from scoring.errors import N_, IllegalMove, at_field, collect, raise_all
from scoring.thieves_guild import seats

#: A robber who robs a pauper pays this fine to the bank (seed: "pokutu Cechu zlodějů").
PAUPER_FINE = 1
#: What Černý Petr costs its holder at the start of their turn.
BLACK_PETER_FEE = 2
#: The phases in which a played card may be recorded (after a roll, or as the last reaction).
CARD_PHASES = ("reaction", "aim", "robbery", "ending")
#: The phases in which a card can stop the turn's robbery (the loot is rolled, not yet taken).
STOPPABLE = ("reaction", "aim", "robbery")

#: Why a move is refused in each phase: what the table has to do first ({name}: whose turn).
PHASE_MESSAGES = {
    "start": N_("Choose the first player first: the highest roll, or by lot."),
    "buy": N_("{name} buys cards or enters the loot roll first."),
    "reaction": N_("Enter the target roll, a card played, or end the turn first."),
    "aim": N_("{name} chooses left or right first."),
    "robbery": N_("Confirm the robbery, a card played, or end the turn first."),
    "ending": N_(
        "Someone has lost their last gold: record the reactions to it, then end the game."
    ),
    "game_over": N_("The game is over."),
}


def require_phase(state: dict, *phases: str) -> None:
    """Refuse the move unless the table is in one of `phases`, saying what comes first."""
    phase = state["phase"]
    if phase not in phases:
        turn = state["turn"]
        name = state["players"][turn]["name"] if turn is not None else ""
        raise IllegalMove(PHASE_MESSAGES[phase], name=name)


#: A seat that is no player at the table, per move field (the page names the field). The seat
#: a move posts is not shown: the tablet numbers players from 1, a move from 0.
NOT_A_PLAYER = {
    "seat": N_("seat: choose one of the {count} players at the table."),
    "from": N_("from: the gold comes from one of the {count} players at the table."),
    "to": N_("to: the gold goes to one of the {count} players at the table, or to the bank."),
    "jail": N_("jail: the one who goes to jail is one of the {count} players at the table."),
    "black_peter": N_("black_peter: Černý Petr goes to one of the {count} players at the table."),
}


def seat_of(state: dict, seat: object, field: str = "seat") -> int:
    """A seat at the table, validated; a refusal names the move field that holds it."""
    count = len(state["players"])
    if type(seat) is not int or not 0 <= seat < count:
        raise at_field(IllegalMove(NOT_A_PLAYER[field], count=count), field)
    return seat


def require_turn(state: dict, move: dict) -> int:
    """The seat whose turn it is; a move naming another seat is refused."""
    turn = state["turn"]
    if "seat" in move and seat_of(state, move["seat"]) != turn:
        raise IllegalMove(
            N_("It is {expected}'s turn, not {got}'s."),
            expected=state["players"][turn]["name"],
            got=state["players"][move["seat"]]["name"],
        )
    return turn


def start(state: dict, move: dict, log: list) -> None:
    """The first player (highest roll, or drawn by lot) begins the first turn."""
    require_phase(state, "start")
    seat = seat_of(state, move.get("seat"))
    state["start_player"] = seat
    log.append({"event": "start", "seat": seat})
    begin_turn(state, seat, log)


def begin_turn(state: dict, seat: int, log: list) -> None:
    """Start `seat`'s turn: jailed players lose theirs; Černý Petr's holder pays 2 to the bank."""
    count = len(state["players"])
    while seat in state["jailed"]:
        state["jailed"] = [other for other in state["jailed"] if other != seat]
        log.append({"event": "jailed", "seat": seat})
        seat = (seat + 1) % count
    state.update(
        turn=seat,
        turn_no=state["turn_no"] + 1,
        bought=0,
        loot=None,
        target=None,
        direction=None,
        cards_played=0,
    )
    state["phase"] = "buy"
    log.append({"event": "turn", "seat": seat})
    if state["black_peter"] == seat:
        player = state["players"][seat]
        paid = min(BLACK_PETER_FEE, player["gold"])
        player["gold"] -= paid
        state["bank"] += paid
        log.append({"event": "black_peter", "seat": seat, "paid": paid})
        check_zero(state, log, "buy", "black_peter")


def next_cost(state: dict) -> int | None:
    """What the next card bought this turn costs, or None past the entered table."""
    costs = state["card_costs"]
    return costs[state["bought"]] if state["bought"] < len(costs) else None


def buy_refusal(state: dict) -> tuple[str, dict] | None:
    """(message, params) saying why the player to act cannot buy a card now, or None."""
    player = state["players"][state["turn"]]
    cost = next_cost(state)
    if cost is None:
        return (
            N_("The card-cost table entered at setup lists {count} cards per turn."),
            {"count": len(state["card_costs"])},
        )
    if state["deck"] == 0:
        return N_("The deck is empty: there is no card to buy."), {}
    if player["gold"] - cost < 1:
        return (
            N_(
                "{name} cannot buy a card for {cost} gold with {gold} gold: a thief never "
                "spends their own last gold."
            ),
            {"name": player["name"], "cost": cost, "gold": player["gold"]},
        )
    return None


def buy(state: dict, move: dict, log: list) -> None:
    """The player to act buys the next card at the table's price; the gold goes to the bank."""
    require_phase(state, "buy")
    seat = require_turn(state, move)
    refusal = buy_refusal(state)
    if refusal is not None:
        raise IllegalMove(refusal[0], **refusal[1])
    cost = next_cost(state)
    player = state["players"][seat]
    player["gold"] -= cost
    player["cards"] += 1
    state["bank"] += cost
    state["deck"] -= 1
    state["bought"] += 1
    log.append({"event": "buy", "seat": seat, "cost": cost, "number": state["bought"]})


def loot(state: dict, move: dict, log: list) -> None:
    """The first roll: how much gold the robber steals this turn."""
    require_phase(state, "buy")
    seat = require_turn(state, move)
    state["loot"] = seats.check_roll(move.get("roll"), seats.LOOT_ROLL)
    state["phase"] = "reaction"
    log.append({"event": "loot", "seat": seat, "roll": state["loot"]})


def target(state: dict, move: dict, log: list) -> None:
    """The second roll: who is robbed; with 5-9 players the robber then chooses the side."""
    require_phase(state, "reaction")
    seat = require_turn(state, move)
    count = len(state["players"])
    refusals: list = []  # the roll and the side are checked together
    roll = collect(refusals, seats.check_target, count, move.get("roll"))
    if "direction" in move:
        direction = collect(refusals, seats.check_direction, count, move["direction"])
    raise_all(refusals)
    state["target"] = roll
    log.append({"event": "target", "seat": seat, "roll": state["target"]})
    if "direction" in move:
        state["direction"] = direction
        log.append({"event": "aim", "seat": seat, "direction": state["direction"]})
    state["phase"] = "aim" if needs_aim(state) else "robbery"


def needs_aim(state: dict) -> bool:
    """True while the robber still has to choose left or right for the target roll."""
    count = len(state["players"])
    return (
        seats.needs_direction(count)
        and state["direction"] is None
        and seats.victim(count, state["turn"], state["target"], seats.LEFT) is not None
    )


def aim(state: dict, move: dict, log: list) -> None:
    """The robber counts the target roll to the left or to the right."""
    count = len(state["players"])
    if not seats.needs_direction(count):
        seats.check_direction(count, move.get("direction"))  # refused: the seats decide
    require_phase(state, "aim")
    seat = require_turn(state, move)
    state["direction"] = seats.check_direction(len(state["players"]), move.get("direction"))
    state["phase"] = "robbery"
    log.append({"event": "aim", "seat": seat, "direction": state["direction"]})


def victim(state: dict) -> int | None:
    """The seat the robbery takes gold from now, or None (the count lands on the robber)."""
    count = len(state["players"])
    return seats.victim(count, state["turn"], state["target"], state["direction"])


def takings(state: dict, robbed: int) -> tuple[int, int]:
    """(gold taken, fine): the loot, or a pauper's all and a fine of 1 for the robber."""
    had = state["players"][robbed]["gold"]
    return min(state["loot"], had), PAUPER_FINE if had < state["loot"] else 0


def rob(state: dict, move: dict, log: list) -> None:
    """The victim gives the loot; a pauper gives all and the robber pays a fine of 1."""
    require_phase(state, "robbery")
    robber = require_turn(state, move)
    robbed = victim(state)
    if robbed is None:
        log.append({"event": "no_victim", "seat": robber, "roll": state["target"]})
        next_turn(state, log)
        return
    players = state["players"]
    had = players[robbed]["gold"]
    took, fine = takings(state, robbed)
    players[robbed]["gold"] -= took
    players[robber]["gold"] += took - fine
    state["bank"] += fine
    log.append(
        {
            "event": "rob",
            "seat": robber,
            "victim": robbed,
            "loot": state["loot"],
            "had": had,
            "took": took,
            "fine": fine,
        }
    )
    if not check_zero(state, log, "next_turn", "robbery"):
        next_turn(state, log)


def end_turn(state: dict, move: dict, log: list) -> None:
    """The turn ends without a robbery: a card stopped it; play passes to the left.

    The card is recorded first (card counts break a tie of gold) or in the same move
    (`"stop": true` on the card); ending the turn with no card recorded this turn needs the
    table's word that none was played (`"no_card": true`).
    """
    require_phase(state, *STOPPABLE)
    seat = require_turn(state, move)
    confirmed = move.get("no_card", False)
    if type(confirmed) is not bool:
        refused = IllegalMove(
            N_("no_card: true or false, not {value}."), value=repr(confirmed)[:12]
        )
        raise at_field(refused, "no_card")
    if _stopped_before_the_table_confirmed(move, seat):
        log.append({"event": "stopped", "seat": seat})
        next_turn(state, log)
        return
    if not state.get("cards_played") and not confirmed:
        raise IllegalMove(
            N_(
                "Which card stopped the robbery? Record it (cards in hand break a tie of gold), "
                "or confirm that no card was played."
            )
        )
    event = {"event": "stopped", "seat": seat}
    if not state.get("cards_played"):
        event["no_card"] = True
    log.append(event)
    next_turn(state, log)


def _stopped_before_the_table_confirmed(move: dict, seat: int) -> bool:
    """True for an end_turn a release before the `no_card` confirmation recorded (issue 23):
    its stored log says "stopped" without the flag. Replaying such a log (an upgraded or
    imported club) takes it as it was played; a move entered now never carries a log (the
    store completes it afresh), so the confirmation still guards every new entry."""
    recorded = move.get("log")
    return (
        "no_card" not in move
        and isinstance(recorded, list)
        and {"event": "stopped", "seat": seat} in recorded
    )


def stop(state: dict, log: list) -> None:
    """The card just recorded stopped the robbery: the turn ends (after any sudden end)."""
    log.append({"event": "stopped", "seat": state["turn"]})
    if state["phase"] == "ending":
        state["resume"] = "next_turn"  # should everyone have gold again, the next player goes on
        return
    next_turn(state, log)


def next_turn(state: dict, log: list) -> None:
    """Play passes to the left: the next seat in the list."""
    begin_turn(state, (state["turn"] + 1) % len(state["players"]), log)


def broke(state: dict) -> list[int]:
    """Seats with no gold left."""
    return [seat for seat, player in enumerate(state["players"]) if player["gold"] == 0]


#: What took a player's last gold: Černý Petr's fee, a robbery, or a card (`lost_by`).
LOST_BY = ("black_peter", "robbery", "card")


def check_zero(state: dict, log: list, resume: str, lost_by: str) -> bool:
    """When a player has lost their last gold, only reactions to that remain (then the end).

    `resume` is where play goes on should a reaction give everyone gold again; `lost_by` (one
    of LOST_BY) is what took the gold, so the table's ending screen can say it.
    """
    seats_broke = broke(state)
    if not seats_broke or state["phase"] == "ending":
        return bool(seats_broke)
    state["resume"] = resume
    state["lost_by"] = lost_by
    state["phase"] = "ending"
    log.append({"event": "last_gold", "seats": seats_broke})
    return True


def settle(state: dict, move: dict, log: list) -> None:
    """No more reactions: the game ends if anyone is still at 0 gold, else play goes on."""
    require_phase(state, "ending")
    seats_broke = broke(state)
    if seats_broke:
        state["phase"] = "game_over"
        state["ranks"] = ranks(state["players"])
        log.append({"event": "game_over", "seats": seats_broke})
        return
    resume, state["resume"], state["lost_by"] = state["resume"], None, None
    log.append({"event": "resume"})
    if resume == "next_turn":
        next_turn(state, log)
    else:
        state["phase"] = resume


def ranks(players: list[dict]) -> list[int]:
    """1 + players strictly better: most gold, then more cards in hand; a full tie is shared."""
    return ranks_by([(player["gold"], player["cards"]) for player in players])
