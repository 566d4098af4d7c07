"""Every endpoint of the URL map, with every method it accepts, fuzzed: never a server error.

Path parameters are known ids and names or random text; requests carry random query
strings, JSON, form or raw bodies, and odd headers (Origin, Sec-Fetch-Site, a Host this
machine answers to, Content-Type, Accept-Language, a junk session cookie). Whatever comes
in, the answer is below 500, and a refusal under /api is `{"error": "<sentence>"}`.
The endpoints are read from the app, so a new one is fuzzed without touching this file.
"""

import string
import tempfile

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from werkzeug.routing import BuildError

from companion_app import create_app
from tests.game_counts import games
from tests.results.conftest import play_table
from tests.web.test_prodigals_pages import setup_form

pytestmark = pytest.mark.slow

#: Examples per (endpoint, method), more for writes; about 200 pairs (tests/game_counts.py: the
#: full counts, 12 and 40, on demand).
READ_EXAMPLES, WRITE_EXAMPLES = games(full=12, quick=6), games(full=40, quick=20)
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
GAMES = ["razzia", "for_sale", "prodigals_club"]
PAPERS = ["a4", "letter", "80mm", "58mm"]
STATIC = ["app.css", "app.js", "device/device.js", "print/a4.css", "../secret_key", ".."]
MOVE_TYPES = [
    "deal", "draw", "thief", "forced_auction", "bid", "pass", "next_round", "start", "houses",
    "checks", "sell", "order", "property", "legacy", "votes", "society", "reserve",
    "end_actions", "hyde_park", "old_lady", "end_round", "x",
]  # fmt: skip
FORM_KEYS = [
    "player", "version", "type", "how", "sets", "card", "check", "seat", "take", "lang",
    "next", "competition", "messengers", "money", "districts", "district", "votes", "round",
    "name", "key", "confirm", "cash", "value", "tile",
]  # fmt: skip
QUERY_KEYS = ["wait", "game", "player", "download", "next", "lang", "x"]
HOSTS = [None, "localhost", "127.0.0.1:5000", "[::1]:8000", "LOCALHOST."]
ODD_ORIGINS = [None, "http://localhost", "http://evil.example", "null"]
ODD_FETCH_SITES = [None, "same-origin", "none", "cross-site", "same-site", "junk"]
CONTENT_TYPES = [
    "application/json",
    "application/json; charset=utf-16",
    "application/vnd.api+json",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data",
    "multipart/form-data; boundary=x",
    "application/octet-stream",
    "",
]
LANGUAGES = [None, "cs", "cs-CZ,cs;q=0.9,en;q=0.5", "*", "xx;q=junk,,"]
COOKIES = [None, "session=junk", "session=.eJyrVspJLEpVslIqzs8"]

#: Names a player could type, and ones they should not: control, invisible, bidi, long,
#: look-alikes, and lone surrogates (only JSON can carry those; forms and URLs cannot).
odd_names = st.sampled_from(
    ["", " ", "Ann", "ann ", "A\u0301", "\u00c1", "\u200b", "\u202eevil", "\x00", "\x1b[31m"]
    + ["x" * 300, "<b>Bob</b>", "{name}", "%(x)s", "\ufdd0", "\U000f0000", "\ud800", "a\udfffb"]
)
names = st.sampled_from(["Ann", "Bob", "Cid", "Dee", "Eve", "Čeněk", "Žofie"]) | odd_names
safe_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
json_text = st.text(st.characters(), max_size=12) | odd_names
small = st.integers(-1, 6)
numbers = small | st.integers(-(2**70), 2**70) | st.sampled_from([10**400, 0.5, 1e308])
json_values = st.recursive(
    st.none() | st.booleans() | numbers | json_text,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(json_text, children, max_size=4)
    ),
    max_leaves=10,
)
moves = st.fixed_dictionaries(
    {"type": st.sampled_from(MOVE_TYPES)},
    optional={
        "seat": small,
        "card": st.sampled_from(["ring", "police", "car", "thief", 3]),
        "check": st.sampled_from([0, 2000, 5000, 15000, "2000", -1]),
        "sets": st.lists(st.sampled_from(["A", "B", "C", "D", "E"]), max_size=5),
        "extra": json_values,
    },
)
form_values = st.lists(
    safe_text | st.sampled_from(["0", "1", "2", "-1", "razzia", "A", "cs", "by_hand", *MOVE_TYPES])
)
ascii_text = st.text(string.printable.strip(), max_size=12)
queries = st.dictionaries(st.sampled_from(QUERY_KEYS) | ascii_text, safe_text, max_size=3)


