"""No form post, however odd, gets a 5xx from the For Sale or Klub pages (setup and moves)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion_app.store import get_store
from companion_app.store import reveals as reveal
from scoring.games import get_game
from tests.game_counts import games
from tests.web.test_prodigals_pages import NEW as KLUB_NEW
from tests.web.test_prodigals_pages import setup_form

pytestmark = pytest.mark.slow  # run first (tests/conftest.py)

SERVER_ERROR = 500
FOR_SALE_NEW = "/tables/new/for_sale"
#: Move types and fields the two games' forms post, plus some that no form posts.
MOVE_TYPES = [
    "start",
    "houses",
    "bid",
    "pass",
    "checks",
    "sell",
    "order",
    "property",
    "votes",
    "society",
    "reserve",
    "hyde_park",
    "old_lady",
    "end_actions",
    "next_round",
    "step",
    "x",
    "",
]
FIELDS = [
    "seat",
    "coins",
    "checks",
    "houses",
    "house0",
    "house1",
    "house2",
    "how",
    "order",
    "action",
    "amount",
    "cash",
    "discount",
    "give",
    "limit",
    "take",
    "tile",
    "tiles",
    "delta",
    "tokens",
    "sum",
    "place",
    "megaphones",
    "exempt",
    "step",
    "order0",
    "version",
]
values = st.lists(
    st.sampled_from(
        [
            "",
            "0",
            "1",
            "2",
            "-1",
            "44",
            "45",
            "30",
            "99999999999999999999",
            "1.5",
            "x",
            "5/2",
            "4/1 3/2",
            "by_hand",
            "by_lot",
            "sell",
            "spend",
            "exchange",
            "votes:-1",
            "cash:+1",
            "0:5/2",
            "<b>",
            "null",
        ]
    ),
    min_size=1,
    max_size=3,
)
forms = st.dictionaries(st.sampled_from(FIELDS), values, max_size=6)
SETTINGS = settings(
    max_examples=games(full=150, quick=50),
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


def _lock_everyone_in(table_id: str) -> None:
    """Press every armed seat of the current reveal, as the box would."""
    current = reveal.current(table_id)
    for seat in current.seats if current is not None else []:
        if seat not in current.locked:
            reveal.press(table_id, current.id, seat)


def _table(client, app, url: str, form: dict, steps: int, pick: int) -> str:
    """A new table's page URL, played `steps` legal moves in (`pick` chooses among them)."""
    response = client.post(url, data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    location = response.headers["Location"]
    with app.app_context():
        store = get_store()
        table = store.get(location.rsplit("/", 1)[1])
        rules = get_game(table.game)
        for step in range(steps):
            legal = rules.legal_moves(table.state)
            if not legal:
                break
            _lock_everyone_in(table.id)
            table = store.apply_move(table.id, legal[(pick + step) % len(legal)], table.version)
    return location


def _no_500(response) -> None:
    """The answer is a page or a redirect, never a server error."""
    assert response.status_code < SERVER_ERROR, response.get_data(as_text=True)[:400]


@SETTINGS
@given(
    kind=st.sampled_from(MOVE_TYPES), form=forms, steps=st.integers(0, 60), pick=st.integers(0, 99)
)
def test_for_sale_move_posts_never_500(client, app, kind, form, steps, pick):
    """Any move form on a For Sale table is applied or refused with a message."""
    url = _table(client, app, FOR_SALE_NEW, {"player": ["Ann", "Bob", "Cid"]}, steps, pick)
    _no_500(client.post(f"{url}/moves", data={"version": str(steps), **form, "type": kind}))
    _no_500(client.get(url))


@SETTINGS
@given(
    kind=st.sampled_from(MOVE_TYPES), form=forms, steps=st.integers(0, 60), pick=st.integers(0, 99)
)
def test_klub_move_posts_never_500(client, app, kind, form, steps, pick):
    """Any move form on a Klub table is applied or refused with a message."""
    url = _table(client, app, KLUB_NEW, setup_form(), steps, pick)
    _no_500(client.post(f"{url}/moves", data={"version": str(steps), **form, "type": kind}))
    _no_500(client.get(url))


setup_fields = st.dictionaries(
    st.sampled_from(
        [
            "player",
            "competition",
            "money",
            "votes",
            "districts",
            "district",
            "messengers",
            "token0",
            "society_low",
            "hp1_1",
            "variant",
            "refund",
        ]
    ),
    values,
    max_size=5,
)


@SETTINGS
@given(changes=setup_fields, game=st.sampled_from([FOR_SALE_NEW, KLUB_NEW]))
def test_setup_posts_never_500(client, changes, game):
    """Any new-table form is a table or the form again with the reason."""
    base = setup_form() if game == KLUB_NEW else {"player": ["Ann", "Bob", "Cid"]}
    _no_500(client.post(game, data={**base, **changes}))
