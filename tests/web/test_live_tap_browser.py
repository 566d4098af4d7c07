"""A tap is never lost to a live update (static/live.js): the box panel's seat buttons.

Seats lock in one after the other on the on-screen panel, and each press brings the page a
live update. An update that swapped the page between the two halves of a tap (pointer down on
a seat's button, pointer up on the new page's) lost the tap: the browser dispatches no click
when the press and the release land on different elements. Seen as a lost lock-in in the Adel
tap-count test under load; here the update is made to arrive while the pointer is down.
"""

import pytest

from companion_app.store import reveals as reveal
from tests.live import WAIT_MS
from tests.seats.helpers import for_sale_at_reveal

TABLET = {"width": 1024, "height": 768}


@pytest.mark.browser
def test_an_update_while_a_seat_button_is_held_waits_for_the_release(live_server, browser):
    base, app = live_server
    table = for_sale_at_reveal(app)
    page = browser.new_page(viewport=TABLET)
    page.goto(f"{base}/tables/{table.id}")
    button = page.locator("[data-testid=seat-1][data-state=armed]:not([disabled])")
    button.wait_for(timeout=WAIT_MS)
    box = button.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    with app.app_context():  # Ann presses her button on the box meanwhile
        current = reveal.current(table.id)
        reveal.press(table.id, current.id, 0)
    page.wait_for_selector("main[data-live-pending]", state="attached", timeout=WAIT_MS)
    page.mouse.up()
    page.wait_for_selector("[data-testid=seat-1][data-state=locked]", timeout=WAIT_MS)
    page.wait_for_selector("[data-testid=seat-0][data-state=locked]", timeout=WAIT_MS)
    page.wait_for_selector("main:not([data-live-pending])", state="attached", timeout=WAIT_MS)
    with app.app_context():
        assert reveal.current(table.id).locked == [0, 1]
