"""Plain words on the table pages: banners that match the controls, what to do between rounds.

Issue 14 item 3 (RULES.md §1 "Auction", "Round end"; §2 "Coins per player", "Phase 1").
"""

import re

import pytest

from tests.web import game_script as g

VERSION_FIELD = re.compile(r'name="version" value="(\d+)"')
BANNER = re.compile(r'data-testid="turn"[^>]*>\s*(.*?)\s*</p>', re.S)


class Table:
    """A table driven through its forms in one language, as the tablet posts them."""

    def __init__(self, client, game: str, players: list[str], lang: str = "en", **setup) -> None:
        client.post("/lang", data={"lang": lang, "next": "/"})
        self.client = client
        response = client.post(f"/tables/new/{game}", data={"player": players, **setup})
        assert response.status_code == 303, response.get_data(as_text=True)
        self.url = response.headers["Location"]
        self.shown = client.get(self.url).get_data(as_text=True)

    def page(self) -> str:
        """The table page's HTML as the last request left it."""
        return self.shown

    def post(self, **fields) -> str:
        """Post a move at the page's version; the move must be accepted."""
        version = VERSION_FIELD.search(self.shown).group(1)
        response = self.client.post(f"{self.url}/moves", data={**fields, "version": version})
        assert response.headers["Location"] == self.url, fields
        self.shown = self.client.get(self.url).get_data(as_text=True)
        return self.shown

    def banner(self) -> str:
        """The head's turn banner."""
        return BANNER.search(self.page()).group(1)


def razzia(client, lang: str = "en") -> Table:
    """A 4-player Razzia! table dealt A-D by hand: Ann 2,6,13 · Bob 3,7,12 · Cid 4,8,11 · Dee."""
    table = Table(client, "razzia", g.PLAYERS, lang)
    table.post(type="deal", how="by_hand", sets=g.SETS)
    return table


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "Cid cannot beat the highest bid and must pass."),
        ("cs", "Cid nemůže přebít nejvyšší nabídku a musí pasovat."),
    ],
)
def test_razzia_banner_says_pass_when_no_check_can_bid(client, lang, expected):
    """RULES.md §1 Auction: Bob bids 12,000, Cid holds 4, 8, 11: the banner offers no bid."""
    table = razzia(client, lang)
    table.post(type="draw", seat=g.ANN, card="police")
    table.post(type="bid", seat=g.BOB, check=12000)
    assert 'data-testid="no-bids"' in table.page()
    assert table.banner() == expected
    assert "bid or pass" not in table.banner() and "přihoď" not in table.banner()


def test_razzia_banner_says_must_bid_when_pass_is_gone(client):
    """RULES.md §1 forced auction: everyone else passed, so Ann must bid and has no Pass."""
    table = razzia(client)
    table.post(type="forced_auction", seat=g.ANN)
    for seat in (g.BOB, g.CID, g.DEE):
        table.post(type="pass", seat=seat)
    assert 'data-testid="pass"' not in table.page()
    assert table.banner() == "Ann called the forced auction and must bid"


def test_razzia_banner_offers_bid_or_pass_when_both_are_there(client):
    """The usual auction prompt, when a check can bid and Pass is on screen."""
    table = razzia(client)
    table.post(type="draw", seat=g.ANN, card="police")
    assert 'data-testid="pass"' in table.page() and 'data-check="3000"' in table.page()
    assert table.banner() == "Bob: bid or pass"


def play_round_one(table: Table) -> None:
    """The scripted first round of g.ROUND_1, to its raid."""
    for step in g.ROUND_1:
        table.post(**g.as_form(step))


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_razzia_round_end_says_what_to_discard_turn_up_and_who_starts(client, lang):
    """RULES.md §1 Round end: discard row, police and crossed loot; checks face up; high starts."""
    table = razzia(client, lang)
    play_round_one(table)
    steps = re.search(r'data-testid="round-steps">(.*?)</ol>', table.page(), re.S).group(1)
    steps = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", steps))
    # Ann still holds 13,000 (she bid 2,000), so she starts round 2.
    if lang == "en":
        assert "police officers back in the box" in steps
        assert "discards its jewelry, drivers, thieves and gold coins" in steps
        assert "turns all their checks face up" in steps
        assert "Ann holds the highest check (13,000) and starts round 2." in steps
    else:
        assert "policisty vraťte do krabice" in steps
        assert "odhodí šperky, řidiče, zloděje a zlaté mince" in steps
        assert "Ann má nejvyšší šek (13 000) a začíná 2. kolo." in steps  # spaces folded
    table.post(type="next_round")
    assert 'data-testid="round-steps"' not in table.page()


