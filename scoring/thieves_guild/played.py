"""A card played: recorded by name with its gold effects, as the table enters them.

Card texts are not in our sources (RULES.md §3 "Cards"), so nothing is assumed: the table
enters what the card did: gold from a player to another or to the bank, a die changed
("Špatná informace"), a player jailed (loses their next turn), Černý Petr handed to a player
(it stays in that player's hand and costs them 2 gold at the start of each of their turns).
"""

from scoring import names as names_rule
from scoring.common import only_known_fields
from scoring.errors import N_, IllegalMove, at_field, collect, collect_at, raise_all
from scoring.thieves_guild import seats, turn

BANK = "bank"
TRANSFER_KEYS = ("from", "to", "gold")
#: More gold effects than this on one card is junk, not a card.
MAX_TRANSFERS = 9
#: A refusal of several names or amounts for one card names at most this many.
MAX_NAMES_SHOWN = 3


def play_card(state: dict, move: dict, log: list) -> None:
    """Record a card played by `seat`: its effects, then the card leaves the player's hand.

    The player, the card's name and each of its effects are checked together, so every
    refusal shows at once (the state is a copy: a refused card changes nothing). With
    `"stop": true` the card also stopped the robbery: the turn ends in the same move.
    """
    turn.require_phase(state, *turn.CARD_PHASES)
    refusals: list = []
    seat = collect(refusals, _card_holder, state, move.get("seat"))
    name = collect_at(refusals, "card", card_name, move.get("card"))
    stops = collect_at(refusals, "stop", _stops, state, move.get("stop", False))
    had = None if seat is None else state["players"][seat]["gold"]
    entries = collect(refusals, _transfers, move.get("transfers", [])) or []
    moved = [collect(refusals, _transfer, state, entry) for entry in entries]
    if had is not None and None not in moved:
        collect_at(refusals, "gold", keeps_last_gold, state, seat, had, moved)
    event: dict = {"event": "card", "seat": seat, "card": name, "transfers": moved}
    if "roll" in move:
        event["roll"] = collect_at(refusals, "new_roll", _change_roll, state, move["roll"])
    if "jail" in move:
        event["jail"] = collect(refusals, _jail, state, move["jail"])
    if "black_peter" in move and seat is not None:
        event["black_peter"] = collect(
            refusals, _hand_black_peter, state, seat, move["black_peter"]
        )
    raise_all(refusals)
    state["players"][seat]["cards"] -= 1
    state["cards_played"] = state.get("cards_played", 0) + 1
    if "black_peter" not in move:
        state["discard"] += 1
    log.append(event)
    if state["phase"] != "ending":
        turn.check_zero(state, log, state["phase"], "card")
    if stops:
        turn.stop(state, log)


def _stops(state: dict, stop: object) -> bool:
    """Whether the card stopped the robbery (only while the turn's robbery is on)."""
    if type(stop) is not bool:
        raise IllegalMove(N_("stop: true or false, not {value}."), value=repr(stop)[:12])
    if stop and state["phase"] not in turn.STOPPABLE:
        raise IllegalMove(
            N_("Someone has lost their last gold: the turn's robbery is over, nothing to stop.")
        )
    return stop


def keeps_last_gold(state: dict, seat: int, had: int, moved: list[dict]) -> None:
    """Refuse a card whose own effects take its player's last gold.

    Seed (Cech zlodějů, "Další pravidlo Cechu zlodějů"): "Zloděj nikdy nesmí připravit sám
    sebe o poslední zlatý" (a thief never deprives himself of his last gold). Gold others
    take from the player is robbery, not this; so only the player's own giving counts.
    """
    gives = any(transfer["from"] == seat for transfer in moved)
    if gives and had > 0 and state["players"][seat]["gold"] == 0:
        raise IllegalMove(
            N_(
                "{name} cannot give away their last gold with their own card: a thief never "
                "deprives themselves of their last gold."
            ),
            name=state["players"][seat]["name"],
        )


def _card_holder(state: dict, seat: object) -> int:
    """The seat playing the card, who must hold one."""
    seat = turn.seat_of(state, seat)
    player = state["players"][seat]
    if player["cards"] < 1:
        raise IllegalMove(N_("{name} has no card in hand to play."), name=player["name"])
    return seat


