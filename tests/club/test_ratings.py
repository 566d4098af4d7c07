"""Ratings (issue 26 item 4): openskill's Plackett-Luce over finished games in their end order.

Done means: "a test plays the same finished games in two orders of entry and checks the
ratings follow the games' end order; undoing an end removes its effect; the numbers match the
library's own API on a hand-made example". Ranks are the results' ranks (docs/game-contract.md:
1 + the players strictly better; ties share a rank, as in RULES.md §2 "still tied -> shared
win").
"""

import pytest
from openskill.models import PlackettLuce

from companion_app import create_app
from companion_app.club import ratings
from companion_app.store import db, get_store, roster
from scoring import games
from tests.club import ranked_game
from tests.club.conftest import Club

#: Three hand-made games: (names in seat order, ranks).
FIRST = (["Ann", "Bob", "Cid"], [1, 2, 3])
SECOND = (["Cid", "Bob", "Dee"], [1, 1, 3])  # Cid and Bob share the win
THIRD = (["Dee", "Ann", "Bob", "Cid"], [2, 4, 1, 3])


def openskill_ordinals(*played) -> dict[str, float]:
    """The library's own API, game by game in the order given: name -> ordinal."""
    model = PlackettLuce()
    found: dict[str, object] = {}
    for names, ranks in played:
        before = [[found.get(name) or model.rating()] for name in names]
        after = model.rate(before, ranks=list(ranks))
        for name, (rating,) in zip(names, after, strict=True):
            found[name] = rating
    return {name: rating.ordinal() for name, rating in found.items()}


def club_ordinals(app, game: str | None = None) -> dict[str, float]:
    """The companion's ratings by current name (overall, or in one game)."""
    with app.test_request_context():
        conn = db.get_db()
        found = {}
        for person in roster.everyone(conn):
            rating = ratings.rating_of(person.id, game)
            if rating is not None:
                found[person.name] = rating.ordinal
        return found


def assert_close(got: dict, expected: dict) -> None:
    assert got.keys() == expected.keys()
    for name, value in expected.items():
        assert got[name] == pytest.approx(value, abs=1e-9), name


def fresh_club(tmp_path, name: str) -> tuple:
    app = create_app({"TESTING": True, "SECRET_KEY": "t"}, instance_path=str(tmp_path / name))
    return app, Club(app)


def test_the_numbers_match_openskills_own_api_on_a_hand_made_example(app, club):
    club.play(*FIRST)
    model = PlackettLuce()
    fresh = [[model.rating()] for _ in FIRST[0]]
    by_library = dict(zip(FIRST[0], model.rate(fresh, ranks=FIRST[1]), strict=True))
    with app.test_request_context():
        conn = db.get_db()
        for name, (expected,) in by_library.items():
            got = ratings.rating_of(roster.find(conn, name))
            assert (got.mu, got.sigma, got.games) == (expected.mu, expected.sigma, 1)
            assert got.ordinal == pytest.approx(expected.ordinal(), abs=1e-12)
    club.play(*SECOND)
    club.play(*THIRD)
    assert_close(club_ordinals(app), openskill_ordinals(FIRST, SECOND, THIRD))


def test_ratings_follow_the_order_games_ended_not_the_order_they_were_entered(tmp_path, ranked):
    # Club A starts FIRST then SECOND and ends them in that order.
    app_a, club_a = fresh_club(tmp_path, "a")
    first = club_a.start(FIRST[0])
    second = club_a.start(SECOND[0])
    club_a.finish(first, FIRST[1])
    club_a.finish(second, SECOND[1])
    # Club B starts them the other way round but ends them in the same order.
    app_b, club_b = fresh_club(tmp_path, "b")
    second = club_b.start(SECOND[0])
    first = club_b.start(FIRST[0])
    club_b.finish(first, FIRST[1])
    club_b.finish(second, SECOND[1])
    # Club C starts them like A but SECOND ends first.
    app_c, club_c = fresh_club(tmp_path, "c")
    first = club_c.start(FIRST[0])
    second = club_c.start(SECOND[0])
    club_c.finish(second, SECOND[1])
    club_c.finish(first, FIRST[1])

    in_end_order = openskill_ordinals(FIRST, SECOND)
    assert_close(club_ordinals(app_a), in_end_order)
    assert_close(club_ordinals(app_b), in_end_order)
    assert_close(club_ordinals(app_c), openskill_ordinals(SECOND, FIRST))
    assert club_ordinals(app_c)["Bob"] != pytest.approx(in_end_order["Bob"])