FOR_SALE = ["Ann", "Bob", "Cid"]


@pytest.mark.parametrize(
    ("players", "variant", "removed"),
    [
        (3, False, None),
        (4, False, 2),
        (5, False, None),
        (6, False, None),
        (3, True, 10),
        (4, True, None),
        (5, True, 3),
        (6, True, None),
    ],
)
def test_for_sale_start_screen_says_what_to_remove_for_this_player_count(
    client, players, variant, removed
):
    """RULES.md §2: 4 players remove 2 houses and 2 checks; variant 3 → 10, 5 → 3; else none."""
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][:players]
    setup = {"variant": "on"} if variant else {}
    page = Table(client, "for_sale", names, **setup).page()
    steps = re.search(r'data-testid="setup-steps">(.*?)</ol>', page, re.S).group(1)
    coins = {3: 28, 4: 21, 5: 16, 6: 14}[players]
    assert f"Give each player {coins} coins." in steps
    if removed:
        assert f"Remove {removed} houses and {removed} checks unseen" in steps
    else:
        assert "All 30 houses and 30 checks are played; remove none." in steps


def test_for_sale_start_screen_in_czech_uses_czech_plurals(client):
    """Four players: "odložte stranou 2 domy a 2 šeky", 21 coins as "21 mincí"."""
    page = Table(client, "for_sale", ["Ann", "Bob", "Cid", "Dee"], "cs").page()
    assert "Bez prohlížení odložte stranou 2 domy a 2 šeky" in page
    assert "Každý hráč dostane 21 mincí." in page


def for_sale_bidding(client) -> Table:
    """Three players, Ann starts, houses 1-3 on the table, Ann bids all her 28 coins."""
    table = Table(client, "for_sale", FOR_SALE)
    table.post(type="start", seat="0")
    table.post(type="houses", houses=["1", "2", "3"])
    table.post(type="bid", seat="0", coins="28")
    return table


def shown_to_the_scorer(client, table: Table) -> None:
    """The scorer's "Show on this device": coins held in secret show until the next move."""
    assert client.post(f"{table.url}/secrets", data={"show": "1"}).status_code == 303
    table.shown = client.get(table.url).get_data(as_text=True)


def test_for_sale_banner_when_the_bid_cannot_be_beaten(client):
    """RULES.md §2 Phase 1: Bob's 28 coins cannot beat 28, so he must pass: no bid field.
    Coins are held in secret ("Mince mohou být drženy tajně"), so the shared page says so
    only once the scorer asked to see the coins; until then it offers Bob a bid or a pass."""
    table = for_sale_bidding(client)
    assert table.banner() == "Bob: bid or pass"
    shown_to_the_scorer(client, table)
    assert 'data-testid="bid-coins"' not in table.page()
    assert table.banner() == "Bob cannot beat the highest bid and must pass."


def test_for_sale_banner_when_the_player_has_no_coins(client):
    """RULES.md §2 Phase 1: Ann spent all 28 coins on house 3; next round she has none
    (shown once the scorer asked to see the coins, held in secret otherwise)."""
    table = for_sale_bidding(client)
    table.post(type="pass", seat="1")
    table.post(type="pass", seat="2")
    table.post(type="houses", houses=["4", "5", "6"])
    assert table.banner() == "Ann: bid or pass"
    shown_to_the_scorer(client, table)
    assert table.banner() == "Ann has no coins left to bid and must pass."
    table.post(type="pass", seat="0")
    assert table.banner() == "Bob: bid or pass"


@pytest.mark.parametrize(
    ("lang", "changes", "amounts"),
    [
        ("en", ["+2", "\u22123", "0", "+1,200"], ["\u2212£2", "£0", "£1,500"]),
        ("cs", ["+2", "\u22123", "0", "+1\xa0200"], ["\u2212£2", "£0", "£1\xa0500"]),
    ],
)
def test_signed_changes_and_pounds_never_show_minus_zero_or_pound_minus(
    app, lang, changes, amounts
):
    """Klub numbers: "+2", "−3", a plain "0" (no "−0"), "−£2" (no "£-2"), locale digit groups."""
    from flask_babel import force_locale

    from companion_app.i18n import pounds, signed

    with app.test_request_context(), force_locale(lang):
        assert [signed(value) for value in (2, -3, 0, 1200)] == changes
        assert [pounds(value) for value in (-2, 0, 1500)] == amounts


