"""Every collection card in one place (RULES.md §4 "Material"): where each card the table has
seen lies, the refusal of a card entered in a second place, and years shared by two cards.

A card the app has seen is in a known hand, on top of a pile or in an exhibition on the table;
a card it has not seen is in a pile below the top or among the cards a player holds unseen.
"""

from scoring.adel_verpflichtet import cards
from scoring.errors import N_, IllegalMove

#: The refusal of a card already somewhere else, by the kind of place it lies in.
IN_HAND = N_("{card} is already in {name}'s hand: each card is one physical card, in one place.")
ON_PILE = N_(
    "{card} is already on top of pile {pile}: each card is one physical card, in one place."
)
SHOWN = N_(
    "{card} is already in {name}'s exhibition: each card is one physical card, in one place."
)
TWICE = N_("{card} is entered twice: each card is one physical card, in one place.")


def key(card: dict) -> tuple[str, int]:
    """A card as a hashable value."""
    return (card["letter"], card["year"])


def seen_places(state: dict) -> dict[tuple, dict]:
    """(letter, year) -> where the card lies: {"hand": seat}, {"pile": index} or {"show": seat}."""
    found: dict[tuple, dict] = {}
    for seat, player in enumerate(state["players"]):
        found.update((key(card), {"hand": seat}) for card in player["hand"])
    for index, pile in enumerate(state["piles"]):
        if pile["top"]:
            found[key(pile["top"])] = {"pile": index}
    for seat, shown in enumerate(state["shows"] or []):
        found.update((key(card), {"show": seat}) for card in shown or [])
    return found


def refusal(state: dict, card: dict, place: dict) -> IllegalMove:
    """The refusal of `card`, which already lies at `place` (from `seen_places`)."""
    label = cards.label(card)
    if "pile" in place:
        return IllegalMove(ON_PILE, card=label, pile=place["pile"] + 1)
    seat = place.get("hand", place.get("show"))
    name = state["players"][seat]["name"]
    return IllegalMove(IN_HAND if "hand" in place else SHOWN, card=label, name=name)


def refuse_seen(state: dict, entered: list[dict], allowed: dict | None = None) -> None:
    """Refuse a card of `entered` that the table has seen elsewhere, or entered twice.

    `allowed` is the one place the cards may already be (the exhibitor's own hand).
    """
    known = seen_places(state)
    taken: set[tuple] = set()
    for card in entered:
        if key(card) in taken:
            raise IllegalMove(TWICE, card=cards.label(card))
        taken.add(key(card))
        place = known.get(key(card))
        if place is not None and place != allowed:
            raise refusal(state, card, place)


def year_clashes(found: list[dict]) -> list[dict]:
    """Years carried by two or more different cards: [{"year", "letters"}], oldest first.

    The tie-break "holds the oldest object" cannot decide between two such cards (RULES.md §4),
    so the table is warned, not refused: we do not have the printed card list.
    """
    letters: dict[int, set[str]] = {}
    for card in found:
        letters.setdefault(card["year"], set()).add(card["letter"])
    return [
        {"year": year, "letters": sorted(shared)}
        for year, shared in sorted(letters.items())
        if len(shared) > 1
    ]


def all_seen(state: dict) -> list[dict]:
    """Every card the table has seen, each once."""
    return [{"letter": letter, "year": year} for letter, year in seen_places(state)]


def new_clashes(before: dict | None, after: dict) -> list[dict]:
    """The year clashes `after` has that `before` did not (the entry that made them)."""
    old = year_clashes(all_seen(before)) if before is not None else []
    return [clash for clash in year_clashes(all_seen(after)) if clash not in old]


def held(player: dict) -> int:
    """How many cards a player holds: the ones the table has seen and the ones it has not."""
    return len(player["hand"]) + player.get("unseen", 0)


NOT_HELD = N_("{name} does not hold {card}: it has not been dealt to or bought by {name}.")
TOO_MANY = N_(
    "{name} shows {count} cards the table has not seen before, but holds only {unseen} such cards."
)


def take_shown(state: dict, seat: int, shown: list[dict]) -> None:
    """Take the cards `seat` lays out of their hand (the state changes), or refuse them.

    A card shown must be one the player holds: one of their seen cards, or (hands not tracked)
    one the table has not seen anywhere, which is one of their unseen cards from now on.
    """
    player = state["players"][seat]
    refuse_seen(state, shown, allowed={"hand": seat})
    new = [card for card in shown if card not in player["hand"]]
    if state.get("tracked", True) and new:
        raise IllegalMove(NOT_HELD, name=player["name"], card=cards.label(new[0]))
    unseen = player.get("unseen", 0)
    if len(new) > unseen:
        raise IllegalMove(TOO_MANY, name=player["name"], count=len(new), unseen=unseen)
    player["hand"] = cards.take_from(player["hand"], [c for c in shown if c not in new])
    if "unseen" in player:
        player["unseen"] = unseen - len(new)