def card_name(text: object) -> str:
    """The card's name as written on it, clean like a player name."""
    if isinstance(text, list) and len(text) > 1 and all(isinstance(one, str) for one in text):
        raise IllegalMove(
            N_("One card per entry: {names}? Keep one of them."),
            names=" / ".join(one[:40] for one in text[:MAX_NAMES_SHOWN]),
        )
    if not isinstance(text, str) or not text.strip():
        raise IllegalMove(N_("Name the card played, as printed on it."))
    clean = names_rule.check_text(
        text, IllegalMove, N_("The card name {text} holds a hidden character {char}.")
    )
    if len(clean) > names_rule.MAX_NAME_LENGTH:
        raise IllegalMove(
            N_("A card name is at most {limit} characters."), limit=names_rule.MAX_NAME_LENGTH
        )
    return clean


def _transfers(entries: object) -> list[dict]:
    """The card's gold effects: a list of {from, to, gold} objects."""
    if not isinstance(entries, list) or len(entries) > MAX_TRANSFERS:
        raise IllegalMove(
            N_("transfers must be a list of gold effects (from a player to a player or the bank).")
        )
    for entry in entries:
        if not isinstance(entry, dict):
            raise IllegalMove(N_("A gold effect is an object with from, to and gold."))
        only_known_fields(
            entry,
            TRANSFER_KEYS,
            IllegalMove,
            N_("Unknown field {field} in a gold effect; it takes: {known}."),
        )
    return entries


def _transfer(state: dict, entry: dict) -> dict:
    """Move the gold of one effect; it never takes more than the player has.

    Who pays, who gets and how much are checked together; the payer's gold only once both
    the payer and the amount are right.
    """
    refusals: list = []
    giver = collect(refusals, _effect_seat, state, entry.get("from"), "from")
    to = entry.get("to")
    if to != BANK:
        to = collect(refusals, _effect_seat, state, to, "to")
        if to is not None and to == giver:
            refused = IllegalMove(N_("A gold effect moves gold to another player or to the bank."))
            refusals.append(at_field(refused, "to"))
    gold = entry.get("gold")
    if isinstance(gold, list) and len(gold) > 1:
        refused = IllegalMove(
            N_("A gold effect moves one amount: {amounts}? Keep one of them."),
            amounts=" / ".join(repr(one)[:12] for one in gold[:MAX_NAMES_SHOWN]),
        )
        refusals.append(at_field(refused, "gold"))
    elif type(gold) is not int or gold < 1:
        refused = IllegalMove(N_("A gold effect moves a whole number of gold, 1 or more."))
        refusals.append(at_field(refused, "gold"))
    elif giver is not None and gold > state["players"][giver]["gold"]:
        player = state["players"][giver]
        refused = IllegalMove(
            N_("{name} has only {have} gold; the card cannot take {gold}."),
            name=player["name"],
            have=player["gold"],
            gold=gold,
        )
        refusals.append(at_field(refused, "gold"))
    raise_all(refusals)
    player = state["players"][giver]
    player["gold"] -= gold
    if to == BANK:
        state["bank"] += gold
    else:
        state["players"][to]["gold"] += gold
    return {"from": giver, "to": to, "gold": gold}


def _effect_seat(state: dict, seat: object, field: str) -> int:
    """The player who pays (`from`) or gets (`to`) a gold effect, validated."""
    return turn.seat_of(state, seat, field)


def _change_roll(state: dict, roll: object) -> dict:
    """ "Špatná informace": the last roll becomes `roll` (played right after that roll)."""
    phase = state["phase"]
    if phase == "reaction":
        old, state["loot"] = state["loot"], seats.check_roll(roll, seats.LOOT_ROLL)
        return {"which": "loot", "old": old, "new": state["loot"]}
    if phase == "robbery":
        count = len(state["players"])
        old, state["target"] = state["target"], seats.check_target(count, roll)
        if turn.needs_aim(state):
            state["phase"] = "aim"
        return {"which": "target", "old": old, "new": state["target"]}
    if phase == "aim":
        raise IllegalMove(
            N_("A card that changes the second roll is played once the robber has chosen the side.")
        )
    raise IllegalMove(N_("No die roll can be changed now; only reactions to the lost gold."))


def _jail(state: dict, seat: object) -> int:
    """The player goes to jail and loses their next turn."""
    seat = turn.seat_of(state, seat, "jail")
    if seat not in state["jailed"]:
        state["jailed"] = [*state["jailed"], seat]
    return seat


def _hand_black_peter(state: dict, seat: int, holder: object) -> int:
    """Černý Petr goes to `holder`'s hand and stays there (it is never discarded)."""
    holder = turn.seat_of(state, holder, "black_peter")
    current = state["black_peter"]
    if current is not None and current != seat:
        raise IllegalMove(
            N_("Černý Petr is with {holder}; only its holder can hand it on."),
            holder=state["players"][current]["name"],
        )
    state["players"][holder]["cards"] += 1
    state["black_peter"] = holder
    return holder
