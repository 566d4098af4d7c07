"""Move forms on the table page: PRG, refusals next to their control, stale forms, undo."""

import re

from companion_app.store import get_store
from tests.results.qr_decode import decode_svg
from tests.web import game_script as g
from tests.web.test_pages import table_id, text


def state_of(app, url: str) -> dict:
    """The stored state of a table."""
    with app.app_context():
        return get_store().get(table_id(url)).state


def error_in(page: str, area: str) -> str:
    """The error message shown in an area of the page (empty if none)."""
    found = re.search(rf'data-error="{area}">(.*?)</p>', page, re.S)
    return found.group(1).strip() if found else ""


def test_deal_by_lot_records_the_drawn_sets(client, pages, app):
    """The server draws the sets; the page then names the starting player."""
    url = pages.create()
    response = pages.post(url, {"type": "deal"})
    assert response.status_code == 303 and response.headers["Location"] == url
    state = state_of(app, url)
    assert sorted(state["sets"]) == ["A", "B", "C", "D"] and state["phase"] == "turn"
    assert 'data-testid="turn"' in text(client.get(url))


def test_a_bad_hand_deal_is_refused_next_to_the_deal(client, pages, app):
    """Two seats with set A: the rule's sentence in the deal panel, nothing dealt."""
    url = pages.create()
    response = pages.post(url, {"type": "deal", "how": "by_hand", "sets": ["A", "A", "C", "D"]})
    assert response.headers["Location"] == f"{url}#deal"
    page = text(client.get(url))
    assert error_in(page, "deal") == "Deal each of the sets A, B, C, D to exactly one seat."
    assert state_of(app, url)["phase"] == "deal"
    assert error_in(text(client.get(url)), "deal") == "", "a flash is shown once"


def test_a_stale_form_is_refused_with_the_store_message(client, pages, app):
    """A form rendered at an older version changes nothing and says why."""
    url = pages.dealt()
    old = pages.version(url)
    pages.post(url, {"type": "draw", "seat": g.ANN, "card": "ring"})
    before = state_of(app, url)
    pages.post(url, {"type": "draw", "seat": g.BOB, "card": "car"}, version=old)
    assert state_of(app, url) == before
    assert error_in(text(client.get(url)), "draw") == (
        f"This table changed since you loaded it (version {old + 1}, you sent {old}); "
        "reload and try again."
    )


def test_a_form_without_a_version_is_refused_as_stale(client, pages, app):
    """A missing or garbled version never reaches the rules."""
    url = pages.dealt()
    before = state_of(app, url)
    client.post(f"{url}/moves", data={"type": "draw", "seat": 0, "card": "ring", "version": "x"})
    assert state_of(app, url) == before
    assert "you sent -1" in error_in(text(client.get(url)), "draw")


def test_a_rule_refusal_is_shown_at_its_control_in_czech(client, pages, app):
    """Bob drawing on Ann's turn: the translated sentence in the draw panel, nothing changes."""
    url = pages.dealt()
    before = state_of(app, url)
    client.post("/lang", data={"lang": "cs", "next": "/"})
    pages.post(url, {"type": "draw", "seat": g.BOB, "card": "ring"})
    assert state_of(app, url) == before
    assert error_in(text(client.get(url)), "draw") == "Na řadě je Ann, ne Bob."


def test_the_auction_offers_only_legal_checks_and_pass(client, pages):
    """After Dee bids 5,000, Ann (2, 6, 13) may bid 6,000 or 13,000, or pass."""
    url = pages.dealt()
    pages.play(url, g.ROUND_1[:4])
    page = text(client.get(url))
    assert re.findall(r'name="check" value="(\d+)"', page) == ["6000", "13000"]
    assert 'data-testid="pass"' in page
    assert "Highest bid: 5,000 by Dee" in page
    assert re.findall(r'class="bidder (\w+)"', page) == ["bid", "acting", "waiting", "waiting"]


