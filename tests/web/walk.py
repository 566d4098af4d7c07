"""The viewport walk's tablets (issue 14 item 1): is every decision in view after a move?

`Walk` looks at one table's page as a game goes on (see `Walk` for which moves and views) at
1024x768 (landscape tablet) and 800x1280 (portrait tablet), in Czech and English: the head
(round and turn banner) and every control marked `data-decision` must lie inside the viewport
as the page shows itself (static/app.js may scroll a little to the decision; the head sticks to
the top and no decision may hide under it), nothing may scroll sideways (the page or a box
inside it), no tile, panel or table may spill its content, and no name breaks inside a word.
tests/web/test_viewport_walk.py walks whole games through the API;
tests/web/test_browser_game.py walks the clicked Razzia! game.
"""

import collections

from tests.live import SHOTS, json_request

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
#: A tablet loads every STRIDE-th position (and every phase's first): a page load is most of
#: a look, and a game's decisions come back every turn (see Walk).
STRIDE = 2
#: Turns static/live.js off in a tablet (it follows a table only where EventSource exists).
NO_LIVE_UPDATES = "window.EventSource = undefined;"
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
    // The overflowing boxes first: a computed style for every element cost most of a look.
    if (el.scrollWidth <= el.clientWidth + 1) continue;
    const style = getComputedStyle(el);
    if (style.overflowX === "auto" || style.overflowX === "scroll") {
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

    Every second position (STRIDE) is loaded and checked in one of the four views (two
    languages, two sizes), the views taking turns: a tablet is turned (a resize lays out the
    page as a fresh load at that size would: the layout is CSS only) between its turns. The
    first position of every phase is checked in all four; a tablet whose own tap led to a
    position (the clicked Razzia! game) is checked at every one, as it stands. English once
    found what Czech did not (Adel's box panel heading fits one line in English, so its seats
    start higher and the seats and the card form no longer fitted one screen together): a
    position that comes back every turn, as every decision of these games does, is seen in
    every view many times over. Checking every view at every position cost four looks and two
    page loads a move; a page load (about 100 ms of Chromium's time) is most of a look
    (issue 22: the suite under 10 minutes).
    """

    def __init__(self, base: str, browser, game: str, languages=LANGUAGES) -> None:
        self.base, self.game = base, game
        self.looking = True
        self.pages = {}
        self.table: dict = {}
        self.moves = 0
        self.looks = 0
        self.seen: set = set()
        self.findings: list[str] = []
        self.deepest: dict = {}
        self.scrolled: collections.Counter = collections.Counter()
        for lang in languages:
            page = browser.new_page(viewport=SIZES[0])
            # The walk loads every position itself: a live stream per tablet would only have the
            # hub render each page once more per move and swap it in behind the check's back.
            page.add_init_script(NO_LIVE_UPDATES)
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

    def follow(self, table_id: str) -> None:
        """Read the table another tablet plays (by clicking) at its current version."""
        status, self.table = json_request(self.base, "GET", f"/api/tables/{table_id}")
        assert status == 200, self.table

    def look(self, after: str, shown: tuple | None = None) -> None:
        """Load the table and check what is in view; a screenshot per phase and view.

        `shown`: (language, page) of a tablet that already shows this position, because its
        own tap led there: it is checked as it stands, not loaded again.
        """
        count = len(self.table["state"]["players"])
        phase = self.table["state"]["phase"] + ("-locked" if after == "locked-in" else "")
        pages = {**self.pages, **dict([shown])} if shown else self.pages
        self.looks += 1
        due = self.looks % STRIDE == 0
        turn = sorted(pages)[self.looks // STRIDE % len(pages)]
        for lang, page in pages.items():
            first = (lang, phase) not in self.seen
            if not (first or (due and lang == turn) or (shown and page is shown[1])):
                continue  # this language's turn comes at a later position
            self.seen.add((lang, phase))
            if not (shown and page is shown[1]):
                # Stylesheets hold back the deferred scripts, so the page is laid out by then.
                page.goto(f"{self.base}/tables/{self.table['id']}", wait_until="domcontentloaded")
            now = page.viewport_size
            turned = SIZES[1] if now == SIZES[0] else SIZES[0]
            for size in (now, turned) if first else (now,):
                page.set_viewport_size(size)
                self.check(page, f"{phase} after {after} {lang} {size['width']}x{size['height']}")
                if first:
                    size_name = f"{size['width']}x{size['height']}"
                    name = f"walk-{self.game}-{count}p-{phase}-{lang}-{size_name}"
                    SHOTS.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(SHOTS / f"{name}.png"))
            if not first:
                page.set_viewport_size(turned)  # its next turn is in the other size

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
