"""Every decision in view (issue 14 item 1): whole games of each game, checked after every move.

After each move the table page is loaded as the move's redirect loads it, at 1024x768
(landscape tablet) and 800x1280 (portrait tablet). The head (round and turn banner) and every
control marked `data-decision` (the next decision) must lie inside the viewport as the page
shows itself (static/app.js may scroll a little to the decision; the head sticks to the top and
no decision may hide under it), nothing
may scroll sideways (the page or a box inside it), and no tile, panel or
table may spill its content. The moves go through the JSON API (this computer hosts every
table), so the walk checks the layout of every position without depending on how each control
is filled in. Screenshots of the first position of every phase land in test-artifacts/.
"""

import collections
import random

import pytest

from scoring import prodigals_club as club
from tests.live import SHOTS, json_request
from tests.scoring import adel_random, prodigals_random, razzia_random, thieves_guild_random
from tests.scoring.for_sale_random import random_move as for_sale_move
from tests.scoring.prodigals_play import setup as club_setup
from tests.web import game_script as razzia_script

pytestmark = pytest.mark.browser

LANGUAGES = ("cs", "en")
SIZES = ({"width": 1024, "height": 768}, {"width": 800, "height": 1280})
#: Elements that must not spill their content: card tiles, panels, the players' boxes, tables.
CONTAINED = (
    ".card-button, .row-slots li, .panel, .player, .bidder, .house-pick, .device-panel, "
    ".table-head, .pc-board, .standings, .final, .round-end"
)
#: Names that must never break inside a word (a seat's name beside its chips, on its button).
NAMES_SHOWN = ".seat-name, .sale-row legend, .av-row legend, .player h3, .bidder .name, .tg-name"
#: Long Czech names for the biggest tables: each must stay one word wherever it is shown.
LONG_NAMES = ["Kristýna", "Bartoloměj", "Vendula", "Maxmilián", "Radoslava", "Jaroslav"]
#: What a page shows of its decision: problems found, and the lowest decision edge in px.
LOOK = """async ([contained, names]) => {
  // A turned tablet's resize event (static/app.js re-places the page) runs before the next frame.
  await new Promise((done) => requestAnimationFrame(() => done()));
  const problems = [];
  const [width, height] = [innerWidth, innerHeight];
  const describe = (el) => el.outerHTML.slice(0, 80).replace(/\\s+/g, " ");
  const wide = document.documentElement.scrollWidth;
  if (wide > width) problems.push(`the page is ${wide}px wide`);
  const marked = [...document.querySelectorAll("[data-decision], .table-head")]
    .filter((el) => el.getClientRects().length);
  if (!marked.some((el) => el.matches("[data-decision]"))) problems.push("no decision marked");
  const head = document.querySelector(".table-head");
  const below = head ? head.getBoundingClientRect().bottom : 0;
  let bottom = 0;
  for (const el of marked) {
    const box = el.getBoundingClientRect();
    bottom = Math.max(bottom, box.bottom);
    if (el !== head && box.top < below - 0.5) {
      const span = `${Math.round(box.top)} < ${Math.round(below)}`;
      problems.push(`under the head (${span}): ${describe(el)}`);
    }
    if (box.top < 0 || box.bottom > height + 0.5 || box.left < 0 || box.right > width + 0.5) {
      const span = `${Math.round(box.top)}..${Math.round(box.bottom)}`;
      problems.push(`off screen (${span}): ${describe(el)}`);
    }
  }
  for (const el of document.querySelectorAll("main *")) {
    const style = getComputedStyle(el);
    const scrolls = style.overflowX === "auto" || style.overflowX === "scroll";
    if (scrolls && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`scrolls sideways (${el.scrollWidth} > ${el.clientWidth}): ${describe(el)}`);
    }
  }
  for (const el of document.querySelectorAll(names)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].map((box) => Math.round(box.top)));
        if (lines.size > 1) problems.push(`"${word[0]}" breaks across lines: ${describe(el)}`);
      }
    }
  }
  for (const el of document.querySelectorAll(contained)) {
    if (el.clientWidth && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`spills (${el.scrollWidth} > ${el.clientWidth}): ${describe(el)}`);
    }
  }
  return { problems, bottom: Math.round(bottom), scrollY: Math.round(scrollY) };
}"""


