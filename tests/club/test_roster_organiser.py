"""The roster, run by the organiser (issue 32 item 2).

"Add people before the evening, remove a person who has no games (or hide one who has), a
merge that asks to confirm and can be undone, "Players" in the top menu; when a typed name
matches a known person up to accents, case or look-alike letters, that person's chip stays in
view and the seat says "new person" or the match before seating."
"""

import html
import re

import pytest

from companion_app import cli, create_app
from companion_app.store import db, roster
from scoring.league.roster import KNOWN, NEAR, NEW, match, near_key

OUTSIDE = {"REMOTE_ADDR": "192.168.1.50"}
CZECH = {"Accept-Language": "cs-CZ,cs;q=0.9"}


def people(app) -> dict[str, roster.Person]:
    """Current people by name."""
    with app.app_context():
        return {person.name: person for person in roster.everyone(db.get_db())}


def text(response) -> str:
    """A page's text with entities read back."""
    return html.unescape(response.get_data(as_text=True))


def chips(client) -> list[str]:
    """The names of the roster's chips on the new-table form."""
    page = client.get("/tables/new/razzia").get_data(as_text=True)
    return [
        html.unescape(name) for name in re.findall(r'class="roster-chip" data-name="([^"]*)"', page)
    ]


# -- the rule (scoring/league/roster.py) --------------------------------------------------------


ROSTER = [(1, ["Cýril"]), (2, ["Ann", "Anka"]), (3, ["Čeněk"]), (4, ["Ilse"])]


@pytest.mark.parametrize(
    ("typed", "kind", "person"),
    [
        ("Cýril", KNOWN, 1),
        ("cÝRIL", KNOWN, 1),  # capitals do not count
        ("Сýril", KNOWN, 1),  # a Cyrillic С looks like the Latin C
        ("anka", KNOWN, 2),  # another spelling of the same person
        ("1lse", KNOWN, 4),  # a digit one looks like a capital I
        ("Cyril", NEAR, 1),  # the accent is all that differs
        ("CYRIL", NEAR, 1),
        ("Cyríl", NEAR, 1),
        ("Ceněk", NEAR, 3),
        ("cenek", NEAR, 3),
        ("Ánn", NEAR, 2),
        ("Bob", NEW, None),
        ("Cyrill", NEW, None),
    ],
)
def test_match_says_known_near_or_new(typed, kind, person):
    found = match(typed, ROSTER)
    assert (found.kind, found.person) == (kind, person)


def test_near_key_drops_accents_capitals_and_look_alikes_only():
    assert near_key("Čeněk") == near_key("CENEK") == near_key("Ceněk")
    assert near_key("Cýril") == near_key("Сyril")
    assert near_key("Eva") != near_key("Eve")


def test_an_empty_roster_makes_everyone_new():
    assert match("Cyril", []).kind == NEW


# -- adding people before the evening ----------------------------------------------------------


def test_the_organiser_adds_people_who_then_show_as_chips(app, client):
    added = client.post("/people/add", data={"name": "  Hana "}, follow_redirects=True)
    assert added.status_code == 200
    assert "Hana joined the roster." in text(added)
    assert people(app)["Hana"].tables == 0
    assert "Hana" in chips(client)


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("hana", "hana is already in the roster as Hana."),
        ("Hana\u200b", "invisible character U+200B"),
        ("", "A person needs a name."),
        ("x" * 41, "longer than 40 characters"),
    ],
)
def test_adding_a_name_someone_has_or_a_bad_name_is_refused(app, client, name, reason):
    client.post("/people/add", data={"name": "Hana"})
    refused = client.post("/people/add", data={"name": name}, follow_redirects=True)
    assert reason in text(refused)
    assert list(people(app)) == ["Hana"]


def test_adding_a_near_duplicate_needs_the_new_person_tick_in_both_languages(app, client):
    client.post("/people/add", data={"name": "Cýril"})
    refused = client.post("/people/add", data={"name": "Cyril"}, follow_redirects=True)
    assert "Cyril looks like Cýril, who is in the roster; tick “new person”" in text(refused)
    czech = client.post("/people/add", data={"name": "Cyril"}, headers=CZECH, follow_redirects=True)
    assert "Cyril vypadá jako Cýril, kdo už je v seznamu hráčů" in text(czech)
    assert set(people(app)) == {"Cýril"}
    added = client.post("/people/add", data={"name": "Cyril", "new_person": "yes"})
    assert added.status_code == 303
    assert set(people(app)) == {"Cýril", "Cyril"}


