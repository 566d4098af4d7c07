"""Every bad input to the device API: a 4xx with a sentence, and nothing changed."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

#: The armed reveal every refusal test starts from: seats 0-2, seat 0 locked.
ARMED = [0, 1, 2]

BAD_REQUESTS = [
    # (method, path template, request kwargs, expected status)
    ("POST", "/api/tables/{t}/reveal", {"data": "{", "content_type": "application/json"}, 400),
    ("POST", "/api/tables/{t}/reveal", {"data": "seats=1", "content_type": "text/plain"}, 415),
    ("POST", "/api/tables/{t}/reveal", {"json": [0, 1]}, 400),
    ("POST", "/api/tables/{t}/reveal", {"json": {}}, 400),
    ("POST", "/api/tables/{t}/reveal", {"json": {"seats": []}}, 400),
    ("POST", "/api/tables/{t}/reveal", {"json": {"seats": [0, 0]}}, 400),
    ("POST", "/api/tables/{t}/reveal", {"json": {"seats": [0, 9]}}, 400),
    ("POST", "/api/tables/{t}/reveal", {"json": {"seats": "all"}}, 400),
    ("POST", "/api/tables/{t}/reveal", {"json": {"seats": [None]}}, 400),
    (
        "POST",
        "/api/tables/{t}/reveal",
        {"data": "x" * 70000, "content_type": "application/json"},
        413,
    ),
    ("POST", "/api/tables/nosuchtb/reveal", {"json": {"seats": [0]}}, 404),
    ("POST", "/api/tables/{t}/reveal/press", {"json": {"seat": 1}}, 400),
    ("POST", "/api/tables/{t}/reveal/press", {"json": {"id": 1}}, 400),
    ("POST", "/api/tables/{t}/reveal/press", {"json": {"id": "1", "seat": 1}}, 400),
    ("POST", "/api/tables/{t}/reveal/press", {"json": {"id": 1, "seat": "1"}}, 400),
    ("POST", "/api/tables/{t}/reveal/press", {"json": {"id": 1, "seat": 1.5}}, 400),
    ("POST", "/api/tables/{t}/reveal/press", {"json": {"id": 1, "seat": 3}}, 400),
    ("POST", "/api/tables/{t}/reveal/press", {"json": {"id": 1, "seat": -1}}, 400),
    ("POST", "/api/tables/{t}/reveal/press", {"json": {"id": 0, "seat": 1}}, 400),
    ("POST", "/api/tables/{t}/reveal/press", {"json": {"id": 10**30, "seat": 1}}, 400),
    ("POST", "/api/tables/{t}/reveal/press", {"json": {"id": 2, "seat": 1}}, 409),
    (
        "POST",
        "/api/tables/{t}/reveal/press",
        {"data": "null", "content_type": "application/json"},
        400,
    ),
    ("PUT", "/api/tables/{t}/reveal", {"json": {"seats": [0]}}, 405),
    ("GET", "/api/tables/{t}/device?wait=" + "z" * 300, {}, 400),
    ("GET", "/api/tables/nosuchtb/device/frame", {}, 404),
    ("PUT", "/api/device/table", {"json": {}}, 400),
    ("PUT", "/api/device/table", {"json": {"table": 7}}, 400),
    ("PUT", "/api/device/table", {"json": {"table": "nosuchtb"}}, 404),
    ("PUT", "/api/device/table", {"json": ["x"]}, 400),
    ("POST", "/api/device/table", {"json": {"table": "x"}}, 405),
    ("PUT", "/api/device/status", {"json": {"mode": "bluetooth"}}, 400),
    ("PUT", "/api/device/status", {"json": {"connected": "yes"}}, 400),
    ("PUT", "/api/device/status", {"json": {"port": 5}}, 400),
    ("PUT", "/api/device/status", {"json": {"hello": ["fw=1"]}}, 400),
    ("PUT", "/api/device/status", {"json": {"last_seen_ms": -1}}, 400),
    ("PUT", "/api/device/status", {"json": {"last_seen_ms": 1.5}}, 400),
    ("PUT", "/api/device/status", {"json": {"last_seen_ms": True}}, 400),
    ("PUT", "/api/device/status", {"json": {"mode": "serial", "colour": "red"}}, 400),
    ("PUT", "/api/device/status", {"data": "[]", "content_type": "application/json"}, 400),
]


@pytest.fixture
def armed_table(device) -> str:
    """A dealt table with reveal 1 armed for seats 0-2 and seat 0 locked; its id."""
    table = device.dealt(["Ann", "Bob", "Cid"])
    device.arm(table["id"], ARMED)
    device.press(table["id"], 1, 0)
    return table["id"]


def everything(device, table_id: str) -> tuple:
    """All that a device request could change: the view, the followed table, the status."""
    return (
        device.view(table_id)[1],
        device.call("GET", "/api/device/table")[1],
        device.call("GET", "/api/device/status")[1],
    )


@pytest.mark.parametrize(("method", "path", "kwargs", "expected"), BAD_REQUESTS)
def test_a_bad_request_is_refused_with_a_sentence(
    device, armed_table, method, path, kwargs, expected
):
    """The status the contract names, {"error": "<sentence>"}, and no change anywhere."""
    before = everything(device, armed_table)
    response = device.client.open(path.format(t=armed_table), method=method, **kwargs)
    assert response.status_code == expected
    body = response.get_json()
    assert list(body) == ["error"] and body["error"].endswith(".")
    assert everything(device, armed_table) == before


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=10,
)
bodies = st.one_of(
    json_values,
    st.fixed_dictionaries({"id": json_values, "seat": json_values}),
    st.fixed_dictionaries({"seats": json_values}),
    st.fixed_dictionaries({"table": json_values}),
    st.dictionaries(
        st.sampled_from(["mode", "connected", "port", "hello", "last_seen_ms"]), json_values
    ),
)
ENDPOINTS = [
    ("POST", "/api/tables/{t}/reveal"),
    ("POST", "/api/tables/{t}/reveal/press"),
    ("PUT", "/api/device/table"),
    ("PUT", "/api/device/status"),
]


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(endpoint=st.sampled_from(ENDPOINTS), body=bodies)
def test_no_body_gets_a_server_error(device, armed_table, endpoint, body):
    """Fuzzed JSON bodies: never a 5xx; a refusal is a sentence and changes nothing."""
    method, path = endpoint
    before = everything(device, armed_table)
    response = device.client.open(path.format(t=armed_table), method=method, json=body)
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code >= 400:
        assert response.get_json()["error"].endswith(".")
        assert everything(device, armed_table) == before