class Walk:
    """Two tablets (Czech, English) looking at one table while the API plays it.

    Both languages are checked after every move: English once found what Czech did not (Adel's
    box panel heading fits one line in English, so its seats start higher and the seats and the
    card form no longer fitted one screen together).
    Each page is checked at both sizes by turning the tablet (a resize lays out the page as a
    fresh load at that size would: the layout is CSS only).
    """

    def __init__(self, base: str, browser, game: str) -> None:
        self.base, self.game = base, game
        self.looking = True
        self.pages = {}
        self.table: dict = {}
        self.moves = 0
        self.seen: set = set()
        self.findings: list[str] = []
        self.deepest: dict = {}
        self.scrolled: collections.Counter = collections.Counter()
        for lang in LANGUAGES:
            page = browser.new_page(viewport=SIZES[0])
            page.goto(base + "/")
            with page.expect_navigation():
                page.click(f"[data-testid=lang-{lang}]")
            self.pages[lang] = page

    def create(self, setup: dict) -> None:
        """Seat a table through the API and look at its first page."""
        status, self.table = json_request(self.base, "POST", "/api/tables", setup)
        assert status == 201, self.table
        self.look("created")

    def move(self, move: dict) -> None:
        """Post one move at the table's version, then look at the page it leads to (while
        `looking`: a big table's walk may pass over rounds that show nothing new)."""
        body = {"version": self.table["version"], "move": move}
        path = f"/api/tables/{self.table['id']}/moves"
        status, answer = json_request(self.base, "POST", path, body)
        assert status == 200, (move, answer)
        self.table = answer
        self.moves += 1
        if self.looking:
            self.look(move["type"])

    def lock_in(self) -> None:
        """Every choosing seat presses its button, as on the box (For Sale's simultaneous sale)."""
        path = f"/api/tables/{self.table['id']}"
        reveal = json_request(self.base, "GET", path + "/device")[1]["reveal"]
        for seat in reveal["seats"]:
            press = {"id": reveal["id"], "seat": seat}
            status, answer = json_request(self.base, "POST", path + "/reveal/press", press)
            assert status == 200, answer
        if self.looking:
            self.look("locked-in")

    def look(self, after: str) -> None:
        """Load the table and check what is in view at both sizes; a screenshot per phase."""
        count = len(self.table["state"]["players"])
        phase = self.table["state"]["phase"] + ("-locked" if after == "locked-in" else "")
        for lang, page in self.pages.items():
            first = (lang, phase) not in self.seen
            self.seen.add((lang, phase))
            # Stylesheets hold back the deferred scripts, so the page is laid out by then.
            page.goto(f"{self.base}/tables/{self.table['id']}", wait_until="domcontentloaded")
            sizes = SIZES if page.viewport_size == SIZES[0] else SIZES[::-1]
            for size in sizes:
                page.set_viewport_size(size)
                self.check(page, f"{phase} after {after} {lang} {size['width']}x{size['height']}")
                if first:
                    size_name = f"{size['width']}x{size['height']}"
                    name = f"walk-{self.game}-{count}p-{phase}-{lang}-{size_name}"
                    SHOTS.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(SHOTS / f"{name}.png"))

    def check(self, page, where: str) -> None:
        """Record what is out of view or spills at this position (all found, then failed)."""
        seen = page.evaluate(LOOK, [CONTAINED, NAMES_SHOWN])
        where = (
            f"{self.game} {len(self.table['state']['players'])}p v{self.table['version']} {where}"
        )
        self.findings += [f"{where}: {problem}" for problem in seen["problems"]]
        key = where.rsplit(" ", 2)[-2:]
        key = (key[0], key[1], self.table["state"]["phase"])
        if seen["scrollY"] > 0:
            self.scrolled[" ".join(key[::-1])] += 1
        self.deepest[key] = max(self.deepest.get(key, 0), seen["bottom"])

    def close(self) -> None:
        """Close the tablets; fail with every position whose decision was not in view."""
        for page in self.pages.values():
            page.close()
        lines = [f"{k}: lowest decision edge {v}px" for k, v in sorted(self.deepest.items())]
        total = sum(self.scrolled.values())
        lines.append(f"positions the page scrolled itself to show: {total} {dict(self.scrolled)}")
        print(f"\n{self.game}\n" + "\n".join(lines))
        problems = "\n".join(self.findings[:40])
        assert not self.findings, f"{len(self.findings)} problems:\n{problems}"


