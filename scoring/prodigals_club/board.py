"""Klub ztroskotanců constants and the board values a table enters (RULES.md §5)."""

from collections.abc import Callable

from scoring.common import is_int, only_known_fields
from scoring.errors import N_, InvalidSetup, raise_all
from scoring.prodigals_club.chart import SOCIETY_TOKENS, read_chart, start_spaces

GAME = "prodigals_club"
MIN_PLAYERS = 2
MAX_PLAYERS = 5
ROUNDS = 5
PROPERTY, ELECTION, SOCIETY = "property", "election", "society"
#: The Legacy (Dědictví) combination replaces the property competition (RULES.md §5).
LEGACY = "legacy"
#: The competitions of the Klub box, in the order handicaps are handed out (RULES.md §5).
COMPETITIONS = (PROPERTY, ELECTION, SOCIETY)
#: Everything a table may play, in the order the screens list it (Legacy in property's place).
PLAYABLE = (PROPERTY, LEGACY, ELECTION, SOCIETY)
#: Pounds every player starts Legacy with (seed: "V Dědictví začíná každý se 70 £").
LEGACY_START = 70
#: The handicap key of each competition: +£1, +1 vote, a society token one space up.
HANDICAP_KEYS = {PROPERTY: "money", ELECTION: "votes", SOCIETY: "society"}
MIN_COMPETITIONS = 2
#: The top of the election track (RULES.md §5 "Election").
MAX_VOTES = 44
#: Pounds added per property tile still owned at game end (RULES.md §5 "Property").
TILE_PENALTY = 3
#: Places in Hyde Park that lose votes: 1st, 2nd, 3rd (RULES.md §5 "Hyde Park").
HYDE_PARK_PLACES = 3
#: Votes gained by everyone tied for the fewest megaphones.
FEWEST_GAIN = 1
#: The district marker gives this discount when selling a tile of its district.
DISTRICT_DISCOUNT = 1
#: Every board value a setup may give, and the ones each competition uses.
BOARD_KEYS = (
    "messengers",
    "money",
    "districts",
    "district",
    "votes",
    "hyde_park",
    "society_tokens",
    "society_range",
    "society_chart",
)
BOARD_KEYS_USED = {
    PROPERTY: ("money", "districts", "district"),
    ELECTION: ("votes", "hyde_park"),
    SOCIETY: ("society_tokens", "society_range", "society_chart"),
}
UNKNOWN_BOARD_VALUE = N_("board: unknown board value {field}; the board values are: {known}.")
#: Lists in an unused board value: at most one per round, nested no deeper than Hyde Park's.
UNUSED_DEPTH = 2


def valid_competitions(value: object) -> bool:
    """Two or three distinct competitions (Legacy counts in property's place)."""
    return (
        isinstance(value, list)
        and all(isinstance(name, str) and name in PLAYABLE for name in value)
        and len(set(value)) == len(value)
        and MIN_COMPETITIONS <= len(value) <= len(COMPETITIONS)
    )


def competitions(value: object) -> list[str]:
    """The validated competitions in play, in screen order."""
    if isinstance(value, list) and PROPERTY in value and LEGACY in value:
        raise InvalidSetup(
            N_("competitions: Legacy replaces the property competition; choose one of them.")
        )
    if not valid_competitions(value):
        raise InvalidSetup(
            N_("competitions: choose two or three of property (or Legacy), election and society.")
        )
    return [name for name in PLAYABLE if name in value]


def _whole(board: dict, key: str, minimum: int | None = None) -> int:
    """A whole-number board value, or InvalidSetup naming it."""
    value = board.get(key)
    if not is_int(value) or (minimum is not None and value < minimum):
        raise InvalidSetup(
            N_("{field}: enter the board value as a whole number of at least {minimum}."),
            field=key,
            minimum=0 if minimum is None else minimum,
        )
    return value


def _hyde_park(value: object) -> list[list[int]]:
    """Votes lost by 1st, 2nd and 3rd place in each of the 5 rounds (the board's table)."""
    if (
        not isinstance(value, list)
        or len(value) != ROUNDS
        or not all(
            isinstance(column, list)
            and len(column) == HYDE_PARK_PLACES
            and all(is_int(loss) and loss >= 0 for loss in column)
            for column in value
        )
    ):
        raise InvalidSetup(
            N_(
                "hyde_park: enter the votes lost by 1st, 2nd and 3rd place for each of"
                " the 5 rounds as whole numbers of 0 or more."
            )
        )
    return [list(column) for column in value]


def _society_range(value: object) -> list[int] | None:
    """The lowest and highest society score the chart allows, or None when not entered."""
    if value is None:
        return None
    if (
        not (isinstance(value, list) and len(value) == 2 and all(is_int(end) for end in value))
        or value[0] > value[1]
    ):
        raise InvalidSetup(
            N_("society_range: enter the chart's lowest and highest score, lowest first.")
        )
    return list(value)


