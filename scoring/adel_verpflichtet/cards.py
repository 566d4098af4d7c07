"""Adel Verpflichtet's cards and exhibitions: what a collection card is, which exhibitions are
valid and which is better (RULES.md §4 "Material", "Castle", "End")."""

from scoring.errors import N_, IllegalMove, RuleError

GAME = "adel_verpflichtet"
MIN_PLAYERS, MAX_PLAYERS = 2, 5
#: Collection series, A to F (RULES.md §4 "Material").
LETTERS = "ABCDEF"
#: Collection cards in the box; each player is dealt HAND of them.
TOTAL_CARDS = 45
HAND = 4
CHECKS_EACH, THIEVES_EACH = 4, 2
#: The fewest cards an exhibition has.
MIN_EXHIBITION = 3
#: Spaces the best and second final exhibitions advance (RULES.md §4 "End").
FINAL_BEST, FINAL_SECOND = 8, 4
#: Years a card may carry: any plausible printed year (a board value; only order matters).
YEARS = range(1, 10000)
#: The two locations (RULES.md §4 "Each turn").
AUCTION, CASTLE = "auction", "castle"
PLACES = (AUCTION, CASTLE)
#: The action cards: a check or thief carries its value, the others none.
CHECK, THIEF, DETECTIVE, EXHIBIT, NOTHING = "check", "thief", "detective", "exhibit", "none"


#: The refusal of something that is not a collection card ({field}: where it was entered).
NOT_A_CARD = N_("{field}: a collection card is a letter A to F and a year, like B 1720.")


def read_card(
    value: object,
    field: str,
    error: type[RuleError] = IllegalMove,
    template: str = NOT_A_CARD,
    **params: object,
) -> dict:
    """A collection card {"letter": "B", "year": 1720}, or `error` (`template`) naming `field`."""
    if (
        not isinstance(value, dict)
        or set(value) != {"letter", "year"}
        or value["letter"] not in tuple(LETTERS)
        or type(value["year"]) is not int
        or value["year"] not in YEARS
    ):
        raise error(template, field=field, **params)
    return {"letter": value["letter"], "year": value["year"]}


def label(card: dict) -> str:
    """A card as the table says it: "B 1720"."""
    return f"{card['letter']} {card['year']}"


def is_exhibition(cards: list[dict]) -> bool:
    """3+ cards whose letters run without a gap; a letter may repeat (ABC, AAB, CCC, BCCD)."""
    if len(cards) < MIN_EXHIBITION:
        return False
    places = sorted({LETTERS.index(card["letter"]) for card in cards})
    return places == list(range(places[0], places[-1] + 1))


def strength(cards: list[dict]) -> tuple:
    """Sort key of an exhibition: more cards first, then the oldest object (lower year)."""
    return (len(cards), [-year for year in sorted(card["year"] for card in cards)])


def ordered(shows: dict[int, list[dict]]) -> list[int]:
    """Exhibiting seats best first; equal exhibitions keep seat order (years differ in play)."""
    return sorted(shows, key=lambda seat: (_negated(strength(shows[seat])), seat))


def _negated(key: tuple) -> tuple:
    """`strength` turned into an ascending sort key."""
    return (-key[0], [-year for year in key[1]])


def best_two(shows: dict[int, list[dict]]) -> tuple[int | None, int | None]:
    """The best and second exhibition's seats (None where there is none)."""
    order = ordered(shows)
    return (order[0] if order else None, order[1] if len(order) > 1 else None)


def best_from_hand(hand: list[dict]) -> list[dict]:
    """The best exhibition a hand allows (most cards, then the oldest object); [] if none."""
    found: list[dict] = []
    present = {card["letter"] for card in hand}
    for start in range(len(LETTERS)):
        run = ""
        for letter in LETTERS[start:]:
            if letter not in present:
                break
            run += letter
            chosen = [card for card in hand if card["letter"] in run]
            if is_exhibition(chosen) and (not found or strength(chosen) > strength(found)):
                found = chosen
    return sorted(found, key=lambda card: (card["letter"], card["year"]))


def take_from(hand: list[dict], cards: list[dict]) -> list[dict] | None:
    """The hand without `cards` (each card once), or None if the hand does not hold them all."""
    left = list(hand)
    for card in cards:
        if card not in left:
            return None
        left.remove(card)
    return left


def read_exhibition(name: str, seat: int, shown: object, empty_ok: bool) -> list[dict]:
    """The cards a player lays out: a list of cards forming a valid exhibition.

    `empty_ok`: the final exhibition may be empty (a player who cannot show one). Whether the
    player holds them is for `places.take_shown`.
    """
    if not isinstance(shown, list):
        raise IllegalMove(N_("Enter the cards {name} exhibits."), name=name)
    chosen = [read_card(card, f"shows[{seat}]") for card in shown]
    if (chosen or not empty_ok) and not is_exhibition(chosen):
        raise IllegalMove(
            N_(
                "{name}'s exhibition is not valid: it needs 3 or more cards whose letters "
                "follow without a gap (ABC, AAB, CCC, BCCD)."
            ),
            name=name,
        )
    return chosen
