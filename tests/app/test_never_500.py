"""No input, however odd, gets a 5xx from the API: walk bad requests and fuzz move payloads."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.app.helpers import PLAYERS

MOVE_TYPES = ["deal", "draw", "thief", "forced_auction", "bid", "pass", "next_round", "x"]
FIELDS = ["type", "seat", "card", "check", "take", "sets"]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)
moves = st.dictionaries(
    st.sampled_from(FIELDS),
    st.sampled_from(MOVE_TYPES)
    | st.integers(-2, 5)
    | st.sampled_from(["ring", "police"])
    | json_values,
    max_size=5,
)
RAW_REQUESTS = [
    ("post", "/api/tables", {"data": "nope", "content_type": "application/json"}),
    ("post", "/api/tables", {"json": []}),
    ("post", "/api/tables", {"json": {"game": None, "players": PLAYERS}}),
    ("post", "/api/tables", {"json": {"game": "razzia", "players": PLAYERS, "extra": 1}}),
    ("post", "/api/tables", {"json": {"game": "razzia", "players": ["x" * 500, "y"]}}),
    ("post", "/api/tables", {"json": {"game": {}, "players": PLAYERS}}),
    ("get", "/api/tables/%00", {}),
    ("get", "/api/tables/" + "x" * 5000, {}),
    ("put", "/api/tables", {}),
    ("post", "/api/score", {"json": None}),
    ("post", "/api/score", {"json": {"game": "razzia", "round": "3", "players": "x"}}),
    ("post", "/api/score", {"json": {"game": "razzia", "round": 3, "players": [{"x": 1}]}}),
    ("post", "/api/score", {"data": "1e999999", "content_type": "application/json"}),
    ("post", "/api/score", {"data": "9" * 5000, "content_type": "application/json"}),
    ("get", "/nowhere", {}),
]


@pytest.mark.parametrize(("method", "path", "kwargs"), RAW_REQUESTS)
def test_bad_requests_are_4xx_with_an_error_sentence(client, method, path, kwargs):
    response = getattr(client, method)(path, **kwargs)
    assert response.status_code < 500, response.get_data(as_text=True)
    if path.startswith("/api") and response.status_code >= 400:
        assert set(response.get_json()) == {"error"}


@pytest.mark.parametrize(
    "card",
    [
        ["ring"],
        {},
        7,
        None,
    ],
)
def test_odd_cards_are_refused(api, card):
    table = api.dealt()
    status, body = api.move(table["id"], {"type": "draw", "seat": 0, "card": card}, 1)
    assert status == 400, body


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(move=moves, version_delta=st.sampled_from([0, 0, 0, -1, 1]))
def test_fuzzed_moves_never_500(api, move, version_delta):
    if not hasattr(api, "fuzz_table"):
        api.fuzz_table = api.dealt()
    table_id = api.fuzz_table["id"]
    _, now = api.table(table_id)
    _, log_before = api.history(table_id)
    status, body = api.move(table_id, move, now["version"] + version_delta)
    assert status < 500, (move, body)
    if status >= 400:
        assert set(body) == {"error"} and body["error"].endswith((".", ")", "?"))
        # A refused move changes nothing: same version, same state, same log.
        _, after = api.table(table_id)
        assert (after["version"], after["state"]) == (now["version"], now["state"])
        assert api.history(table_id)[1] == log_before
