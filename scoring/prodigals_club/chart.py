"""The society chart, an optional board value, and the tokens' spaces on it (RULES.md §5).

The chart is entered as its 4 columns, left to right, each listed from the bottom space up
(the Old Lady pushes tokens "up", seed: "o 1 pole rovně nahoru"). Every player's chart is the
same printed board, so one chart serves the table. A token's space is [column, row], both
counted from 0 (row 0 = the bottom space). Token k starts in column k.
"""

from scoring.common import is_int
from scoring.errors import N_, IllegalMove, InvalidSetup, raise_all

#: Influential-person tokens on a society chart, one per column.
SOCIETY_TOKENS = 4
#: The fewest and most spaces a column may have (a sensible printed chart).
MIN_SPACES, MAX_SPACES = 2, 12
#: The right column: the setup handicap moves its token up (RULES.md §5 "Handicaps").
RIGHT_COLUMN = SOCIETY_TOKENS - 1
UP, DOWN = "up", "down"
DIRECTIONS = {UP: 1, DOWN: -1}


def read_chart(value: object) -> list[list[int]] | None:
    """The validated chart (4 columns, bottom first), or None when not entered."""
    if value is None or value == []:
        return None
    if not (isinstance(value, list) and len(value) == SOCIETY_TOKENS):
        raise InvalidSetup(
            N_("society_chart: enter the values of the chart's 4 columns, each from the bottom up.")
        )
    raise_all(
        [refusal for number, column in enumerate(value, 1) for refusal in _column(number, column)]
    )
    return [list(column) for column in value]


def _column(number: int, column: object) -> list[InvalidSetup]:
    """The refusals of one column: its length, then each space that is not a whole number."""
    if not isinstance(column, list) or not MIN_SPACES <= len(column) <= MAX_SPACES:
        return [
            InvalidSetup(
                N_("society_chart: column {column} needs {low} to {high} spaces, not {count}."),
                column=number,
                low=MIN_SPACES,
                high=MAX_SPACES,
                count=len(column) if isinstance(column, list) else 0,
            )
        ]
    return [
        InvalidSetup(
            N_(
                "society_chart: column {column}, space {space} from the bottom: enter the"
                " chart's value as a whole number."
            ),
            column=number,
            space=row + 1,
        )
        for row, space in enumerate(column)
        if not is_int(space)
    ]


def start_spaces(chart: list[list[int]], tokens: list[int]) -> list[list[int]]:
    """Token k's starting space in column k: the lowest space holding its value."""
    refusals, spaces = [], []
    for index, (column, value) in enumerate(zip(chart, tokens, strict=True)):
        if value in column:
            spaces.append([index, column.index(value)])
        else:
            refusals.append(
                InvalidSetup(
                    N_(
                        "society_tokens: token {number} starts on {value}, which is not a"
                        " space of column {number} of the chart."
                    ),
                    number=index + 1,
                    value=value,
                )
            )
    raise_all(refusals)
    return spaces


def values(chart: list[list[int]], spaces: list[list[int]]) -> list[int]:
    """The chart values under the tokens."""
    return [chart[column][row] for column, row in spaces]


def placed(chart: list[list[int]], previous: list[list[int]] | None, tokens: list[int]):
    """The spaces of newly entered token values, each nearest its previous space.

    A token may have moved diagonally into a neighbouring column (seed: "šikmo vlevo nebo
    vpravo dolů"), so every free space of the chart counts; the nearest (fewest steps) wins,
    then the leftmost, then the lowest. Without known spaces, token k starts from column k's
    bottom. A value on no free space is refused.
    """
    spaces: list[list[int]] = []
    refusals = []
    for index, value in enumerate(tokens):
        column_from, row_from = previous[index] if previous else (index, 0)
        free = [
            [column, row]
            for column, rows in enumerate(chart)
            for row, space in enumerate(rows)
            if space == value and [column, row] not in spaces
        ]
        if not free:
            refusals.append(
                IllegalMove(
                    N_(
                        "tokens: token {number} cannot be on {value}: no free space of the chart"
                        " has that value."
                    ),
                    number=index + 1,
                    value=value,
                )
            )
            continue
        spaces.append(
            min(free, key=lambda at: (abs(at[0] - column_from) + abs(at[1] - row_from), *at))
        )
    raise_all(refusals)
    return spaces


def stepped(chart: list[list[int]], spaces: list[list[int]], token: int, direction: str):
    """The spaces after one token moves one space straight up or down its column.

    Refused past either end of the column and onto a space another token is on (seed: a
    move leaving the chart "není dovolen"; each move "musí končit na prázdném poli").
    """
    column, row = spaces[token]
    target = [column, row + DIRECTIONS[direction]]
    if not 0 <= target[1] < len(chart[column]):
        raise IllegalMove(
            N_("Token {number} is already on the top space of its column; it cannot move up.")
            if direction == UP
            else N_(
                "Token {number} is already on the bottom space of its column; it cannot move down."
            ),
            number=token + 1,
        )
    if target in spaces:
        raise IllegalMove(
            N_("Token {number} cannot move there: token {other} is on that space."),
            number=token + 1,
            other=spaces.index(target) + 1,
        )
    return [target if index == token else list(space) for index, space in enumerate(spaces)]


def pushed_up(chart: list[list[int]], spaces: list[list[int]], steps: int) -> list[list[int]]:
    """The right-column token moved up `steps` spaces for the setup handicap, stopping at the top.

    The handicap names the token in the right column (seed: "Žeton vlivné osoby v pravém sloupci
    tabulky posuňte o 1 pole nahoru"); at setup that is token 4, which starts there.
    """
    token = next((index for index, space in enumerate(spaces) if space[0] == RIGHT_COLUMN), None)
    for _ in range(steps if token is not None else 0):
        try:
            spaces = stepped(chart, spaces, token, UP)
        except IllegalMove:
            break
    return spaces
