"""Issue 31 item 3: the location panel's defaults that save the scorer taps without entering
anything unseen: each seat's location ticked as last turn (and marked so), nothing on turn 1,
and "everyone at ..." that ticks one location for every seat in one tap."""

import pytest

from companion_app.games.adel_verpflichtet.view import last_places
from tests.web.adel_pages import AdelPages
from tests.web.adel_tablet import AdelTablet
from tests.web.test_adel_pages import is_checked, play_first_turn

TURN_ONE_PLACES = ["auction", "castle", "castle"]  # play_first_turn's locations


@pytest.fixture
def av(client) -> AdelPages:
    """A 3-player table driven through its forms."""
    return AdelPages(client)


def finish_first_turn(av: AdelPages) -> None:
    """play_first_turn, then Cid's exhibition, Bob's detective's turn and Next turn."""
    play_first_turn(av)
    av.post(
        {
            "type": "exhibitions",
            "shows0": "0",
            "shows1": "0",
            "shows2": "1",
            "show2": ["C:1556", "D:1563", "E:1570", "F:1577"],
        }
    )
    assert av.state()["phase"] == "review", av.state()["phase"]
    av.post({"type": "next"})
    assert av.state()["turn"] == 2


def test_last_places_are_the_latest_revealed_locations():
    moves = [
        {"type": "locations", "places": ["castle", "auction"]},
        {"type": "actions", "actions": []},
        {"type": "next"},
        {"type": "locations", "places": ["auction", "auction"]},
        {"type": "buy", "pile": 0},
    ]
    assert last_places(moves, 2) == ["auction", "auction"]
    assert last_places(moves[:3], 2) == ["castle", "auction"]
    assert last_places([], 2) == []
    # the surprise variant reveals location and card at once: its locations count too
    assert last_places([{"type": "choices", "places": ["castle", "castle"]}], 2) == [
        "castle",
        "castle",
    ]


def test_turn_one_ticks_no_location(av):
    av.create()
    page = av.page()
    for seat in range(3):
        for place in ("auction", "castle"):
            assert not is_checked(page, f"place{seat}-{place}")
    assert "as last turn" not in page and 'data-testid="last-places-hint"' not in page


def test_the_next_turn_ticks_each_seats_location_as_last_turn_and_says_so(av):
    av.create()
    finish_first_turn(av)
    page = av.page()
    for seat, place in enumerate(TURN_ONE_PLACES):
        other = "castle" if place == "auction" else "auction"
        assert is_checked(page, f"place{seat}-{place}"), (seat, place)
        assert not is_checked(page, f"place{seat}-{other}")
        assert f'data-testid="place{seat}-last"' in page
    assert page.count(">as last turn</small>") == 3
    assert 'data-testid="last-places-hint"' in page
    # posted as ticked, the defaults are last turn's locations
    av.lock_in()
    av.post({"type": "locations", **{f"place{s}": p for s, p in enumerate(TURN_ONE_PLACES)}})
    assert av.state()["places"] == TURN_ONE_PLACES


def test_an_undone_location_entry_is_not_taken_for_last_turn(client, av):
    av.create()
    av.lock_in()
    av.post({"type": "locations", "place0": "auction", "place1": "castle", "place2": "castle"})
    version = av.api()["version"]
    undone = client.post("/api" + av.url + "/undo", json={"version": version})
    assert undone.status_code == 200, undone.get_data(as_text=True)
    assert av.state()["phase"] == "location"
    page = av.page()
    assert not is_checked(page, "place0-auction") and "as last turn" not in page


def test_a_refused_location_entry_comes_back_as_entered_not_as_last_turn(av):
    av.create()
    finish_first_turn(av)
    # not locked in: refused, and the entry is drawn again as the scorer tapped it
    page = av.post(
        {"type": "locations", "place0": "castle", "place1": "castle", "place2": "castle"}
    )
    html = page.get_data(as_text=True)
    assert "Not everyone has locked in yet" in html
    assert is_checked(html, "place0-castle") and not is_checked(html, "place0-auction")


def test_czech_marks_a_location_ticked_as_last_turn(client, av):
    av.create()
    finish_first_turn(av)
    client.post("/lang", data={"lang": "cs", "next": "/"})
    page = av.page()
    assert ">jako minulý tah</small>" in page
    assert "Všichni na zámek" in page and "Všichni do aukční síně" in page


@pytest.mark.browser
def test_everyone_at_the_castle_ticks_every_seats_castle_in_one_tap(live_server, browser):
    base, _app = live_server
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    tablet = AdelTablet(page, base)
    tablet.open()
    tablet.lock_in()
    before = tablet.taps.count
    tablet.taps.tap("[data-testid=everyone-castle]")
    assert tablet.taps.count - before == 1
    for seat in range(5):
        assert page.locator(f"[data-testid=place{seat}-castle]").is_checked(), seat
    page.click(".chip:has([data-testid=place1-auction])")
    tablet.taps.tap("[data-testid=everyone-auction]")
    for seat in range(5):
        assert page.locator(f"[data-testid=place{seat}-auction]").is_checked(), seat
    tablet.submit("location-submit")
    assert tablet.state()["places"] == ["auction"] * 5


def test_exhibit_comes_ticked_at_the_castle_and_marked_as_such(av):
    av.create()
    av.lock_in()
    # Ann and Cid hold a valid exhibition (the unshuffled deck), Bob goes to the auction house
    av.post({"type": "locations", "place0": "castle", "place1": "auction", "place2": "castle"})
    page = av.page()
    assert not is_checked(page, "act1-check:21") and 'data-testid="act1-usual"' not in page
    for seat in (0, 2):
        assert is_checked(page, f"act{seat}-exhibit"), seat
        assert f'data-testid="act{seat}-usual"' in page
    assert page.count(">usual</small>") == 2