def _tokens(value: object) -> list[int]:
    """The values of the 4 chart spaces the tokens start on."""
    if not (
        isinstance(value, list)
        and len(value) == SOCIETY_TOKENS
        and all(is_int(token) for token in value)
    ):
        raise InvalidSetup(
            N_("society_tokens: enter the 4 chart values the tokens start on, as whole numbers.")
        )
    return list(value)


def _tokens_in_range(tokens: list[int], chart: list[int] | None) -> None:
    """The starting tokens' sum lies within the chart's range (RULES.md §5 "Society")."""
    if chart is not None and not chart[0] <= sum(tokens) <= chart[1]:
        raise InvalidSetup(
            N_(
                "society_tokens: the tokens start on a score of {total}, outside the chart's"
                " range of {low} to {high}."
            ),
            total=sum(tokens),
            low=chart[0],
            high=chart[1],
        )


def _blank_or_numbers(value: object, depth: int = UNUSED_DEPTH) -> bool:
    """An unused board value as the setup form sends it: empty, a whole number, or lists of them."""
    if value is None or value == "" or is_int(value):
        return True
    return (
        depth > 0
        and isinstance(value, list)
        and len(value) <= ROUNDS
        and all(_blank_or_numbers(item, depth - 1) for item in value)
    )


def _blank_or_chart(value: object) -> bool:
    """An unused society chart as the form sends it: empty, or columns of numbers or blanks."""
    return value is None or (
        isinstance(value, list)
        and len(value) <= SOCIETY_TOKENS
        and all(
            isinstance(column, list) and all(space is None or is_int(space) for space in column)
            for column in value
        )
    )


def _check_unused(value: dict, playing: list[str]) -> None:
    """Board values of competitions not in play: kept as typed, so only empty or numbers."""
    used = {"messengers"}
    for name in playing:
        used.update(BOARD_KEYS_USED.get(name, ()))
    for key in BOARD_KEYS:
        # The chart is the same printed board at every table, so the form always sends it.
        blank = _blank_or_chart if key == "society_chart" else _blank_or_numbers
        if key not in used and not blank(value.get(key)):
            raise InvalidSetup(
                N_(
                    "{field}: not used by the competitions in play; leave it empty or enter"
                    " whole numbers."
                ),
                field=key,
            )


def board_values(value: object, playing: list[str]) -> dict:
    """The validated board values the table entered for the competitions in play."""
    if not isinstance(value, dict):
        raise InvalidSetup(N_("board: the board values must be an object."))
    only_known_fields(value, BOARD_KEYS, InvalidSetup, UNKNOWN_BOARD_VALUE)
    _check_unused(value, playing)
    board: dict = {}
    refusals: list[InvalidSetup] = []

    def read(key: str, reader: Callable[[], object]) -> None:
        """Keep a field's value, or its refusal: a form shows every field's refusal at once."""
        try:
            board[key] = reader()
        except InvalidSetup as refused:
            refusals.extend([refused, *getattr(refused, "others", [])])

    if value.get("messengers") not in (None, ""):
        # Messengers per player count are asked at setup but no scoring rule uses them
        # (RULES.md §5), so they are optional; a table that enters them keeps them.
        read("messengers", lambda: _whole(value, "messengers", 1))
    if PROPERTY in playing:
        read("money", lambda: _whole(value, "money", 0))
        read("districts", lambda: _whole(value, "districts", 1))
        read("district", lambda: _district(value, board.get("districts")))
    if ELECTION in playing:
        read("votes", lambda: _votes(value))
        read("hyde_park", lambda: _hyde_park(value.get("hyde_park")))
    if SOCIETY in playing:
        read("society_tokens", lambda: _tokens(value.get("society_tokens")))
        read("society_range", lambda: _society_range(value.get("society_range")))
        read("society_chart", lambda: read_chart(value.get("society_chart")))
        if "society_tokens" in board and "society_range" in board:
            read("society_range", lambda: _checked_range(board))
        if board.get("society_chart") and "society_tokens" in board:
            read("society_chart", lambda: _checked_chart(board))
    raise_all(refusals)
    return board


def _district(value: dict, districts: int | None) -> int:
    """Where the district marker starts: a district from 1 to the number of districts."""
    district = _whole(value, "district", 1)
    if districts is not None and district > districts:
        raise InvalidSetup(
            N_("district: the marker must point at a district from 1 to {districts}."),
            districts=districts,
        )
    return district


def _votes(value: dict) -> int:
    """Starting votes: a whole number on the election track (at most 44)."""
    votes = _whole(value, "votes")
    if votes > MAX_VOTES:
        raise InvalidSetup(N_("votes: the election track ends at 44."))
    return votes


def _checked_chart(board: dict) -> list[list[int]]:
    """The chart, once each starting token is known to be a space of its column."""
    start_spaces(board["society_chart"], board["society_tokens"])
    return board["society_chart"]


def _checked_range(board: dict) -> list[int] | None:
    """The society range, once the starting tokens are known to lie inside it."""
    _tokens_in_range(board["society_tokens"], board["society_range"])
    return board["society_range"]
