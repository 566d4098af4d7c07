"""A For Sale sale with a phone at every seat, in headless Chromium (issue 31 "Done means").

Four phone contexts take their seats from the host's seat links and seal their houses. Before
the last seal every client's every answer (host, viewer, the phone that has not sealed: pages,
API, history, export, printouts, /room, the pushed page) is the same whatever the sealed
houses are: the three phones change their seals and nothing anyone else gets changes. The
last seal reveals all four as one move, and the host's page moves on by itself: the scorer
taps nothing for the sale (today's budget without phones: 5 lock-ins, 5 houses and Enter).
"""

import pytest

from companion_app.store import get_store
from tests.live import WAIT_MS, check_tablet_fit, screenshot
from tests.seats.helpers import NAMES, for_sale_at_reveal, houses_of
from tests.seats.test_sealed_is_secret import TIMES, paths

PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1024, "height": 768}


class Scorer:
    """The host's tablet, counting every tap on it."""

    def __init__(self, page) -> None:
        self.page, self.taps = page, 0

    def tap(self, selector: str) -> None:
        self.taps += 1
        self.page.click(selector)


def everything(context, table_id: str) -> dict[str, tuple[int, str]]:
    """Every GET of the table and the room this browser context can make, times set aside."""
    got = {}
    for path in paths(table_id):
        answer = context.request.get(path)
        kind = answer.headers.get("content-type", "")
        body = answer.text() if kind.startswith(("text/", "application/json")) else ""
        got[path] = (answer.status, TIMES.sub("TIME", body))
    return got


def seat_links(page) -> list[str]:
    """The seat links on the host's page, in seat order."""
    return [
        page.get_attribute(f"[data-testid=seat-link-{seat}] [data-testid=seat-url]", "href")
        for seat in range(len(NAMES))
    ]


def take_seat(browser, base: str, link: str, lang: str):
    """A phone that opens its seat link and takes the seat."""
    context = browser.new_context(viewport=PHONE, base_url=base, locale=lang)
    page = context.new_page()
    page.goto(link)
    with page.expect_navigation():
        page.click("[data-testid=take-seat]")
    return page


def seal(page, house: int) -> None:
    """The player taps the house they lay face down."""
    with page.expect_navigation():
        page.click(f"[data-testid=seal-option][value='{house}']")
    page.wait_for_selector("[data-testid=seat][data-state=sealed]")


@pytest.mark.browser
def test_a_sale_sealed_on_four_phones_reveals_as_one_move(live_server, browser):
    base, app = live_server
    table = for_sale_at_reveal(app)
    host_context = browser.new_context(viewport=TABLET, base_url=base)
    scorer = Scorer(host_context.new_page())
    scorer.page.goto(f"/tables/{table.id}")
    links = seat_links(scorer.page)
    phones = [
        take_seat(browser, base, link, "cs" if seat == 1 else "en")
        for seat, link in enumerate(links)
    ]
    viewer_context = browser.new_context(viewport=TABLET, base_url=base)
    viewer = viewer_context.new_page()
    viewer.goto(f"/tables/{table.id}")
    hands = [houses_of(app, table.id, seat) for seat in range(4)]
    for seat in range(3):
        seal(phones[seat], hands[seat][0])
    screenshot(phones[0], "seat-sealed-en")
    screenshot(phones[1], "seat-sealed-cs")
    screenshot(phones[3], "seat-choose-en")
    for page in phones:
        check_tablet_fit(page, "seat page", PHONE["width"], "[data-testid=seal-option]")
    clients = {"host": host_context, "viewer": viewer_context, "Dee's phone": phones[3].context}
    before = {name: everything(context, table.id) for name, context in clients.items()}
    pushed = viewer.inner_html("main")
    for seat in range(3):
        seal(phones[seat], hands[seat][-1])  # everyone changes their mind
    after = {name: everything(context, table.id) for name, context in clients.items()}
    for name in clients:
        for path in before[name]:
            assert before[name][path] == after[name][path], (name, path)
    assert viewer.inner_html("main") == pushed
    assert "Waiting for Dee." in phones[0].inner_text("[data-testid=seat-waiting]")
    with app.app_context():
        assert get_store().get(table.id).version == table.version
    chosen = [hands[0][-1], hands[1][-1], hands[2][-1], hands[3][0]]
    phones[0].context.set_offline(True)  # Ann's phone sleeps through the reveal
    with phones[3].expect_navigation():
        phones[3].click(f"[data-testid=seal-option][value='{chosen[3]}']")
    with app.app_context():
        store = get_store()
        assert store.get(table.id).version == table.version + 1
        assert store.history(table.id)[-1].move == {"type": "sell", "houses": chosen}
    # the scorer's tablet moves on by itself to the next decision: the next checks
    scorer.page.wait_for_selector("[data-testid=sell-panel]", state="detached", timeout=WAIT_MS)
    for page in phones[1:]:
        page.wait_for_selector("[data-testid=seat][data-state=revealed]", timeout=WAIT_MS)
    assert phones[0].get_attribute("[data-testid=seat]", "data-state") == "sealed"
    phones[0].context.set_offline(False)  # it wakes: the stream reconnects and shows the truth
    phones[0].wait_for_selector("[data-testid=seat][data-state=revealed]", timeout=WAIT_MS)
    screenshot(phones[0], "seat-revealed-en")
    screenshot(scorer.page, "seat-host-after-sale")
    assert scorer.taps == 0
    print(f"\nFor Sale sale with four phones: {scorer.taps} scorer taps (without phones: 9)")