def test_a_bidder_without_a_higher_check_is_offered_only_pass(client, pages):
    """After Ann bids 13,000, Bob (3, 7, 12) has no higher check: only Pass is offered."""
    url = pages.dealt()
    pages.play(url, [*g.ROUND_1[:3], (g.DEE, "bid", 10000), (g.ANN, "bid", 13000)])
    page = text(client.get(url))
    assert re.findall(r'name="check" value="(\d+)"', page) == []
    assert 'data-testid="no-bids"' in page and 'data-testid="pass"' in page


def test_a_refused_bid_is_shown_in_the_auction_panel(client, pages, app):
    """A bid below the high bid is refused where the bid buttons are."""
    url = pages.dealt()
    pages.play(url, g.ROUND_1[:4])
    before = state_of(app, url)
    pages.post(url, {"type": "bid", "seat": g.ANN, "check": 2000})
    assert state_of(app, url) == before
    assert error_in(text(client.get(url)), "auction") == (
        "A bid must beat the current 5,000 check; 2,000 is not higher."
    )


def test_forced_auction_caller_is_not_offered_pass_when_all_passed(client, pages):
    """Everyone passed Ann's forced auction: only her checks, no Pass button."""
    url = pages.dealt()
    pages.play(url, g.ROUND_1[:12])
    page = text(client.get(url))
    assert "Forced auction" in page
    assert 'data-testid="pass"' not in page and 'data-testid="must-bid"' in page
    assert re.findall(r'name="check" value="(\d+)"', page) == ["2000", "6000", "13000"]


def test_thieves_take_ticked_cards_from_the_row(client, pages, app):
    """Ann's thief takes the watch: the row loses it, her family gains it."""
    url = pages.dealt()
    pages.play(url, g.ROUND_1[:28])
    page = text(client.get(url))
    assert re.findall(r'name="take" value="(\w+)"', page) == ["car", "watch", "bodyguard"]
    pages.post(url, {"type": "thief", "seat": g.ANN, "take": ["watch"]})
    state = state_of(app, url)
    assert state["row"] == ["car", "bodyguard"] and state["players"][0]["family"] == {"watch": 1}


def test_too_many_thief_cards_are_refused_next_to_the_row(client, pages, app):
    """Two cards for one thief: the sentence next to the row, nothing moves."""
    url = pages.dealt()
    pages.play(url, g.ROUND_1[:28])
    before = state_of(app, url)
    pages.post(url, {"type": "thief", "seat": g.ANN, "take": ["car", "watch"]})
    assert state_of(app, url) == before
    assert "cannot take 2 cards" in error_in(text(client.get(url)), "thief")


def test_history_strikes_through_undone_moves_and_offers_undo(client, pages, app):
    """Undo the latest move from the history: it stays listed, struck through."""
    url = pages.dealt()
    pages.play(url, [(g.ANN, "draw", "ring"), (g.BOB, "draw", "car")])
    page = text(client.get(f"{url}/history"))
    assert "Latest move (step 3): Bob turned up: car" in page
    assert 'class="move latest" data-seq="3"' in page
    version = pages.version(f"{url}/history")
    response = client.post(f"{url}/undo", data={"version": version})
    assert response.headers["Location"] == f"{url}/history"
    page = text(client.get(f"{url}/history"))
    struck = r'<li class="move undone" data-seq="3">.*?<del class="text">Bob turned up: car'
    assert re.search(struck, page, re.S)
    assert "Undo of step 3" in page
    assert "Latest move (step 2): Ann turned up: ring" in page
    assert state_of(app, url)["row"] == ["ring"]


def test_a_stale_undo_is_refused_on_the_history_page(client, pages, app):
    """An Undo from an old page changes nothing and says why."""
    url = pages.dealt()
    old = pages.version(url)
    pages.post(url, {"type": "draw", "seat": g.ANN, "card": "ring"})
    client.post(f"{url}/undo", data={"version": old})
    assert state_of(app, url)["row"] == ["ring"]
    assert "reload and try again" in error_in(text(client.get(f"{url}/history")), "undo")


