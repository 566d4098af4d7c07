"""Resolving a turn: the auction house, then the castle in the order RULES.md §4 fixes.

Every outcome is written to `state["report"]` as a step with its reason, so the tablet can
show the whole resolution before the table moves on to the next turn.
"""

from scoring.adel_verpflichtet import cards, castle, places
from scoring.adel_verpflichtet.table import read_fraction
from scoring.errors import N_, IllegalMove, collect, raise_all


def played_at(state: dict, place: str, kind: str) -> list[tuple[int, dict]]:
    """(seat, action) of every `kind` card played at `place` this turn."""
    return [
        (seat, action)
        for seat, action in enumerate(state["played"] or [])
        if state["places"][seat] == place and action["card"] == kind
    ]


def steal_order(state: dict) -> list[int]:
    """The numbers of the thieves at the castle in the order they steal: highest first."""
    return sorted((thief["number"] for thief in thieves_at(state, cards.CASTLE)), reverse=True)


def thieves_at(state: dict, place: str) -> list[dict]:
    """The thieves played at `place`: {"owner", "number"}."""
    return [
        {"owner": seat, "number": action["value"]}
        for seat, action in played_at(state, place, cards.THIEF)
    ]


def buyer(state: dict) -> tuple[int, int] | None:
    """(seat, check) of the highest check at the auction house, if anyone played one."""
    bids = [
        (action["value"], seat) for seat, action in played_at(state, cards.AUCTION, cards.CHECK)
    ]
    if not bids:
        return None
    value, seat = max(bids)
    return seat, value


def open_piles(state: dict) -> list[int]:
    """The piles that still have a card to buy."""
    return [index for index, pile in enumerate(state["piles"]) if pile["size"] > 0]


def _note(state: dict, step: str, **params: object) -> None:
    """Add one step of the resolution to the turn's report."""
    state["report"] = [*state["report"], {"step": step, **params}]


#: The refusal of a card that comes up which is not a letter and a year.
NEXT_CARD = N_("The card now on top of pile {pile}: tap a letter A to F and enter its year.")
NEXT_CARD_ANY = N_("The card now on top of the pile: tap a letter A to F and enter its year.")
CHOOSE_PILE = N_("Choose the pile whose top card the buyer takes: {piles}.")


def start(state: dict) -> None:
    """The actions are revealed: resolve the auction house, or wait for the buyer's pick."""
    state["report"] = []
    if buyer(state) is not None and open_piles(state):
        state["phase"] = "buy"
        return
    if buyer(state) is not None:
        _note(state, "nothing_to_buy")
    for thief in thieves_at(state, cards.AUCTION):
        _note(state, "thief_no_purchase", **thief)
    start_castle(state)


def buy(state: dict, move: dict) -> None:
    """The buyer takes one top card; the check is paid; a lone thief takes it."""
    seat, value = buyer(state)
    piles = open_piles(state)
    pile = move.get("pile")
    if type(pile) is not int or pile not in piles:
        refusals = [IllegalMove(CHOOSE_PILE, piles=" / ".join(str(i + 1) for i in piles))]
        if move.get("next") is not None:  # the card typed is told too: one round, not two
            collect(refusals, _next_card_seen, state, move["next"])
        raise_all(refusals)
    chosen = state["piles"][pile]
    card = chosen["top"]
    _check_recorded(state, move, purchase(state, pile))
    left = chosen["size"] - 1
    after = move.get("next")
    if left and after is None:
        raise IllegalMove(N_("Enter the card now on top of pile {pile}."), pile=pile + 1)
    if not left and after is not None:
        raise IllegalMove(N_("Pile {pile} is empty now; no card comes up."), pile=pile + 1)
    player = state["players"][seat]
    player["hand"] = [*player["hand"], card]
    chosen["top"] = None
    if left:
        coming = cards.read_card(after, "next", template=NEXT_CARD, pile=pile + 1)
        places.refuse_seen(state, [coming])  # the bought card is in the buyer's hand by now
        chosen["top"] = coming
    chosen["size"] = left
    player["checks"] = [check for check in player["checks"] if check != value]
    _note(state, "bought", seat=seat, check=value, card=card, pile=pile)
    _pay(state, value)
    start_castle(state)


def _next_card_seen(state: dict, after: object) -> None:
    """Before a pile is chosen, the card typed as coming up: a card, and seen nowhere yet.

    Whichever pile it comes up on, it cannot be a top card now (one is bought, the other stays),
    nor in a hand or an exhibition.
    """
    places.refuse_seen(state, [cards.read_card(after, "next", template=NEXT_CARD_ANY)])