# -- removing and hiding -----------------------------------------------------------------------


def test_a_person_without_games_is_removed(app, client):
    client.post("/people/add", data={"name": "Hana"})
    hana = people(app)["Hana"].id
    done = client.post(f"/people/{hana}/remove", follow_redirects=True)
    assert "Hana was removed from the roster." in text(done)
    assert people(app) == {}
    assert client.get(f"/people/{hana}").status_code == 404


def test_a_person_with_games_is_not_removed_but_can_be_hidden_and_shown(app, client, club):
    club.play(["Ann", "Bob"], [1, 2])
    ann = people(app)["Ann"].id
    refused = client.post(f"/people/{ann}/remove", follow_redirects=True)
    assert "Ann has played, so they stay with their history; hide them instead." in text(refused)
    assert "Ann" in people(app)
    hidden = client.post(f"/people/{ann}/hide", follow_redirects=True)
    assert "Ann is hidden from the seating chips." in text(hidden)
    assert f'data-person="{ann}" data-hidden' in hidden.get_data(as_text=True)
    assert chips(client) == ["Bob"]
    page = client.get(f"/people/{ann}").get_data(as_text=True)
    assert '<span class="big-number" data-stat="played">1</span>' in page  # history kept
    client.post(f"/people/{ann}/show")
    assert set(chips(client)) == {"Ann", "Bob"}


def test_a_hidden_person_seated_at_a_new_table_is_on_the_chips_again(app, client, club):
    """Issue 32 item 2: typed at a new table, a hidden person is found and plays again, so
    the seating chips show them again (hiding is for people who no longer come)."""
    club.play(["Ann", "Bob"], [1, 2])
    ann = people(app)["Ann"].id
    client.post(f"/people/{ann}/hide")
    assert chips(client) == ["Bob"]
    club.play(["ann", "Bob"], [1, 2])  # typed, a hidden person is still found
    assert people(app)["Ann"].tables == 2 and not people(app)["Ann"].hidden
    assert set(chips(client)) == {"Ann", "Bob"}


def test_adding_the_name_of_a_hidden_person_shows_them_again(app, client, club):
    club.play(["Ann", "Bob"], [1, 2])
    ann = people(app)["Ann"].id
    client.post(f"/people/{ann}/hide")
    again = client.post("/people/add", data={"name": "ann"}, follow_redirects=True)
    assert "Ann shows on the seating chips again." in text(again)
    assert people(app)["Ann"].id == ann and not people(app)["Ann"].hidden
    assert set(people(app)) == {"Ann", "Bob"}


def test_a_hidden_person_stays_hidden_through_the_export_file(app, client, club, tmp_path):
    club.play(["Ann", "Bob"], [1, 2])
    client.post(f"/people/{people(app)['Ann'].id}/hide")
    path = tmp_path / "club.json"
    assert cli.main(["export", "--instance", app.instance_path, str(path)]) == 0
    assert cli.main(["import", "--instance", str(tmp_path / "other"), str(path)]) == 0
    other = create_app({"TESTING": True, "SECRET_KEY": "t"}, instance_path=str(tmp_path / "other"))
    hidden = {name: person.hidden for name, person in people(other).items()}
    assert hidden == {"Ann": True, "Bob": False}


def test_a_person_something_was_merged_into_is_not_removed(app, client):
    client.post("/people/add", data={"name": "Hana"})
    client.post("/people/add", data={"name": "Hanka"})
    found = people(app)
    client.post(
        f"/people/{found['Hana'].id}/merge", data={"other": found["Hanka"].id, "confirm": "yes"}
    )
    refused = client.post(f"/people/{found['Hana'].id}/remove", follow_redirects=True)
    assert "Other entries were merged into Hana" in text(refused)
    assert set(people(app)) == {"Hana"}


# -- merge: confirm, then undo -----------------------------------------------------------------


def plays(client, name: str) -> str:
    """The played count of `name`'s row on the archive's statistics."""
    page = client.get("/history").get_data(as_text=True)
    row = re.search(
        rf'<tr data-player="{re.escape(name)}" data-game="ranked">(.*?)</tr>', page, re.S
    )
    return re.search(r'data-stat="plays">([^<]*)<', row.group(1)).group(1) if row else "0"