def test_nothing_to_undo_is_said_plainly(client, pages):
    """Undo on a fresh table explains itself."""
    url = pages.create()
    client.post(f"{url}/undo", data={"version": 0})
    assert error_in(text(client.get(f"{url}/history")), "undo") == "Nothing to undo."


def play_whole_game(pages, url: str) -> list[str]:
    """The scripted game through form posts; the round-end pages along the way."""
    screens = []
    for number, (steps, _scores, _totals) in enumerate(g.ROUNDS):
        pages.play(url, steps)
        screens.append(text(pages.client.get(url)))
        if number < len(g.ROUNDS) - 1:
            pages.post(url, {"type": "next_round"})
    return screens


def breakdown(page: str, seat: int) -> dict:
    """One player's column of the round-end breakdown."""
    cells = re.findall(rf'data-seat="{seat}" data-cat="(\w+)">(-?\d+)<', page)
    return {category: int(value) for category, value in cells}


def test_round_end_screens_show_the_breakdown_and_totals(pages):
    """Each round-end screen shows every category, the round total and the cumulative total."""
    url = pages.dealt()
    for page, (_steps, scores, totals) in zip(play_whole_game(pages, url), g.ROUNDS, strict=True):
        for seat in range(4):
            assert breakdown(page, seat) == {**scores[seat], "cumulative": totals[seat]}
    assert "Raid! The police row is full." in page


def test_final_screen_ranks_players_and_links_the_results_by_qr(client, pages):
    """After round 3: the ranking, the winner and an inline QR code of the results URL."""
    url = pages.dealt()
    final = play_whole_game(pages, url)[-1]
    ranking = re.findall(r'data-seat="(\d)" data-rank="(\d)" data-total="(-?\d+)"', final)
    assert [(int(s), int(r), int(t)) for s, r, t in ranking] == [
        (seat, g.FINAL_RANKS[seat], g.FINAL_TOTALS[seat]) for seat in range(4)
    ]
    assert "Winner: Ann" in final and 'data-testid="next-round"' not in final
    svg = re.search(r'data-testid="qr">\s*(<svg.*?</svg>)', final, re.S).group(1)
    assert "http" not in svg.split("xmlns")[0], "no external image service"
    assert decode_svg(svg) == f"http://localhost{url}/results"
    results = text(client.get(f"{url}/results"))
    assert "Winner: Ann" in results and results.count('class="breakdown"') == 3


def test_a_refusal_whose_panel_is_gone_is_shown_at_the_top(client, pages, app):
    """A bid sent after the round ended (an old page) is refused at the top of the page."""
    url = pages.dealt()
    pages.play(url, g.ROUND_1)
    pages.post(url, {"type": "bid", "seat": g.BOB, "check": 3000})
    assert error_in(text(client.get(url)), "general") == "There is no auction running."
    assert state_of(app, url)["phase"] == "round_end"


def test_a_player_with_no_face_up_checks_is_shown_sitting_out(client):
    """RULES.md §1: a player with no face-up checks sits out; the table view says so."""
    created = client.post("/api/tables", json={"game": "razzia", "players": ["Ann", "Bob"]})
    table = created.get_json()
    version = table["version"]

    def move(**fields):
        nonlocal version
        answer = client.post(
            f"/api/tables/{table['id']}/moves", json={"version": version, "move": fields}
        )
        assert answer.status_code == 200, answer.get_json()
        version = answer.get_json()["version"]

    move(type="deal", sets=["A", "B"])  # Ann 2,5,6,9 starts; Bob 3,4,7,8
    for check in (2000, 5000, 6000, 9000):  # Ann wins her own forced auctions
        move(type="forced_auction", seat=0)
        move(type="pass", seat=1)
        move(type="bid", seat=0, check=check)
        if check != 9000:
            move(type="draw", seat=1, card="car")
    page = client.get(f"/tables/{table['id']}").get_data(as_text=True)
    assert page.count("all checks used") == 1