@pytest.mark.parametrize(
    ("count", "english", "czech"),
    [(1, "+1 vote", "+1 hlas"), (2, "+2 votes", "+2 hlasy"), (5, "+5 votes", "+5 hlasů")],
)
def test_vote_counts_take_the_plural_of_their_number(app, count, english, czech):
    """ngettext: "+1 vote" (not "+1 votes"); Czech 1 / 2-4 / 5+: hlas, hlasy, hlasů."""
    from flask_babel import force_locale, ngettext

    with app.test_request_context():
        for lang, expected in (("en", english), ("cs", czech)):
            with force_locale(lang):
                assert ngettext("+%(num)s vote", "+%(num)s votes", count) == expected


def test_for_sale_coins_take_the_plural_of_their_number(client):
    """Czech bids: "nabízí 2 mince", "5 mincí"; the bid range "0 až 28 mincí" (shown to the
    scorer who asked to see the coins held in secret)."""
    table = Table(client, "for_sale", FOR_SALE, "cs")
    table.post(type="start", seat="0")
    table.post(type="houses", houses=["1", "2", "3"])
    assert "0 až 28 mincí" not in table.page()
    shown_to_the_scorer(client, table)
    assert "0 až 28 mincí" in table.page()
    table.post(type="bid", seat="0", coins="2")
    page = table.post(type="bid", seat="1", coins="5")
    assert "nabízí 2 mince" in page and "nabízí 5 mincí" in page
    client.post(f"{table.url}/secrets", data={"show": "1", "back": "history"})  # the log's too
    history = client.get(f"{table.url}/history").get_data(as_text=True)
    assert "Ann nabízí 2 mince" in history and "Bob nabízí 5 mincí" in history


def test_setup_refusal_names_the_field_in_the_players_words(client):
    """Klub setup: "Messengers each: ..." instead of the internal key "messengers:"."""
    client.post("/lang", data={"lang": "en", "next": "/"})
    form = {
        "player": ["Ann", "Bob", "Cid"],
        "competition": ["property", "election"],
        "messengers": "0",
        "money": "10",
        "districts": "4",
        "district": "1",
        "votes": "5",
    }
    page = client.post("/tables/new/prodigals_club", data=form).get_data(as_text=True)
    error = re.search(r'data-error="messengers">(.*?)</p>', page, re.S).group(1)
    assert error.startswith("Messengers each: ") and "messengers:" not in page


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("en", "Ann, check 2: "), ("cs", "Ann, šek 2: ")],
)
def test_calculator_refusal_names_the_players_field_not_the_json_path(client, lang, expected):
    """For Sale sheet: "players[0].checks[1]: ..." reads "Ann, check 2: ..." in the summary."""
    client.post("/lang", data={"lang": lang, "next": "/"})
    form = {
        "p0.name": "Ann",
        "p0.checks": "15000 1000",
        "p0.coins": "3",
        "p1.name": "Bob",
        "p1.checks": "0",
        "p1.coins": "2",
        "p2.name": "Cid",
        "p2.checks": "2000",
        "p2.coins": "1",
    }
    page = client.post("/score/for_sale", data=form).get_data(as_text=True)
    summary = re.search(r'data-error="sheet-summary">(.*?)</p>', page, re.S).group(1)
    assert expected in summary and "players[" not in page


def test_calculator_shows_every_error_at_once(client):
    """For Sale sheet with three bad fields: each is marked and named, not only the first."""
    client.post("/lang", data={"lang": "en", "next": "/"})
    form = {
        "p0.name": "Ann",
        "p0.checks": "15000 1000",
        "p0.coins": "3",
        "p1.name": "Bob",
        "p1.checks": "0",
        "p1.coins": "99",
        "p2.name": "Cid",
        "p2.checks": "2000 abc",
        "p2.coins": "1",
    }
    response = client.post("/score/for_sale", data=form)
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    for field in ("p0.checks", "p1.coins", "p2.checks"):
        assert f'data-error="{field}"' in page, field
    summary = re.search(r'data-error="sheet-summary">(.*?)</p>', page, re.S).group(1)
    assert "Ann, check 2: " in summary and "Bob, coins: " in summary and "Cid, check 2: " in summary
    assert page.count('class="invalid"') == 3