def test_a_merge_asks_first_saying_what_moves_and_nothing_changes_until_confirmed(
    app, client, club
):
    club.play(["Petr", "Eva"], [1, 2])
    club.play(["Ptr", "Eva"], [1, 2])
    petr, typo = people(app)["Petr"].id, people(app)["Ptr"].id
    asked = client.post(f"/people/{petr}/merge", data={"other": typo})
    assert asked.status_code == 200
    page = text(asked)
    assert "Merge Ptr into Petr?" in page
    assert "1 table of Ptr moves to Petr, with its placings, statistics and ratings." in page
    assert "You can undo the merge afterwards on the page of Petr." in page
    assert set(people(app)) == {"Petr", "Ptr", "Eva"}  # nothing moved yet
    czech = text(client.post(f"/people/{petr}/merge", data={"other": typo}, headers=CZECH))
    assert "Sloučit hráče Ptr do hráče Petr?" in czech
    assert "1 stůl hráče Ptr přejde k hráči Petr" in czech


def test_a_merge_is_undone_and_both_people_get_their_seats_and_placings_back(app, client, club):
    club.play(["Petr", "Eva"], [1, 2])
    typo_table = club.play(["Ptr", "Eva"], [2, 1])
    found = people(app)
    petr, typo = found["Petr"].id, found["Ptr"].id
    merged = client.post(
        f"/people/{petr}/merge", data={"other": typo, "confirm": "yes"}, follow_redirects=True
    )
    assert "Ptr was merged into Petr." in text(merged)
    assert plays(client, "Petr") == "2" and set(people(app)) == {"Petr", "Eva"}
    undo = re.search(r'action="(/people/merges/\d+/undo)"', merged.get_data(as_text=True)).group(1)
    done = client.post(undo, data={"person": petr}, follow_redirects=True)
    assert "The merge was undone: Ptr is a person of their own again." in text(done)
    after = people(app)
    assert after["Petr"].tables == 1 and after["Ptr"].tables == 1 and after["Ptr"].id == typo
    assert plays(client, "Petr") == "1" and plays(client, "Ptr") == "1"
    with app.app_context():
        assert [person.id for person in roster.seated(db.get_db(), typo_table)][0] == typo
        assert roster.find(db.get_db(), "ptr") == typo  # the spelling finds Ptr again
    page = client.get(f"/people/{typo}").get_data(as_text=True)
    assert '<span class="big-number" data-stat="won">0</span>' in page
    again = client.post(undo, data={"person": petr}, follow_redirects=True)
    assert "This merge was already undone." in text(again)


def test_undo_waits_for_a_later_merge_of_the_kept_person(app, client, club):
    club.play(["Petr", "Eva"], [1, 2])
    club.play(["Ptr", "Eva"], [1, 2])
    club.play(["Petr Novák", "Jan"], [1, 2])
    found = people(app)
    petr, typo, full = found["Petr"].id, found["Ptr"].id, found["Petr Novák"].id
    first = client.post(f"/people/{petr}/merge", data={"other": typo, "confirm": "yes"})
    assert first.status_code == 303
    page = client.get(f"/people/{petr}").get_data(as_text=True)
    undo = re.search(r'action="(/people/merges/\d+/undo)"', page).group(1)
    client.post(f"/people/{full}/merge", data={"other": petr, "confirm": "yes"})
    refused = client.post(undo, data={"person": full}, follow_redirects=True)
    assert "Petr was merged again since; undo that merge first." in text(refused)
    assert set(people(app)) == {"Petr Novák", "Eva", "Jan"}


def test_undo_is_refused_when_the_kept_person_took_the_merged_name(app, client, club):
    club.play(["Petr", "Eva"], [1, 2])
    club.play(["Ptr", "Eva"], [1, 2])
    found = people(app)
    petr, typo = found["Petr"].id, found["Ptr"].id
    client.post(f"/people/{petr}/merge", data={"other": typo, "confirm": "yes"})
    client.post(f"/people/{petr}/rename", data={"name": "PTR"})
    page = client.get(f"/people/{petr}").get_data(as_text=True)
    undo = re.search(r'action="(/people/merges/\d+/undo)"', page).group(1)
    refused = client.post(undo, data={"person": petr}, follow_redirects=True)
    assert "Ptr is now a spelling of PTR; rename PTR first, then undo the merge." in text(refused)
    assert set(people(app)) == {"PTR", "Eva"} and people(app)["PTR"].tables == 2


def test_two_people_who_played_together_are_refused_before_the_confirm_page(app, client, club):
    club.play(["Ann", "Bob"], [1, 2])
    found = people(app)
    refused = client.post(
        f"/people/{found['Ann'].id}/merge", data={"other": found["Bob"].id}, follow_redirects=True
    )
    assert "played at the same table" in text(refused)
    assert "Merge Bob into Ann?" not in text(refused)


