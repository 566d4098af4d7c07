"""Klub's society chart on the tablet: the setup grid, its pre-fill, and the token steppers.

The rules (`scoring/prodigals_club/chart.py`) decide; this reads the form's grid into columns
(bottom space first) and lays the tokens of each player out for the quick-change row.
"""

import re

from werkzeug.datastructures import MultiDict

from companion_app.games.forms import whole_number
from companion_app.store import get_store
from scoring.prodigals_club.board import GAME, SOCIETY_TOKENS
from scoring.prodigals_club.chart import DOWN, UP

#: Rows of the setup grid; a shorter column leaves its top cells empty.
CHART_ROWS = 10
#: A token stepper's button value: "token2:up" moves token 3 one space up.
TOKEN_STEP = re.compile(r"^token([0-9]):(up|down)$")


def cell_name(column: int, row: int) -> str:
    """The setup field of a chart space (row 0 = the bottom space)."""
    return f"chart{column}_{row}"


def parse_chart(form: MultiDict) -> list | None:
    """The chart's columns, bottom first, from the setup grid; None when the grid is empty.

    Empty cells above a column's top value are not spaces; an empty cell below one is kept as
    None, so the rules name it.
    """
    columns = []
    for column in range(SOCIETY_TOKENS):
        cells = [form.get(cell_name(column, row), "").strip() for row in range(CHART_ROWS)]
        while cells and not cells[-1]:
            cells.pop()
        columns.append([whole_number(cell) if cell else None for cell in cells])
    return columns if any(columns) else None


def last_chart() -> list | None:
    """The chart of the most recent Klub table that entered one (the same board every time)."""
    for table in get_store().list_tables():
        if table.game == GAME:
            chart = (table.setup.get("board") or {}).get("society_chart")
            if chart:
                return chart
    return None


def remembered_chart() -> dict:
    """Setup field -> value of the last chart entered, whatever that table's player count."""
    fields = {}
    for column, spaces in enumerate(last_chart() or []):
        for row, value in enumerate(spaces[:CHART_ROWS]):
            fields[cell_name(column, row)] = "" if value is None else str(value)
    return fields


def setup_grid() -> dict:
    """The setup page's chart grid: rows top first, as the printed chart reads."""
    return {"chart_rows": range(CHART_ROWS - 1, -1, -1), "chart_columns": range(SOCIETY_TOKENS)}


def token_step(step: str) -> dict | None:
    """The move of a token stepper's button ("token0:up"), or None if it is not one."""
    found = TOKEN_STEP.match(step or "")
    if not found:
        return None
    return {"type": "token", "token": int(found.group(1)), "direction": found.group(2)}


def token_rows(state: dict) -> dict[int, list[dict]]:
    """Per seat with known spaces: each token's value and whether it can go up or down."""
    chart = state["board"].get("society_chart")
    if not chart or "society" not in state["competitions"]:
        return {}
    rows = {}
    for seat, player in enumerate(state["players"]):
        spaces = player.get("spaces")
        if spaces:
            rows[seat] = [_token(chart, spaces, index) for index in range(len(spaces))]
    return rows


def _token(chart: list, spaces: list, index: int) -> dict:
    """One token: its value, and the free space above and below it (if any)."""
    column, row = spaces[index]

    def free(target: int) -> bool:
        return 0 <= target < len(chart[column]) and [column, target] not in spaces

    return {
        "index": index,
        "value": chart[column][row],
        UP: free(row + 1),
        DOWN: free(row - 1),
    }