def test_razzia_calculator_shows_every_error_at_once(client):
    """Razzia! sheet: a bad ring count and a bad gold count, both marked at their fields."""
    client.post("/lang", data={"lang": "en", "next": "/"})
    form = {
        "round": "1",
        "p0.name": "Ann",
        "p0.jewelry.ring": "x",
        "p1.name": "Bob",
        "p1.gold": "-1",
        "p2.name": "Cid",
    }
    page = client.post("/score/razzia", data=form).get_data(as_text=True)
    assert 'data-error="p0.jewelry.ring"' in page and 'data-error="p1.gold"' in page


def test_klub_setup_shows_every_error_at_once(client):
    """Klub setup with three bad board values and one player: all four refusals, each at its
    field and in the player's words (RULES.md §5 board values)."""
    client.post("/lang", data={"lang": "en", "next": "/"})
    form = {
        "player": ["Ann"],
        "competition": ["property", "election", "society"],
        "money": "ten",
        "districts": "4",
        "district": "1",
        "votes": "99",
        "token0": "1",
        "token1": "1",
        "token2": "",
        "token3": "1",
    }
    form.update({f"hp{r}_{p}": "1" for r in range(1, 6) for p in range(1, 4)})
    response = client.post("/tables/new/prodigals_club", data=form)
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    shown = dict(re.findall(r'data-error="(\w+)">(.*?)</p>', page, re.S))
    assert set(shown) == {"players", "money", "votes", "society_tokens"}, shown
    assert shown["money"].startswith("Property: starting money (£): ")
    assert shown["votes"].startswith("Election: starting votes: ")
    assert 'name="money" value="ten"' in page  # what was typed stays


def test_old_history_msgids_are_gone_and_home_and_archive_read_differently():
    """Issue 14: no stale "History" / "History and undo" entries; in Czech the home list's
    finished games and the games archive have clearly different names."""
    from babel.messages.pofile import read_po

    from tests.web.test_translations import catalog_path

    for locale in ("cs", "en"):
        with open(catalog_path(locale, "po"), "rb") as po:
            catalog = read_po(po, locale=locale)
        assert catalog.get("History") is None and catalog.get("History and undo") is None
    with open(catalog_path("cs", "po"), "rb") as po:
        czech = read_po(po, locale="cs")
    home, archive = czech.get("Finished games").string, czech.get("Played games").string
    assert home and archive and home.split()[-1] != archive.split()[-1]
    assert "hran" not in archive  # not Dohrané / Odehrané side by side


def test_final_screen_qr_warns_when_its_address_is_local_only(app, client, monkeypatch):
    """The table's final screen: opened at 127.0.0.1 its results code warns and offers the LAN
    address; with a LAN base URL there is no warning."""
    from companion_app.server import serve
    from tests.results.conftest import play_table

    monkeypatch.setattr(serve, "lan_address", lambda: "10.1.2.3")
    table_id = play_table(app)
    here = "http://127.0.0.1:5000"
    page = client.get(f"/tables/{table_id}", base_url=here).get_data(as_text=True)
    note = re.search(r'data-testid="local-only">(.*?)</p>', page, re.S).group(1)
    assert f"http://10.1.2.3:5000/tables/{table_id}/results" in note
    app.config["BASE_URL"] = "http://192.168.1.20:8000/"
    assert 'data-testid="local-only"' not in client.get(f"/tables/{table_id}").get_data(True)


@pytest.mark.parametrize(
    ("players", "removed"), [(2, "9,000"), (3, "13,000"), (4, "13,000"), (5, None)]
)
def test_razzia_deal_screen_says_what_to_lay_out_for_this_player_count(client, players, removed):
    """RULES.md §1 "Checks by player count": the 1,000 check in the centre, the unused checks
    back in the box (2 players use 1-9, 3-4 use 1-13, 5 all 16), the deck shuffled."""
    page = Table(client, "razzia", ["Ann", "Bob", "Cid", "Dee", "Eve"][:players]).page()
    steps = re.search(r'data-testid="setup-steps">(.*?)</ol>', page, re.S).group(1)
    assert "Put the 1,000 check face up in the centre." in steps
    if removed:
        assert f"Put the checks above {removed} back in the box: {players} players" in steps
    else:
        assert "back in the box" not in steps