# -- seating a near-duplicate ------------------------------------------------------------------


def test_the_form_refuses_a_near_duplicate_until_ticked_as_new(app, client, club):
    club.play(["Cýril", "Eva"], [1, 2])
    refused = client.post("/tables/new/razzia", data={"player": ["Cyril", "Eva", "Jan"]})
    assert refused.status_code == 400
    page = text(refused)
    assert "Cyril looks like Cýril, who is in the roster: seat Cýril by their name" in page
    assert 'data-testid="seat-match-0">matches: Cýril<' in page
    assert 'data-testid="seat-match-2">new person<' in page
    assert "Jan" not in people(app)  # nothing was created
    czech = text(
        client.post("/tables/new/razzia", data={"player": ["Cyril", "Eva", "Jan"]}, headers=CZECH)
    )
    assert "Cyril vypadá jako Cýril, kdo už je v seznamu hráčů" in czech
    assert 'data-testid="seat-match-0">shoda: Cýril<' in czech
    assert 'data-testid="seat-match-2">nový hráč<' in czech
    seated = client.post(
        "/tables/new/razzia", data={"player": ["Cyril", "Eva", "Jan"], "new_person": "0"}
    )
    assert seated.status_code == 303
    assert set(people(app)) == {"Cýril", "Cyril", "Eva", "Jan"}


def test_the_chip_of_a_near_duplicate_stays_on_the_form(app, client, club):
    club.play(["Cýril", "Eva"], [1, 2])
    page = client.post("/tables/new/razzia", data={"player": ["Cyril", "Eva", "Jan"]})
    assert 'data-name="Cýril"' in page.get_data(as_text=True)


def test_the_api_refuses_a_near_duplicate_unless_named_in_new_people(app, client, club):
    club.play(["Cýril", "Eva"], [1, 2])
    refused = client.post("/api/tables", json={"game": "ranked", "players": ["Cyril", "Eva"]})
    assert refused.status_code == 400
    assert "Cyril looks like Cýril, who is in the roster" in refused.get_json()["error"]
    assert set(people(app)) == {"Cýril", "Eva"}
    wrong = client.post(
        "/api/tables", json={"game": "ranked", "players": ["Cyril"], "new_people": "Cyril"}
    )
    assert wrong.status_code == 400 and "new_people must be a list" in wrong.get_json()["error"]
    created = client.post(
        "/api/tables",
        json={"game": "ranked", "players": ["Cyril", "Eva"], "new_people": ["Cyril"]},
    )
    assert created.status_code == 201, created.get_json()
    assert set(people(app)) == {"Cýril", "Cyril", "Eva"}


def test_the_match_answer_says_what_a_typed_name_is(client, club):
    club.play(["Cýril", "Eva"], [1, 2])
    assert client.get("/people/match?name=Cyril").get_json() == {"kind": "near", "name": "Cýril"}
    assert client.get("/people/match?name=eva").get_json() == {"kind": "known", "name": "Eva"}
    assert client.get("/people/match?name=Jan").get_json() == {"kind": "new", "name": ""}


# -- rights and the menu -----------------------------------------------------------------------


def test_only_the_organiser_adds_removes_hides_merges_or_undoes(app, club):
    club.play(["Ann", "Bob"], [1, 2])
    ann = people(app)["Ann"].id
    tablet = app.test_client()
    for url, form in (
        ("/people/add", {"name": "Hana"}),
        (f"/people/{ann}/remove", {}),
        (f"/people/{ann}/hide", {}),
        (f"/people/{ann}/show", {}),
        (f"/people/{ann}/merge", {"other": "2"}),
        ("/people/merges/1/undo", {}),
    ):
        refused = tablet.post(url, data=form, environ_base=OUTSIDE)
        assert refused.status_code == 403, url
    page = tablet.get("/people", environ_base=OUTSIDE).get_data(as_text=True)
    assert "add-person-form" not in page and "hide-" not in page
    assert set(people(app)) == {"Ann", "Bob"}


@pytest.mark.parametrize(("headers", "word"), [({}, "Players"), (CZECH, "Hráči")])
def test_players_is_in_the_top_menu(client, headers, word):
    page = client.get("/", headers=headers).get_data(as_text=True)
    assert f'<a href="/people" data-testid="people-link">{word}</a>' in page
