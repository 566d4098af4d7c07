"""History of finished games: filters, per-player statistics, CSV and the JSON export."""

import csv
import io
import json
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from companion_app.results import history
from companion_app.store.model import LogEntry

WHEN = datetime(2026, 11, 30, 19, 0, tzinfo=UTC)


def play(table_id, game, scores, highest_wins=True, title=None) -> dict:
    """A play with players named by `scores` ({name: score}), ranked by the winning rule."""
    values = list(scores.values())
    better = (lambda a, b: a > b) if highest_wins else (lambda a, b: a < b)
    ranks = [1 + sum(better(other, v) for other in values) for v in values]
    return {
        "id": table_id,
        "game": game,
        "title": title or game,
        "ended": WHEN,
        "highest_wins": highest_wins,
        "code": "ABCDE-FGHIJ",
        "players": [
            {"seat": seat, "name": name, "score": score, "rank": rank, "winner": rank == 1}
            for seat, ((name, score), rank) in enumerate(zip(scores.items(), ranks, strict=True))
        ],
    }


PLAYS = [
    play("t1", "razzia", {"Ann": 10, "Čeněk": 4}),
    play("t2", "razzia", {"ann": 2, "Čeněk": 8, "Bob": 8}),
    play("t3", "prodigals_club", {"Ann": 5, "Bob": 3}, highest_wins=False),
]


def stats_of(name: str, game: str) -> dict:
    """One row of the statistics."""
    (row,) = [
        r
        for r in history.player_stats(PLAYS)
        if r["name"].casefold() == name.casefold() and r["game"] == game
    ]
    return row


def test_filter_by_game_and_player():
    """Filters: by game, by player (any case), or both."""
    assert [p["id"] for p in history.filter_plays(PLAYS, game="razzia")] == ["t1", "t2"]
    assert [p["id"] for p in history.filter_plays(PLAYS, player="bob")] == ["t2", "t3"]
    assert [p["id"] for p in history.filter_plays(PLAYS, "razzia", " BOB ")] == ["t2"]
    assert history.filter_plays(PLAYS, player="Zed") == []
    assert len(history.filter_plays(PLAYS)) == 3


def test_stats_count_plays_wins_and_scores_per_game():
    """Ann: 2 Razzia! plays, 1 win, average 6, best 10 (names match case-insensitively)."""
    ann = stats_of("Ann", "razzia")
    assert (ann["plays"], ann["wins"], ann["win_rate"], ann["average"], ann["best"]) == (
        2,
        1,
        0.5,
        6,
        10,
    )


def test_shared_first_place_counts_as_a_win_for_both():
    """Čeněk and Bob tie on 8 in t2: both win."""
    assert stats_of("Čeněk", "razzia")["wins"] == 1
    assert stats_of("Bob", "razzia")["wins"] == 1


def test_best_score_is_the_lowest_where_lowest_wins():
    """Klub ztroskotanců: the lowest score is the best."""
    bob = stats_of("Bob", "prodigals_club")
    assert (bob["best"], bob["wins"]) == (3, 1)
    assert stats_of("Ann", "prodigals_club")["best"] == 5


def test_csv_has_a_line_per_player_and_keeps_diacritics():
    """CSV: header, one row per player per play, Czech names intact."""
    rows = list(csv.DictReader(io.StringIO(history.history_csv(PLAYS))))
    assert len(rows) == 7
    assert rows[1]["player"] == "Čeněk"
    assert rows[0] == {
        "table_id": "t1",
        "game": "razzia",
        "finished_at": "2026-11-30T19:00:00+00:00",
        "verification_code": "ABCDE-FGHIJ",
        "seat": "0",
        "player": "Ann",
        "score": "10",
        "rank": "1",
        "winner": "1",
        "tiebreak_by": "",
        "tiebreak_1": "",
        "tiebreak_2": "",
    }


@pytest.mark.parametrize("name", ["=HYPERLINK(1)", "+1", "-cmd", "@SUM(A1)"])
def test_csv_never_exports_a_formula(name):
    """A name a spreadsheet would run as a formula is exported as text."""
    rows = list(csv.DictReader(io.StringIO(history.history_csv([play("t", "razzia", {name: 1})]))))
    assert rows[0]["player"] == "'" + name


def test_game_export_holds_setup_log_results_and_code():
    """The JSON export: setup, every log entry (undone marked), results, code; serialisable."""
    table = SimpleNamespace(
        id="t1",
        game="razzia",
        setup={"players": ["Ann", "Čeněk"]},
        version=3,
        created_at=WHEN,
        updated_at=WHEN,
    )
    entries = [
        LogEntry(1, "move", {"type": "deal", "sets": ["A", "B"]}, False, None, WHEN),
        LogEntry(2, "move", {"type": "draw", "seat": 0, "card": "ring"}, True, None, WHEN),
        LogEntry(3, "undo", None, False, 2, WHEN),
    ]
    final = {"finished": True, "players": []}
    exported = history.game_export(table, entries, final, "ABCDE-FGHIJ")
    assert json.loads(json.dumps(exported)) == exported
    assert exported["setup"] == {"players": ["Ann", "Čeněk"]}
    assert [entry["undone"] for entry in exported["log"]] == [False, True, False]
    assert exported["log"][2]["undoes"] == 2
    assert exported["verification_code"] == "ABCDE-FGHIJ"
    assert exported["format"] == history.EXPORT_FORMAT


def test_stats_sort_names_as_people_read_them():
    """Čeněk sorts with C (before Dee), not after Z."""
    plays = [play("t", "razzia", {"Dee": 1, "Čeněk": 2, "Bob": 3, "Zed": 0})]
    assert [row["name"] for row in history.player_stats(plays)] == ["Bob", "Čeněk", "Dee", "Zed"]