def finished_for_sale(app) -> str:
    """A finished 3-player For Sale table played with random legal moves; its id."""
    import random

    from companion_app.store import get_store
    from scoring import for_sale
    from tests.scoring.for_sale_random import random_move
    from tests.web.test_for_sale_store import lock_everyone

    rng = random.Random(3)
    with app.app_context():
        store = get_store()
        table = store.create_table("for_sale", {"players": FOR_SALE})
        while not for_sale.summary(table.state)["finished"]:
            if for_sale.reveal_seats(table.state):
                lock_everyone(table)
            table = store.apply_move(table.id, random_move(table.state, rng), table.version)
        return table.id


@pytest.mark.parametrize(("lang", "thousand"), [("en", "1,000"), ("cs", "1\xa0000")])
def test_money_uses_one_locale_number_format_everywhere(app, client, lang, thousand):
    """For Sale coins "9 × 1,000 = 9,000" (Czech "9 × 1 000 = 9 000"), never mixed; the results
    page groups the money the same way."""
    table_id = finished_for_sale(app)
    client.post("/lang", data={"lang": lang, "next": "/"})
    page = client.get(f"/tables/{table_id}").get_data(as_text=True)
    cells = re.findall(r'data-cat="coins">(\d+) × ([^=<]+) = ([^<]+)</td>', page)
    assert cells and all(shown.strip() == thousand for _coins, shown, _total in cells)
    separator = thousand[1]
    for coins, _shown, total in cells:
        assert total == f"{int(coins) * 1000:,}".replace(",", separator)
    results = client.get(f"/tables/{table_id}/results").get_data(as_text=True)
    scores = re.findall(r'data-cat="score">([^<]+)</td>', results)
    assert scores and all(re.fullmatch(rf"\d{{1,3}}(?:{separator}\d{{3}})*", s) for s in scores)


def test_a_page_keeps_its_language_after_one_in_the_other(app, client):
    """One server shows both languages: the coins' 1,000 of an English page did not stay in
    the Czech page after it (Jinja had run `1000|money` once, at compile time)."""
    table_id = finished_for_sale(app)
    shown = {}
    for lang in ("en", "cs", "en"):
        client.post("/lang", data={"lang": lang, "next": "/"})
        page = client.get(f"/tables/{table_id}").get_data(as_text=True)
        shown.setdefault(lang, set()).update(re.findall(r'data-cat="coins">\d+ × ([^=<]+) =', page))
    assert shown == {"en": {"1,000"}, "cs": {"1\xa0000"}}


def test_every_filter_of_ours_runs_at_every_render(app):
    """Jinja runs a plain filter of a constant once, at compile time: every filter the
    companion adds takes the context (i18n.per_page), but the one that ignores the language."""
    from jinja2.utils import _PassArg

    ours = {
        name: run
        for name, run in app.jinja_env.filters.items()
        if getattr(run, "__module__", "").startswith("companion_app")
    }
    once = {name for name, run in ours.items() if _PassArg.from_obj(run) is not _PassArg.context}
    assert "money" in ours and once == {"name_tile"}  # Czech syllables in both languages


@pytest.mark.parametrize(("lang", "expected"), [("en", "Ann's cash set to −£2"), ("cs", "−£2")])
def test_klub_history_prints_negative_cash_as_minus_pounds(app, lang, expected):
    """A cash entry below zero reads "−£2" in the move log, never "£-2"."""
    from flask_babel import force_locale

    from companion_app.games.prodigals_club.text import describe

    move = {"type": "property", "seat": 0, "action": "set_cash", "cash": -2}
    with app.test_request_context(), force_locale(lang):
        line = describe(move, ["Ann", "Bob"])
    assert expected in line and "£-" not in line


@pytest.mark.parametrize(("lang", "expected"), [("en", "Votes: "), ("cs", "Hlasy: ")])
def test_klub_move_refusal_names_the_control_not_the_key(client, app, lang, expected):
    """A Klub vote change typed as "abc": "Votes: enter the change ...", never "delta: ..."."""
    from tests.web.test_prodigals_pages import Club, error_in

    client.post("/lang", data={"lang": lang, "next": "/"})
    club = Club(client, app).ordered()
    club.post({"type": "votes", "seat": "0", "delta": "abc"})
    shown = error_in(club.page(), "votes")
    assert shown.startswith(expected) and "delta" not in shown
