"""Klub ztroskotanců's headline and row notes tell the table as it is (issue 32 item 7).

Was: at game over the headline still said "District marker: 2", and a row note kept
"Election 31 → 32" after Hyde Park had set the votes to 29.
"""

import re

from tests.web.test_prodigals_pages import Club


def note_of(page: str, seat: int) -> str:
    """A player's row note (their recent score changes), whitespace folded."""
    found = re.search(rf'data-testid="changes-{seat}">(.*?)</td>', page, re.S)
    assert found, f"no row note for seat {seat}"
    return " ".join(found.group(1).split())


def test_a_row_note_ends_at_the_votes_hyde_park_left(client, app):
    table = Club(client, app).ordered()
    table.post({"type": "votes", "seat": "0", "delta": "2"})
    before_hyde_park = table.state()["players"][0]["votes"]
    assert note_of(table.page(), 0).endswith(f"→ {before_hyde_park}")
    table.post({"type": "end_actions"})
    table.post({"type": "hyde_park", "megaphones": ["3", "2", "1"]})  # Ann first: loses votes
    after = table.state()["players"][0]["votes"]
    assert after < before_hyde_park
    note = note_of(table.page(), 0)
    assert note.endswith(f"Election {before_hyde_park} → {after}"), note


def test_at_game_over_the_headline_names_the_winner_not_the_district_marker(client, app):
    table = Club(client, app).ordered()
    table.post({"type": "property", "action": "set_cash", "seat": "2", "cash": "0"})
    table.post({"type": "end_actions"})
    table.post({"type": "hyde_park", "megaphones": ["1", "1", "1"]})
    table.post({"type": "old_lady", "exempt": []})
    state = table.state()
    assert state["phase"] == "game_over", state["phase"]
    page = table.page()
    assert 'data-testid="district"' not in page and "District marker" not in page
    headline = re.search(r'data-testid="game-over">([^<]*)<', page).group(1)
    assert headline.startswith("Game over · Winner")
    czech = client.get(table.url, headers={"Accept-Language": "cs"}).get_data(as_text=True)
    assert "Konec hry · " in czech and "Ukazatel čtvrtě" not in czech
