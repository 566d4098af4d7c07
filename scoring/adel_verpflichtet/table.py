"""Adel Verpflichtet setup: players, board values, the piles' tops and, when the table tracks
every hand, the dealt hands (RULES.md §4)."""

from collections.abc import Callable

from scoring.adel_verpflichtet import cards, places
from scoring.common import only_known_fields, player_names
from scoring.errors import N_, InvalidSetup, RuleError, raise_all
from scoring.names import check_text

#: Every field an Adel Verpflichtet setup takes; any other is refused by name.
SETUP_KEYS = (
    "players",
    "variant",
    "profile",
    "banquet",
    "fractions",
    "checks",
    "thieves",
    "hands",
    "tops",
)
#: The two-player variants (RULES.md §4 "Two players"); None: the normal game.
SURPRISE, CONFLICT = "surprise", "conflict"
VARIANTS = (SURPRISE, CONFLICT)
#: The shortest and the longest track the app takes (the printed one is far shorter).
MIN_BANQUET, MAX_BANQUET = 2, 99
#: Largest number a check or thief may carry (board values; only their order matters).
MAX_VALUE = 999
DEFAULT_PROFILE = "Board"
PLAYER_COUNT = N_("Adel Verpflichtet is played by 2 to 5 players, not {count}.")
#: Refusals of the board values, named so the form can show each next to its field.
TWO_PLAYERS_VARIANT = N_("Two players choose a variant: surprise or conflict of interest.")
VARIANT_FOR_TWO = N_("The variants surprise and conflict of interest are for 2 players.")
BANQUET = N_("Banquet table: enter the space where it starts, a whole number from {low} to {high}.")
FRACTIONS = N_("fractions: one entry per track space 0 to {last} (null where not entered).")
FRACTION = N_(
    "Space {space}: the fraction is two whole numbers, the top one (best "
    "exhibition) at least the bottom one (second)."
)
TOPS = N_("tops: enter the top card of each of the two auction piles.")
PROFILE_NAME = N_("profile: name the board profile in 1 to 40 characters.")
PROFILE_CHAR = N_("profile: the name {text} contains {char}.")