def purchase(state: dict, pile: int) -> dict:
    """What buying from `pile` is: the buyer's seat, their check and the card they take.

    The stored move carries these (`moves.complete_move`), so the move log says who bought what.
    """
    seat, value = buyer(state)
    return {"seat": seat, "check": value, "card": state["piles"][pile]["top"]}


#: The refusal of a purchase whose recorded buyer, check or card is not this one.
NOT_THIS_PURCHASE = N_(
    "This purchase is {name}'s with check {check}, taking {card} from pile {pile}."
)


def _check_recorded(state: dict, move: dict, expected: dict) -> None:
    """A move that names the buyer, check or card must name this purchase's."""
    if any(key in move and move[key] != value for key, value in expected.items()):
        raise IllegalMove(
            NOT_THIS_PURCHASE,
            name=state["players"][expected["seat"]]["name"],
            check=expected["check"],
            card=cards.label(expected["card"]),
            pile=move["pile"] + 1,
        )


def _pay(state: dict, value: int) -> None:
    """The check goes to the register, unless one lone thief steals it."""
    thieves = thieves_at(state, cards.AUCTION)
    if len(thieves) == 1:
        owner = state["players"][thieves[0]["owner"]]
        owner["checks"] = sorted([*owner["checks"], value])
        _note(state, "check_stolen", check=value, **thieves[0])
        return
    state["register"] = [*state["register"], value]
    _note(state, "register", check=value)
    if thieves:
        _note(state, "thieves_scared", numbers=[thief["number"] for thief in thieves])


def start_castle(state: dict) -> None:
    """Exhibitors lay out their cards; without exhibitions go straight to the detectives."""
    if played_at(state, cards.CASTLE, cards.EXHIBIT):
        state["phase"] = "exhibit"
        return
    _detectives(state)


def leader_space(state: dict) -> int:
    """The space of the pawn furthest along (its fraction moves the exhibitors)."""
    return max(player["position"] for player in state["players"])


def exhibitions(state: dict, move: dict) -> None:
    """The exhibitions revealed: the best two advance by the leader's fraction."""
    exhibitors = [seat for seat, _ in played_at(state, cards.CASTLE, cards.EXHIBIT)]
    refusals: list = []
    shows = collect(refusals, _read_shows, state, move.get("shows"), exhibitors)
    space = leader_space(state)
    fraction = collect(refusals, _fraction, state, space, move.get("fraction"))
    raise_all(refusals)  # every exhibitor's cards and the fraction, all at once
    state["shows"] = [None] * len(state["players"])
    for seat, shown in shows.items():
        collect(refusals, lay_out, state, seat, shown)
    raise_all(refusals)  # each card held by its exhibitor and in one place only
    best, second, advance = castle.exhibition_advance(shows, fraction)
    for seat in cards.ordered(shows):
        spaces = advance[seat]
        state["players"][seat]["position"] += spaces
        state["players"][seat]["gained"]["exhibitions"] += spaces
        place = "best" if seat == best else "second" if seat == second else "out"
        _note(
            state, f"exhibition_{place}", seat=seat, spaces=spaces, space=space, cards=shows[seat]
        )
    queue = steal_order(state)
    state["queue"] = queue
    if queue:
        state["phase"] = "steal"
        return
    _finish_castle(state)


def lay_out(state: dict, seat: int, shown: list[dict]) -> None:
    """`seat`'s cards leave the hand for the exhibition on the table (or are refused)."""
    places.take_shown(state, seat, shown)
    state["shows"][seat] = shown


def _read_shows(state: dict, shows: object, exhibitors: list[int]) -> dict[int, list[dict]]:
    """Each exhibitor's cards (a valid exhibition); null for everyone else."""
    players = state["players"]
    if not isinstance(shows, list) or len(shows) != len(players):
        raise IllegalMove(
            N_(
                "Enter one exhibition per seat ({count} entries, null for a player not exhibiting)."
            ),
            count=len(players),
        )
    found, refusals = {}, []
    for seat, shown in enumerate(shows):
        name = players[seat]["name"]
        if seat not in exhibitors:
            if shown is not None:
                refusals.append(
                    IllegalMove(N_("{name} did not play exhibit this turn."), name=name)
                )
            continue
        found[seat] = collect(refusals, cards.read_exhibition, name, seat, shown, False)
    raise_all(refusals)
    return found


