"""Every form page asks for the right keyboard, and no table page offers a dropdown (issue 14).

Table pages are walked through whole games of every game the tablet shows (legal moves, every
reveal locked in as the box would), so every phase's panels are parsed; setup and calculator
pages are parsed for every game. A number field is one whose browser keyboard is numeric or
whose name is a number the rules read; counts ask for the digit pad (inputmode="numeric" with
a digits pattern), values that may be negative for type=number, whose pad has a minus key on
Android and iOS (iOS's numeric inputmode pad has none).
"""

import re
from html.parser import HTMLParser

import pytest

from companion_app.games import VIEWS, view_for
from companion_app.store import get_store
from companion_app.store import reveals as reveal
from scoring.errors import RuleError
from scoring.games import get_game
from tests.web.adel_pages import setup_form as adel_setup
from tests.web.test_prodigals_pages import setup_form as klub_setup

PLAYERS = ["Ann", "Bob", "Cid"]
#: Longest walk per game (a whole For Sale game of three is about 80 moves).
MAX_MOVES = 160
#: Besides each new phase, every this many moves a page is parsed (the same panels repeat).
EVERY = 7
#: The new-table form of each game with board values; the rest need only the players.
SETUPS = {
    "prodigals_club": [
        klub_setup(),
        klub_setup(competition=["legacy", "election", "society"]),
    ],
    "adel_verpflichtet": [adel_setup()],
    "thieves_guild": [{"player": PLAYERS + ["Dee"], "cost0": "1", "cost1": "2", "cost2": "4"}],
}
#: The last part of a field name that the rules read as a number ("p0.coins" -> "coins").
NUMBER_NAMES = re.compile(
    r"^(coins|cash|amount|delta|value|limit|discount|megaphones|tokens|sum|money|votes"
    r"|districts|district|messengers|hp\d+_\d+|token\d+|society_low|society_high|loss\d+"
    r"|election|society)$"
)
#: Of those, the ones that may be negative (RULES.md §5: votes below 0, debts, chart values).
SIGNED_NAMES = re.compile(
    r"^(delta|limit|tokens|sum|token\d+|society_low|society_high|election|society|cash)$"
)
DIGITS_PATTERN = "[0-9]*"


class Fields(HTMLParser):
    """The inputs and selects of a page, with their attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.inputs: list[dict] = []
        self.selects: list[dict] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        """Keep every input and select."""
        if tag == "input":
            self.inputs.append(dict(attrs))
        elif tag == "select":
            self.selects.append(dict(attrs))


def parsed(html: str) -> Fields:
    """The page's fields."""
    fields = Fields()
    fields.feed(html)
    return fields


def last_part(name: str) -> str:
    """The rules' name of a form field: "f0.cash" -> "cash", "amount" -> "amount"."""
    return name.rsplit(".", 1)[-1]


def keyboard_problem(field: dict) -> str | None:
    """Why a number field gets the wrong keyboard, or None when it asks for the right one."""
    kind = field.get("type", "text")
    mode = field.get("inputmode")
    signed = bool(SIGNED_NAMES.match(last_part(field.get("name", ""))))
    if kind == "number":
        if signed and mode == "numeric":
            return "signed, but inputmode=numeric hides the minus key on iOS"
        if not (field.get("step") == "1" or field.get("min") is not None):
            return "type=number without step=1 or a minimum"
        return None
    if mode not in ("numeric", "decimal"):
        return f"type={kind} without a numeric inputmode: tablets show the letter keyboard"
    if signed:
        return "may be negative, but the numeric pad has no minus key on iOS: use type=number"
    if field.get("pattern") != DIGITS_PATTERN:
        return f"inputmode={mode} without pattern={DIGITS_PATTERN!r}"
    return None


def number_fields(fields: Fields) -> list[dict]:
    """The page's inputs the rules read as numbers."""
    return [
        field
        for field in fields.inputs
        if field.get("type", "text") in ("text", "number")
        and (
            field.get("type") == "number"
            or field.get("inputmode") in ("numeric", "decimal")
            or NUMBER_NAMES.match(last_part(field.get("name", "")))
        )
    ]


def problems(html: str, where: str) -> list[str]:
    """Every number field of a page with the wrong keyboard, named with the page."""
    return [
        f"{where}: {field.get('name')}: {why}"
        for field in number_fields(parsed(html))
        if (why := keyboard_problem(field)) is not None
    ]


def lock_everyone_in(table_id: str) -> None:
    """Press every armed seat of the current reveal, as the box would."""
    current = reveal.current(table_id)
    for seat in current.seats if current is not None else []:
        if seat not in current.locked:
            reveal.press(table_id, current.id, seat)


def walked_pages(client, app, game: str, form: dict) -> list[tuple[str, str]]:
    """(phase, page HTML) of a table walked with legal moves: each new phase, then every few."""
    response = client.post(f"/tables/new/{game}", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[:400]
    url = response.headers["Location"]
    pages: list[tuple[str, str]] = []
    for step in range(MAX_MOVES):
        with app.app_context():
            store = get_store()
            table = store.get(url.rsplit("/", 1)[1])
            phase = table.state.get("phase", "?")
            if not pages or phase != pages[-1][0] or step % EVERY == 0:
                pages.append((phase, client.get(url).get_data(as_text=True)))
            legal = get_game(game).legal_moves(table.state)
            lock_everyone_in(table.id)
            if not applied_one(store, table, legal[step:] + legal[:step]):
                break
    return pages


def applied_one(store, table, moves: list[dict]) -> bool:
    """Apply the first of the moves the rules accept (some need a card the table turns up)."""
    for move in moves:
        try:
            store.apply_move(table.id, move, table.version)
        except RuleError:
            continue
        return True
    return False


@pytest.mark.parametrize("game", sorted(VIEWS))
def test_table_pages_have_no_dropdowns_and_numeric_keyboards(client, app, game):
    """Every phase of a whole game: cards, players and places are tapped, numbers get pads."""
    found, phases = [], set()
    for form in SETUPS.get(game, [{"player": PLAYERS}]):
        for phase, html in walked_pages(client, app, game, form):
            phases.add(phase)
            where = f"{game} table ({phase})"
            found += problems(html, where)
            found += [f"{where}: a <select> {s.get('name')}" for s in parsed(html).selects]
    assert len(phases) >= 2, f"{game}: the walk never left its first phase ({phases})"
    assert not found, "\n".join(sorted(set(found)))


@pytest.mark.parametrize("game", sorted(VIEWS))
def test_setup_and_calculator_pages_ask_for_numeric_keyboards(client, game):
    """The new-table form and the game's calculator: every number field gets a number pad."""
    view = view_for(game)
    paths = [f"/tables/new/{game}"] + [route[0] for route in getattr(view, "ROUTES", [])]
    found = []
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        found += problems(response.get_data(as_text=True), path)
    assert not found, "\n".join(found)


def test_the_check_finds_a_field_with_the_letter_keyboard():
    """The page check fails a number field without inputmode and a signed one without a minus."""
    page = (
        '<input type="text" name="coins"><input type="text" inputmode="numeric" name="delta"'
        ' pattern="[0-9]*"><input type="text" inputmode="numeric" pattern="[0-9]*" name="amount">'
    )
    assert [line.split(": ")[1] for line in problems(page, "page")] == ["coins", "delta"]