def test_undoing_an_end_removes_its_effect_and_ending_again_counts_it_last(app, club):
    first = club.play(*FIRST)
    second = club.play(*SECOND)
    club.play(*THIRD)
    assert_close(club_ordinals(app), openskill_ordinals(FIRST, SECOND, THIRD))
    club.undo_end(second)
    assert_close(club_ordinals(app), openskill_ordinals(FIRST, THIRD))
    club.finish(second, SECOND[1])
    assert_close(club_ordinals(app), openskill_ordinals(FIRST, THIRD, SECOND))
    club.undo_end(first)
    assert_close(club_ordinals(app), openskill_ordinals(THIRD, SECOND))


def test_an_abandoned_table_never_counts(app, club):
    club.play(*FIRST)
    left = club.start(SECOND[0])
    with app.app_context():
        get_store().abandon(left)
    assert_close(club_ordinals(app), openskill_ordinals(FIRST))


def test_each_game_has_its_own_ratings_and_the_overall_counts_every_game(app, club, monkeypatch):
    monkeypatch.setitem(games._GAMES, "ranked_b", lambda: ranked_game.MODULE)
    club.play(*FIRST)
    with app.app_context():
        store = get_store()
        table = store.create_table("ranked_b", {"players": SECOND[0]})
        store.apply_move(table.id, {"type": "finish", "ranks": SECOND[1]}, table.version)
    club.play(*THIRD)
    assert_close(club_ordinals(app, "ranked"), openskill_ordinals(FIRST, THIRD))
    assert_close(club_ordinals(app, "ranked_b"), openskill_ordinals(SECOND))
    assert_close(club_ordinals(app), openskill_ordinals(FIRST, SECOND, THIRD))


def test_a_merge_rebuilds_the_ratings_as_one_person(app, club):
    club.play(*FIRST)
    club.play(["Cid", "Bobby", "Dee"], SECOND[1])
    with app.test_request_context():
        conn = db.get_db()
        bob, bobby = roster.find(conn, "Bob"), roster.find(conn, "Bobby")
        ratings.book()  # built before the merge
        with db.write_transaction(conn):
            roster.merge(conn, bob, bobby)
    assert_close(club_ordinals(app), openskill_ordinals(FIRST, SECOND))


def test_a_change_near_the_end_replays_from_the_last_checkpoint(monkeypatch):
    """The kept book goes back to its checkpoint before the change, with the same numbers as
    rating every game again (an undone end of a recent game replays few games)."""
    from companion_app.club.ratings import _updated
    from scoring.league import ratings as pure

    monkeypatch.setattr(pure, "CHECKPOINT_EVERY", 2)
    played = [FIRST, SECOND, THIRD, FIRST, SECOND, THIRD, FIRST]
    games = [
        pure.RatedGame(f"t{index}", "ranked", tuple(names), tuple(ranks))
        for index, (names, ranks) in enumerate(played)
    ]
    book = pure.rate_games(games)
    assert sorted(book.checkpoints) == [2, 4, 6]
    without_fifth = games[:4] + games[5:]
    rewound = book.rewound(4)
    assert [game.table_id for game in rewound.games] == ["t0", "t1", "t2", "t3"]
    updated = _updated(book, without_fifth)
    expected = pure.rate_games(without_fifth)
    for name in ("Ann", "Bob", "Cid", "Dee"):
        assert updated.rating(name) == expected.rating(name)
        assert updated.rating(name, "ranked") == expected.rating(name, "ranked")
    assert book.rating("Ann") == pure.rate_games(games).rating("Ann")  # the old book is intact