#: The fields each API write reads; a fuzzed body has them (plausible or junk) more often.
READS = {
    "api.create_table": ("game", "players"),
    "api.post_move": ("version", "move"),
    "api.post_undo": ("version",),
    "api.post_score": ("game", "round", "players"),
    "api_device.put_followed": ("table",),
    "api_device.arm_reveal": ("seats",),
    "api_device.press_reveal": ("id", "seat"),
    "api_device.put_device_status": ("mode", "connected"),
}


def plausible_json(table_ids: list[str], endpoint: str):
    """Objects with the fields the endpoint reads, each plausible or junk, others optional."""
    fields = {
        "game": st.sampled_from(GAMES),
        "players": st.lists(names, min_size=2, max_size=6),
        "version": st.integers(0, 4),
        "move": moves,
        "table": st.none() | st.sampled_from(table_ids),
        "seats": st.lists(small, max_size=6),
        "id": small,
        "seat": small,
        "round": st.integers(1, 3),
        "mode": st.sampled_from(["virtual", "serial", "remote"]),
        "connected": st.booleans(),
    }
    read = READS.get(endpoint, ())
    required = {key: fields[key] | fields[key] | json_values for key in read}
    optional = {key: value | json_values for key, value in fields.items() if key not in read}
    exact = st.fixed_dictionaries(required)
    return (
        exact | exact | st.fixed_dictionaries(required, optional={**optional, "junk": json_values})
    )


def body_strategy(table_ids: list[str], endpoint: str, rule: str):
    """No body, JSON (plausible or not), a form, or raw bytes under any content type.

    API routes get mostly JSON objects with the fields they read, pages mostly forms.
    """
    plausible = st.builds(lambda value: {"json": value}, plausible_json(table_ids, endpoint))
    forms = st.builds(
        lambda fields: {"data": fields},
        st.dictionaries(st.sampled_from(FORM_KEYS) | safe_text, form_values, max_size=6),
    )
    likely = plausible if rule.startswith("/api/") else forms
    return st.one_of(
        likely,
        likely,
        st.none(),
        st.builds(lambda value: {"json": value}, json_values),
        forms if likely is plausible else plausible,
        st.builds(
            lambda raw, kind: {"data": raw, "content_type": kind},
            st.binary(max_size=200) | st.sampled_from([b"{", b"[]", b'"\\ud800"', b"1e999"]),
            st.sampled_from(CONTENT_TYPES),
        ),
    )


def _present(drawn: dict) -> dict:
    """The drawn headers without the ones left out (None)."""
    return {name: value for name, value in drawn.items() if value is not None}