def test_razzia_every_decision_is_in_view(live_server, browser):
    """The hand-worked 4-player game (RULES.md §1): deals, draws, thieves, forced auctions."""
    base, _app = live_server
    walk = Walk(base, browser, "razzia")
    walk.create({"game": "razzia", "players": razzia_script.PLAYERS})
    walk.move({"type": "deal", "sets": razzia_script.SETS})
    for number, (steps, _scores, _totals) in enumerate(razzia_script.ROUNDS):
        if number:
            walk.move({"type": "next_round"})
        for step in steps:
            walk.move(razzia_script.as_form(step))
    walk.close()


def test_for_sale_every_decision_is_in_view(live_server, browser):
    """A seeded 4-player game (RULES.md §2): auctions, check turn-overs, locked-in sales."""
    base, _app = live_server
    walk = Walk(base, browser, "for_sale")
    walk.create({"game": "for_sale", "players": ["Filip", "Valerie", "Jiří", "Markéta"]})
    rng = random.Random(14)
    while walk.table["state"]["phase"] != "game_over":
        if walk.table["state"]["phase"] == "reveal":
            walk.lock_in()
        walk.move(for_sale_move(walk.table["state"], rng))
    walk.close()


def test_klub_every_decision_is_in_view(live_server, browser):
    """A seeded 4-player game of all three competitions (RULES.md §5), to its end."""
    base, _app = live_server
    walk = Walk(base, browser, "prodigals_club")
    walk.create({"game": "prodigals_club", **club_setup(("Ann", "Bob", "Cid", "Dee"))})
    rng = random.Random(14)
    while walk.table["state"]["phase"] != "game_over":
        walk.move(prodigals_random.random_move(walk.table["state"], rng))
    assert club.summary(walk.table["state"])["finished"]
    walk.close()


def test_adel_every_decision_is_in_view(live_server, browser):
    """Seeded games (RULES.md §4) at 4 and 5 players, banquet at space 8, to the final
    exhibition and the ranking: secret choices locked in on the box, buys, castle, thieves.
    The 4-player table tracks every hand; the 5-player one leaves the hands to the players
    (the default), so its exhibitions are entered card by card."""
    base, _app = live_server
    for count, seed, tracked in ((4, 28, True), (5, 55, False)):
        walk = Walk(base, browser, "adel_verpflichtet")
        rng = random.Random(seed)
        values, piles = adel_random.random_setup(count, rng, tracked=tracked)
        dealt = values.pop("dealt", None) or values["hands"]
        if count == 5:
            values["players"] = LONG_NAMES[:count]
        hidden = [pile[1:] for pile in piles]
        walk.create({"game": "adel_verpflichtet", **values})
        while walk.table["state"]["phase"] != "game_over":
            state = walk.table["state"]
            if state["phase"] in ("location", "action", "choose"):
                walk.lock_in()
            hands = adel_random.real_hands(state, dealt)
            move = adel_random.random_move(state, rng, hands)
            if move["type"] == "buy":  # the table turns the pile's next card face up
                pile = hidden[move["pile"]]
                move["next"], hidden[move["pile"]] = (pile[0] if pile else None), pile[1:]
            walk.move(move)
        walk.close()