def new_table(setup: object) -> dict:
    """The state of a fresh table: hands dealt, piles' tops up, everyone at the start.

    Without `hands` the hands stay with the players (the default at the table): each player
    holds 4 cards the app has not seen, and it learns a card when the table reveals it.
    """
    if not isinstance(setup, dict):
        raise InvalidSetup(N_("The table setup must be an object with a list of players."))
    only_known_fields(setup, SETUP_KEYS)
    read = _checked_setup(setup)
    names, checks, thieves = read["names"], read["checks"], read["thieves"]
    tracked = read.get("hands") is not None
    hands = read["hands"] if tracked else [[] for _ in names]
    rest = cards.TOTAL_CARDS - cards.HAND * len(names)
    sizes = [(rest + 1) // 2, rest // 2]
    state = {
        "game": cards.GAME,
        "players": [
            {
                "name": name,
                "position": 0,
                "checks": sorted(checks[seat]),
                "thieves": sorted(thieves[seat]),
                "hand": hands[seat],
                "unseen": 0 if tracked else cards.HAND,
                "gained": {"exhibitions": 0, "detectives": 0, "final": 0},
            }
            for seat, name in enumerate(names)
        ],
        "variant": read["variant"],
        "tracked": tracked,
        "profile": read["profile"],
        "banquet": read["banquet"],
        "fractions": read["fractions"],
        "piles": [
            {"size": size, "top": top} for size, top in zip(sizes, read["tops"], strict=True)
        ],
        "register": [],
        "jail": [],
        "turn": 1,
        "phase": first_phase(read["variant"]),
        "places": None,
        "played": None,
        "shows": None,
        "queue": [],
        "report": [],
        "final": None,
        "ranks": None,
    }
    state["clashes"] = places.new_clashes(None, state)
    return state


def _checked_setup(setup: dict) -> dict:
    """Every field of a setup read; the refusals of all of them raised at once (one form)."""
    read: dict = {}
    refusals: list[RuleError] = []

    def take(key: str, reader: Callable[[], object]) -> None:
        """Keep a field's value, or its refusals: a form shows every field's refusal at once."""
        try:
            read[key] = reader()
        except InvalidSetup as refused:
            refusals.extend([refused, *getattr(refused, "others", [])])

    players = setup.get("players")
    take("names", lambda: _names(players))
    if "names" in read:
        take("variant", lambda: _variant(setup.get("variant"), len(read["names"])))
    take("banquet", lambda: _banquet(setup.get("banquet")))
    # The seats' fields are read even when the names are refused, as many seats as were entered.
    if isinstance(players, list):
        seats = _seat_names(read.get("names", players))
        for key, each in (("checks", cards.CHECKS_EACH), ("thieves", cards.THIEVES_EACH)):
            take(key, lambda key=key, each=each: _per_seat(setup.get(key), seats, each, key))
        if setup.get("hands") is not None:
            take("hands", lambda: _hands(setup["hands"], len(seats)))
    take("profile", lambda: _profile(setup.get("profile", DEFAULT_PROFILE)))
    fractions = setup.get("fractions")
    if "banquet" in read:
        take("fractions", lambda: _fractions(fractions, read["banquet"]))
    elif isinstance(fractions, list):  # the banquet refused: each typed fraction is still read
        take("fractions", lambda: _each(_fraction_at, fractions))
    take("tops", lambda: _tops(setup.get("tops")))
    if "tops" in read and (setup.get("hands") is None or "hands" in read):
        # A card in two places is told with the rest (one round), whatever else was refused.
        take("dealt", lambda: _each_card_once(read.get("hands") or [], read["tops"]))
    raise_all(refusals)
    return read


def _seat_names(players: list) -> list[str]:
    """The name each seat's refusals call it by: as entered, or its number if it has none."""
    return [
        name.strip() if isinstance(name, str) and name.strip() else str(seat + 1)
        for seat, name in enumerate(players)
    ]


def first_phase(variant: str | None) -> str:
    """The first step of every turn: where everyone goes, or both at once, or only what."""
    return {SURPRISE: "choose", CONFLICT: "action"}.get(variant, "location")


def _names(value: object) -> list[str]:
    """The players' names, 2 to 5 of them."""
    return player_names(value, cards.MIN_PLAYERS, cards.MAX_PLAYERS, PLAYER_COUNT)


def _variant(variant: object, count: int) -> str | None:
    """The two-player variant: required with 2 players, refused with more."""
    if count == 2:
        if variant not in VARIANTS:
            raise InvalidSetup(TWO_PLAYERS_VARIANT)
    elif variant is not None:
        raise InvalidSetup(VARIANT_FOR_TWO)
    return variant


def _whole(number: object, low: int, high: int, message: str, **params: object) -> int:
    """`number` if it is a whole number from `low` to `high`, else InvalidSetup(`message`)."""
    if type(number) is not int or not low <= number <= high:
        raise InvalidSetup(message, low=low, high=high, **params)
    return number


def _banquet(value: object) -> int:
    """The track space of the first seat at the banquet table (a board value)."""
    return _whole(value, MIN_BANQUET, MAX_BANQUET, BANQUET)


def _fractions(value: object, banquet: int) -> list:
    """Per track space before the banquet: [top, bottom] or None (not entered yet)."""
    if not isinstance(value, list) or len(value) != banquet:
        raise InvalidSetup(FRACTIONS, last=banquet - 1)
    return _each(_fraction_at, value)


def _fraction_at(space: int, entry: object) -> list | None:
    """`read_fraction` as `_each` calls it: the space first."""
    return read_fraction(entry, space, InvalidSetup)


def _each(reader: Callable[[int, object], object], entries: list) -> list:
    """`reader(index, entry)` of every entry; every entry's refusal raised at once."""
    read, refusals = [], []
    for index, entry in enumerate(entries):
        try:
            read.append(reader(index, entry))
        except InvalidSetup as refused:
            refusals.extend([refused, *getattr(refused, "others", [])])
    raise_all(refusals)
    return read


def read_fraction(entry: object, space: int, error=InvalidSetup) -> list | None:
    """A space's fraction [top, bottom] (top >= bottom >= 0), or None when not entered."""
    if entry is None:
        return None
    if (
        not isinstance(entry, list)
        or len(entry) != 2
        or any(type(number) is not int or not 0 <= number <= MAX_BANQUET for number in entry)
        or entry[0] < entry[1]
    ):
        raise error(FRACTION, space=space)
    return list(entry)


#: Refusal of a tracked hand without its 4 cards.
HAND_COUNT = N_("Cards of player {seat}: enter the {each} cards dealt.")
#: Refusals of a card entered at setup, in the words of the form.
DEALT_CARD = N_("Card {number} of player {seat}: tap a letter A to F and enter its year.")
TOP_CARD = N_("Top card of pile {pile}: tap a letter A to F and enter its year.")

#: Refusals of the check values and thief numbers ({seat} counts from 1).
PER_SEAT_MESSAGES = {
    "checks": {
        "count": N_("Checks: enter the 4 check values of each of the {count} players."),
        "seat": N_("Checks of player {seat}: enter 4 check values."),
        "value": N_("Checks of player {seat}: {value} is not a whole number from {low} to {high}."),
        "twice": N_(
            "Checks: the value {value} is entered twice ({first_name} and {second_name}); "
            "all checks in the game are different."
        ),
        "own": N_(
            "{name}: the value {value} is entered on two checks; "
            "all checks in the game are different."
        ),
    },
    "thieves": {
        "count": N_("Thieves: enter the 2 thief numbers of each of the {count} players."),
        "seat": N_("Thieves of player {seat}: enter 2 thief numbers."),
        "value": N_(
            "Thieves of player {seat}: {value} is not a whole number from {low} to {high}."
        ),
        "twice": N_(
            "Thieves: the number {value} is entered twice ({first_name} and {second_name}); "
            "all thieves in the game are different."
        ),
        "own": N_(
            "{name}: the number {value} is entered on both thieves; "
            "all thieves in the game are different."
        ),
    },
}


def _per_seat(value: object, seats: list[str], each: int, what: str) -> list[list[int]]:
    """Each player's check values or thief numbers: `each` per seat, all different.

    `seats` are the players' names: a value entered twice names who has it.
    """
    messages = PER_SEAT_MESSAGES[what]
    if not isinstance(value, list) or len(value) != len(seats):
        raise InvalidSetup(messages["count"], count=len(seats))
    seen: dict[int, int] = {}
    return _each(
        lambda seat, numbers: _seat_numbers(numbers, seat, each, messages, (seen, seats)), value
    )


def _seat_numbers(numbers: object, seat: int, each: int, messages: dict, known: tuple) -> list:
    """One seat's check values or thief numbers; `known`: each number's seat so far, the names."""
    seen, seats = known
    if not isinstance(numbers, list) or len(numbers) != each:
        raise InvalidSetup(messages["seat"], seat=seat + 1)
    for number in numbers:
        if number == "":
            raise InvalidSetup(messages["seat"], seat=seat + 1)
        _whole(number, 1, MAX_VALUE, messages["value"], seat=seat + 1, value=str(number)[:12])
        if seen.get(number) == seat:
            raise InvalidSetup(messages["own"], value=number, seat=seat + 1, name=seats[seat])
        if number in seen:
            first = seen[number]
            raise InvalidSetup(
                messages["twice"],
                value=number,
                first=first + 1,
                second=seat + 1,
                first_name=seats[first],
                second_name=seats[seat],
            )
        seen[number] = seat
    return numbers


def _hands(value: object, count: int) -> list[list[dict]]:
    """The 4 collection cards dealt to each player."""
    if not isinstance(value, list) or len(value) != count:
        raise InvalidSetup(
            N_("hands: enter the {each} cards dealt to each of the {count} players."),
            each=cards.HAND,
            count=count,
        )
    return _each(_hand, value)


def _hand(seat: int, hand: object) -> list[dict]:
    """The cards dealt to one seat; every card's refusal at once."""
    if not isinstance(hand, list) or len(hand) != cards.HAND:
        raise InvalidSetup(HAND_COUNT, seat=seat + 1, each=cards.HAND)
    return _each(
        lambda index, card: cards.read_card(
            card,
            f"hands[{seat}][{index}]",
            InvalidSetup,
            DEALT_CARD,
            seat=seat + 1,
            number=index + 1,
        ),
        hand,
    )


#: Refusals of a card entered in two places at setup (RULES.md §4: each card is one card).
DEALT_TWICE = N_("Card {number} of player {seat}: {card} is already dealt to player {first}.")
TOP_DEALT = N_("Top card of pile {pile}: {card} is already dealt to player {first}.")
TOPS_SAME = N_("Top card of pile 2: {card} is already the top card of pile 1.")


def _each_card_once(hands: list[list[dict]], tops: list[dict]) -> None:
    """Refuse a card dealt twice, or dealt and on top of a pile; every such entry at once."""
    dealt: dict[tuple, int] = {}
    refusals = []
    for seat, hand in enumerate(hands):
        for index, card in enumerate(hand):
            first = dealt.setdefault(places.key(card), seat)
            if first != seat or hand.index(card) != index:
                refusals.append(
                    InvalidSetup(
                        DEALT_TWICE,
                        number=index + 1,
                        seat=seat + 1,
                        card=cards.label(card),
                        first=first + 1,
                    )
                )
    for pile, top in enumerate(tops):
        if places.key(top) in dealt:
            first = dealt[places.key(top)] + 1
            refusals.append(
                InvalidSetup(TOP_DEALT, pile=pile + 1, card=cards.label(top), first=first)
            )
    if tops[0] == tops[1]:
        refusals.append(InvalidSetup(TOPS_SAME, card=cards.label(tops[1])))
    raise_all(refusals)


def _tops(tops: object) -> list[dict]:
    """The top card of each of the two face-up piles at the auction house."""
    if not isinstance(tops, list) or len(tops) != 2:
        raise InvalidSetup(TOPS)
    return _each(
        lambda index, top: cards.read_card(
            top, f"tops[{index}]", InvalidSetup, TOP_CARD, pile=index + 1
        ),
        tops,
    )


def _profile(value: object) -> str:
    """The board profile's name (the app remembers board values and cards under it)."""
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > 40:
        raise InvalidSetup(PROFILE_NAME)
    return check_text(value, InvalidSetup, PROFILE_CHAR)