def header_strategy():
    """No browser headers, our own page's, or odd ones; Host only names this machine has."""
    own_page = st.sampled_from(HOSTS).map(
        lambda host: _present(
            {
                "Host": host,
                "Origin": f"http://{host or 'localhost'}",
                "Sec-Fetch-Site": "same-origin",
            }
        )
    )
    odd = st.fixed_dictionaries(
        {
            "Host": st.sampled_from(HOSTS),
            "Origin": st.sampled_from(ODD_ORIGINS),
            "Sec-Fetch-Site": st.sampled_from(ODD_FETCH_SITES),
            "Accept-Language": st.sampled_from(LANGUAGES),
            "Cookie": st.sampled_from(COOKIES),
        }
    ).map(_present)
    return st.just({}) | own_page | odd


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory):
    """One app for the module, with tables of every game, one finished; short long polls."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "fuzz", "DEVICE_LONG_POLL_S": 0.05},
        instance_path=str(tmp_path_factory.mktemp("fuzz")),
    )
    client = app.test_client()
    ids = [play_table(app, rounds=3), play_table(app, rounds=1)]
    for body in (
        {"game": "razzia", "players": ["Ann", "Bob", "Cid"]},
        {"game": "for_sale", "players": ["Ann", "Bob", "Cid", "Dee"]},
    ):
        response = client.post("/api/tables", json=body)
        assert response.status_code == 201, response.get_json()
        ids.append(response.get_json()["id"])
    response = client.post("/tables/new/prodigals_club", data=setup_form())
    assert response.status_code == 303, response.get_data(as_text=True)
    ids.append(response.headers["Location"].rsplit("/", 1)[-1])
    return app, ids


def path_values(name: str, table_ids: list[str]):
    """Known values of a path parameter, or random text (slashes only in `path:` ones)."""
    known = {
        "table_id": table_ids,
        "game": GAMES,
        "paper": PAPERS,
        "kind": ["link", "bgstats"],
        "fmt": ["svg", "png"],
        "filename": STATIC,
        # the club's ids are whole numbers (`int:` converters): the first people and evening
        # exist once a table does; 999 never does
        "person_id": [1, 2, 999],
        "evening_id": [1, 999],
        "season_id": [1, 999],
        "tablet_id": [1, 999],
        "merge_id": [1, 999],
        # rows 1 and 2: the keys from before (migration 11); 999 never exists
        "key_id": [1, 2, 999],
        # a seat at every table; 9 at none
        "seat": [0, 1, 9],
    }.get(name, ["x"])
    text = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=20)
    return st.sampled_from(known) | text


def endpoints() -> list[tuple[str, str, str, tuple[str, ...]]]:
    """(method, rule, endpoint, arguments) of every route of the app, read from a scratch app."""
    with tempfile.TemporaryDirectory() as scratch:
        app = create_app({"TESTING": True, "SECRET_KEY": "x"}, instance_path=scratch)
        rules = sorted(app.url_map.iter_rules(), key=lambda rule: rule.rule)
        return [
            (method, rule.rule, rule.endpoint, tuple(sorted(rule.arguments)))
            for rule in rules
            for method in sorted(rule.methods)
        ]


def check_answer(response, method: str, path: str) -> None:
    """Below 500; an /api refusal (with a body) is exactly {"error": "<sentence>"}."""
    assert response.status_code < 500, (method, path, response.get_data(as_text=True)[:300])
    if path.startswith("/api/") and response.status_code >= 400 and method != "HEAD":
        body = response.get_json(silent=True)
        assert isinstance(body, dict) and set(body) == {"error"}, (method, path, body)
        assert isinstance(body["error"], str) and body["error"], (method, path, body)


ENDPOINTS = endpoints()


@pytest.mark.parametrize(
    ("method", "rule", "endpoint", "arguments"),
    ENDPOINTS,
    ids=[f"{method} {rule}" for method, rule, _endpoint, _args in ENDPOINTS],
)
def test_no_request_gets_a_server_error(fuzz_app, method, rule, endpoint, arguments):
    """Random requests to one endpoint and method: never a 5xx, API errors as {"error"}."""
    app, table_ids = fuzz_app
    client = app.test_client()
    adapter = app.url_map.bind("localhost")
    values = st.fixed_dictionaries({name: path_values(name, table_ids) for name in arguments})
    bodies = body_strategy(table_ids, endpoint, rule)

    @settings(
        max_examples=WRITE_EXAMPLES if method in WRITES else READ_EXAMPLES,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(values=values, query=queries, body=bodies, headers=header_strategy())
    def fuzz(values, query, body, headers):
        try:
            path = adapter.build(endpoint, values, method=method, append_unknown=False)
        except (BuildError, ValueError):  # ValueError: text for an `int:` part of the path
            reject()
        kwargs = body if body is not None and method not in ("GET", "HEAD") else {}
        with client.open(
            path, method=method, query_string=query, headers=headers, **kwargs
        ) as response:
            check_answer(response, method, path)

    fuzz()