def test_thieves_guild_every_decision_is_in_view(live_server, browser):
    """Seeded games (RULES.md §3) at 4 and 9 players to the sudden end: buys, dice, sides,
    robberies and cards played out of turn."""
    base, _app = live_server
    for count, seed in ((4, 16), (9, 14)):
        walk = Walk(base, browser, "thieves_guild")
        names = thieves_guild_random.names(count)
        walk.create({"game": "thieves_guild", "players": names, "card_costs": [1, 2, 3, 4]})
        rng = random.Random(seed)
        while walk.table["state"]["phase"] != "game_over":
            walk.move(thieves_guild_random.random_move(walk.table["state"], rng))
        walk.close()


def test_the_biggest_tables_keep_every_decision_in_view(live_server, browser):
    """The most players each game seats (RULES.md §1, §2, §5): Razzia's first round with five,
    For Sale's first buying round and first sale with six, Klub's first round with five."""
    base, _app = live_server
    names = LONG_NAMES
    walk = Walk(base, browser, "razzia")
    walk.create({"game": "razzia", "players": names[:5]})
    rng = random.Random(5)
    while walk.table["state"]["phase"] not in ("round_end", "game_over"):
        walk.move(razzia_random.random_move(walk.table["state"], rng))
    walk.close()

    walk = Walk(base, browser, "for_sale")
    walk.create({"game": "for_sale", "players": names})
    rng = random.Random(6)
    while walk.table["state"]["phase"] != "game_over":
        phase = walk.table["state"]["phase"]
        # The first buying round in full, then over the auctions to the first sale.
        walk.looking = walk.moves < 16 or phase in ("selling", "reveal")
        if phase == "reveal":
            walk.lock_in()
            walk.move(for_sale_move(walk.table["state"], rng))
            break
        walk.move(for_sale_move(walk.table["state"], rng))
    walk.close()

    walk = Walk(base, browser, "prodigals_club")
    walk.create({"game": "prodigals_club", **club_setup(tuple(names[:5]))})
    rng = random.Random(5)
    while walk.table["state"].get("round", 1) == 1 and walk.table["state"]["phase"] != "game_over":
        walk.move(prodigals_random.random_move(walk.table["state"], rng))
    walk.close()


def test_a_decision_taller_than_the_screen_is_scrolled_into_view(live_server, browser):
    """Last resort (static/app.js): on a short screen the page scrolls to the decision's start,
    never past it; a #anchor (a refusal's panel, a tapped name) keeps its own place."""
    base, _app = live_server
    status, table = json_request(
        base, "POST", "/api/tables", {"game": "prodigals_club", **club_setup(order=[0, 1, 2])}
    )
    assert status == 201 and table["state"]["phase"] == "play"
    page = browser.new_page(viewport={"width": 1024, "height": 420})
    page.goto(f"{base}/tables/{table['id']}")
    top, bottom = page.evaluate(
        "() => { const boxes = [...document.querySelectorAll('[data-decision]')]"
        ".map((el) => el.getBoundingClientRect());"
        " return [Math.min(...boxes.map((b) => b.top)), Math.max(...boxes.map((b) => b.bottom))]; }"
    )
    assert page.evaluate("scrollY") > 0
    assert 0 <= top and bottom <= 420, (top, bottom)
    page.goto(f"{base}/tables/{table['id']}?seat=1#forms")
    top = page.evaluate("document.getElementById('forms').getBoundingClientRect().top")
    assert abs(top) < 2, top
    page.close()


def test_the_folded_box_panel_opens_with_a_tap(live_server, browser):
    """No box and no reveal: a status line; a tap on it shows the strip and the seats."""
    base, _app = live_server
    status, table = json_request(
        base, "POST", "/api/tables", {"game": "razzia", "players": razzia_script.PLAYERS}
    )
    assert status == 201
    page = browser.new_page(viewport=SIZES[0])
    page.goto(f"{base}/tables/{table['id']}")
    assert page.is_visible("[data-testid=device-badge]")
    assert page.is_hidden("[data-testid=seat-0]")
    page.click("[data-testid=device-fold] > summary")
    assert page.is_visible("[data-testid=seat-0]") and page.is_visible("[data-testid=led-0]")
    page.reload()  # opened by hand: it stays open for the rest of the visit
    assert page.is_visible("[data-testid=seat-0]")
    page.close()
