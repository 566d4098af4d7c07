"""Reveals over the API: arm, press, duplicates, stale ids, durability, refusals."""

import threading

import pytest

from tests.device_app.conftest import make_app
from tests.device_app.helpers import DeviceApi

#: Presses per thread in the flood test (two threads per seat).
FLOOD_PRESSES = 10


@pytest.fixture
def table(device) -> dict:
    """A dealt 4-player table."""
    return device.dealt()


def test_arming_answers_201_with_the_device_view(device, table):
    """The new reveal has id 1 and nobody locked."""
    status, body = device.arm(table["id"], [0, 1, 2, 3])
    assert status == 201
    assert body["reveal"] == {"id": 1, "seats": [0, 1, 2, 3], "locked": [], "revealed": False}
    assert body["display"]["seats"] == 4


def test_ids_increase_per_table(device, table):
    """Every arm takes the next id, also after a disarm; another table starts at 1."""
    ids = [device.arm(table["id"], [0])[1]["reveal"]["id"] for _ in range(2)]
    device.disarm(table["id"])
    ids.append(device.arm(table["id"], [0])[1]["reveal"]["id"])
    assert ids == [1, 2, 3]
    other = device.dealt()
    assert device.arm(other["id"], [1])[1]["reveal"]["id"] == 1


def test_a_press_locks_and_a_second_press_is_a_duplicate(device, table):
    """200 both times; the second says duplicate and changes nothing."""
    device.arm(table["id"], [0, 1, 2, 3])
    status, first = device.press(table["id"], 1, 2)
    assert status == 200 and first["duplicate"] is False
    assert first["reveal"]["locked"] == [2]
    status, again = device.press(table["id"], 1, 2)
    assert status == 200 and again["duplicate"] is True
    assert {**again, "duplicate": False} == first


def test_revealed_when_every_armed_seat_has_locked_in(device, table):
    """The last lock turns `revealed` true; seats that were not armed do not matter."""
    device.arm(table["id"], [1, 3])
    assert device.press(table["id"], 1, 3)[1]["reveal"]["revealed"] is False
    body = device.press(table["id"], 1, 1)[1]
    assert body["reveal"] == {"id": 1, "seats": [1, 3], "locked": [1, 3], "revealed": True}


def test_a_press_for_an_old_reveal_is_a_409(device, table):
    """After a new arm, presses for the previous id are refused as stale."""
    device.arm(table["id"], [0, 1])
    device.arm(table["id"], [0, 1])
    status, body = device.press(table["id"], 1, 0)
    assert status == 409
    assert body == {"error": "Reveal 1 is over; the current reveal is 2."}


def test_a_press_after_a_disarm_is_a_409(device, table):
    """Disarmed: no reveal is current, so every press is stale."""
    device.arm(table["id"], [0, 1])
    status, body = device.disarm(table["id"])
    assert status == 200 and body["reveal"] is None
    status, body = device.press(table["id"], 1, 0)
    assert status == 409 and body["error"] == "Reveal 1 is over; no reveal is armed now."


def test_disarming_with_nothing_armed_is_fine(device, table):
    """DELETE is idempotent."""
    assert device.disarm(table["id"])[0] == 200
    assert device.disarm(table["id"])[0] == 200


def test_a_seat_that_is_not_armed_is_a_400(device, table):
    """Seat 3 was not asked to choose."""
    device.arm(table["id"], [0, 1])
    status, body = device.press(table["id"], 1, 3)
    assert status == 400 and body == {"error": "Seat 3 is not armed in this reveal."}


def test_a_seat_out_of_range_is_a_400(device, table):
    """Seat 4 at a 4-player table (seats 0..3)."""
    device.arm(table["id"], [0, 1])
    status, body = device.press(table["id"], 1, 4)
    assert status == 400
    assert body == {"error": "Seat 4 is not at this table; seats are numbered 0 to 3."}


def test_an_acknowledged_press_survives_a_new_app_on_the_same_database(device, table, tmp_path):
    """Durable like a move: a restarted companion still has the lock and the next id."""
    device.arm(table["id"], [0, 1, 2])
    assert device.press(table["id"], 1, 2)[0] == 200
    restarted = DeviceApi(make_app(str(tmp_path)).test_client())
    status, body = restarted.view(table["id"])
    assert status == 200
    assert body["reveal"] == {"id": 1, "seats": [0, 1, 2], "locked": [2], "revealed": False}
    assert restarted.press(table["id"], 1, 2)[1]["duplicate"] is True
    assert restarted.arm(table["id"], [0])[1]["reveal"]["id"] == 2


def test_reveals_do_not_touch_the_game(device, table):
    """Arming and pressing leave the table's version and state alone."""
    device.arm(table["id"], [0, 1])
    device.press(table["id"], 1, 0)
    status, after = device.call("GET", f"/api/tables/{table['id']}")
    assert (after["version"], after["state"]) == (table["version"], table["state"])


def test_an_unknown_table_is_a_404_for_every_reveal_call(device):
    """Arm, press and disarm on a table that does not exist."""
    for status, body in (
        device.arm("nosuchtb", [0]),
        device.press("nosuchtb", 1, 0),
        device.disarm("nosuchtb"),
    ):
        assert status == 404 and body == {"error": "There is no table with id nosuchtb."}


def test_a_flood_of_presses_from_many_threads_counts_each_seat_once(app, device, table):
    """Seats pressed over and over at once: every seat locked, exactly one press each taken."""
    device.arm(table["id"], [0, 1, 2, 3])
    taken: list[int] = []
    lock = threading.Lock()

    def hammer(seat: int) -> None:
        presses = DeviceApi(app.test_client())
        for _ in range(FLOOD_PRESSES):
            status, body = presses.press(table["id"], 1, seat)
            assert status == 200
            if not body["duplicate"]:
                with lock:
                    taken.append(seat)

    threads = [threading.Thread(target=hammer, args=(seat,)) for seat in range(4) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(taken) == [0, 1, 2, 3]
    assert device.view(table["id"])[1]["reveal"]["revealed"] is True