def _fraction(state: dict, space: int, entered: object) -> list[int]:
    """The fraction of the leader's space; an entered one fills in (or corrects) the board."""
    if entered is not None:
        state["fractions"][space] = read_fraction(entered, space, IllegalMove)
    fraction = state["fractions"][space]
    if fraction is None:
        raise IllegalMove(
            N_("Enter the fraction on space {space}, the leader's space: top and bottom number."),
            space=space,
        )
    return fraction


def steal(state: dict, move: dict) -> None:
    """The next thief (highest number first) takes one card of each exhibition."""
    number = state["queue"][0]
    named = move.get("thief", number)
    if type(named) is not int or named != number:
        raise IllegalMove(N_("Thief {number} steals first (highest number first)."), number=number)
    owner = next(t["owner"] for t in thieves_at(state, cards.CASTLE) if t["number"] == number)
    picks = _read_picks(state, move.get("cards"))
    for seat, card in enumerate(picks):
        if card is None:
            continue
        state["shows"][seat] = cards.take_from(state["shows"][seat], [card])
        thief_owner = state["players"][owner]
        thief_owner["hand"] = [*thief_owner["hand"], card]
        _note(state, "card_stolen", number=number, owner=owner, seat=seat, card=card)
    state["queue"] = state["queue"][1:]
    if not state["queue"]:
        _finish_castle(state)


def _read_picks(state: dict, picks: object) -> list:
    """One card per exhibition that still has cards, from that exhibition; null elsewhere."""
    shows = state["shows"]
    if not isinstance(picks, list) or len(picks) != len(shows):
        raise IllegalMove(
            N_(
                "Enter the card the thief takes from each exhibition ({count} entries, "
                "null where none)."
            ),
            count=len(shows),
        )
    refusals: list = []
    for seat, card in enumerate(picks):
        collect(refusals, _check_pick, state["players"][seat]["name"], shows[seat], seat, card)
    raise_all(refusals)  # every exhibition's pick at once
    return picks


def _check_pick(name: str, shown: list | None, seat: int, card: object) -> None:
    """Refuse a pick that is not one card of this exhibition (or one where there is none)."""
    if not shown:
        if card is not None:
            raise IllegalMove(N_("{name} has no exhibition to steal from."), name=name)
        return
    if card is None:
        raise IllegalMove(
            N_("Choose the card the thief takes from {name}'s exhibition."), name=name
        )
    if cards.take_from(shown, [cards.read_card(card, f"cards[{seat}]")]) is None:
        raise IllegalMove(N_("That card is not in {name}'s exhibition."), name=name)


def _finish_castle(state: dict) -> None:
    """Exhibited cards go back to their owners; then the detectives."""
    for seat, shown in enumerate(state["shows"] or []):
        if shown:
            player = state["players"][seat]
            player["hand"] = [*player["hand"], *shown]
    state["shows"] = None
    _detectives(state)


def _detectives(state: dict) -> None:
    """Detectives catch every thief at the castle; their owners move by rank, all at once."""
    detectives = [seat for seat, _ in played_at(state, cards.CASTLE, cards.DETECTIVE)]
    caught = thieves_at(state, cards.CASTLE) if detectives else []
    positions = [player["position"] for player in state["players"]]
    advance = castle.detective_advance(positions, detectives, bool(caught))
    state["jail"], released = castle.imprison(state["jail"], caught, len(state["players"]))
    for thief in caught:
        owner = state["players"][thief["owner"]]
        owner["thieves"] = [n for n in owner["thieves"] if n != thief["number"]]
        # Several caught at once go in lowest number first, so the cell each ends in differs.
        _note(state, "caught", cell=state["jail"].index(thief) + 1, **thief)
    for thief in released:
        owner = state["players"][thief["owner"]]
        owner["thieves"] = sorted([*owner["thieves"], thief["number"]])
        _note(state, "released", **thief)
    ranks = castle.ranks(positions)
    for seat in detectives:
        player = state["players"][seat]
        player["position"] += advance[seat]
        player["gained"]["detectives"] += advance[seat]
        step = "detective" if caught else "detective_idle"
        _note(state, step, seat=seat, rank=ranks[seat], spaces=advance[seat])
    for seat, player in enumerate(state["players"]):
        if player["position"] >= state["banquet"]:
            _note(state, "banquet", seat=seat)
    state["phase"] = "review"
