"""Issue 30 item 7: look-alike names are one name, a name of marks alone is none (UTS #39).

Seven pairs measured from outside passed as two people; they are one name at a table (by
letters: case folded around the skeleton; or by look: the skeleton as typed), while names
that differ in a letter or a Czech accent stay apart.
"""

import importlib.util
import unicodedata
from pathlib import Path

import pytest

from scoring import confusables, confusables_data, names, razzia
from scoring.errors import InvalidSetup, InvalidSheet
from scoring.league.roster import RosterError, check_person_name, spelling_index
from scoring.sheets import score_sheet

#: The seven pairs of issue 30 (the second of each typed with look-alike characters).
LOOK_ALIKES = [
    ("Ole", "\u041e\u04cf\u0435"),  # Cyrillic capital O, small palochka, small ie
    ("Ann", "\u13aann"),  # Cherokee letter go
    ("Ilse", "1lse"),  # digit one
    ("Oto", "0to"),  # digit zero
    ("Ann", "A\u0332nn"),  # combining low line
    ("Ivan", "\u0130van"),  # capital I with dot above
    ("Ann", "A\u0274\u0274"),  # small capital N
]
#: Names that differ in a letter or an accent: never one name.
DIFFERENT = [
    ("Ann", "Anna"),
    ("Jan", "Jana"),
    ("Eva", "Ewa"),
    ("Cyril", "Cýril"),
    ("Zdeněk", "Zdenek"),
    ("Lída", "Lida"),
    ("Jiří", "Jiri"),
    ("Tomáš", "Tomas"),
    ("Ivan", "Iván"),
    ("Lia", "Ila"),  # capital I looks like l, but capital L does not
    ("Iva", "Lva"),
    ("ilse", "1lse"),  # the dot of i shows
]
#: Names of combining marks alone (or with spaces): no letter for the marks to sit on.
MARKS_ONLY = ["\u0301", "\u0301\u0308", " \u0301 \u0301 ", "\u093e", "\u20dd"]


def new_table(players: list[str]) -> dict:
    """Razzia's first state with these players (InvalidSetup if refused)."""
    return razzia.new_table({"players": players})


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_the_seven_look_alikes_are_one_name_at_a_table(first, second):
    with pytest.raises(InvalidSetup) as caught:
        new_table([first, "Bob", second])
    message = str(caught.value)
    assert "Players 1 and 3 have the same name" in message, message
    assert f'"{first}"' in message and f'"{second}"' in message


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_the_seven_look_alikes_are_one_name_whichever_comes_first(first, second):
    assert names.same_name(first, second) and names.same_name(second, first)
    with pytest.raises(InvalidSetup, match="Players 1 and 2 have the same name"):
        new_table([second, first])


@pytest.mark.parametrize(("first", "second"), DIFFERENT)
def test_names_that_differ_in_a_letter_or_an_accent_stay_apart(first, second):
    assert not names.same_name(first, second)
    assert [player["name"] for player in new_table([first, second])["players"]] == [
        unicodedata.normalize("NFC", first),
        unicodedata.normalize("NFC", second),
    ]


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_the_seven_look_alikes_are_refused_on_a_score_sheet(first, second):
    sheet = {"game": "razzia", "round": 1, "players": [{"name": first}, {"name": second}]}
    with pytest.raises(InvalidSheet, match=r"^players\[1\]\.name: .* already the name of"):
        score_sheet(sheet)


@pytest.mark.parametrize("name", MARKS_ONLY)
def test_a_name_of_marks_alone_is_refused_with_its_first_mark(name):
    with pytest.raises(InvalidSetup) as caught:
        new_table(["Bob", name])
    message = str(caught.value)
    mark = next(char for char in name if not char.isspace())
    assert message.startswith("The name of player 2, ") and "has no letter" in message, message
    assert f"U+{ord(mark):04X}" in message


@pytest.mark.parametrize("name", MARKS_ONLY)
def test_a_sheet_name_of_marks_alone_is_refused_at_its_path(name):
    sheet = {"game": "razzia", "round": 1, "players": [{"name": "Ann"}, {"name": name}]}
    with pytest.raises(InvalidSheet, match=r"^players\[1\]\.name: the name .* has no letter"):
        score_sheet(sheet)


def test_a_person_named_with_marks_alone_is_refused():
    with pytest.raises(RosterError, match="has no letter, only marks such as U\\+0301"):
        check_person_name("\u0301\u0301")


def test_marks_on_letters_are_names():
    """The refusal is for marks with no letter, not for accents, Devanagari or Hebrew points."""
    for name in ("Ě", "e\u0301", "नमस्ते", "שָׁלוֹם", "A \u0301"):
        assert names.lone_mark(name) is None, name


# --- the two comparisons -------------------------------------------------------------------


def test_by_letters_case_folds_before_and_after_the_skeleton():
    key = names.same_name_key
    assert key("0to") == key("Oto") == key("OTO") == "oto"  # 0 -> O, folded to o
    assert key("\u13aann") == "ann"  # Cherokee capital folds to itself; its prototype is A
    assert key("A\u0274\u0274") == key("\u1d00NN") == "ann"  # small capitals count as capitals
    assert key("EMMA") == key("Emma") == "ernrna"  # m looks like rn, in capitals too
    assert key("\u0130VAN") == key("ivan")  # İ folds to i + dot above, which i shows anyway


def test_by_look_is_the_skeleton_as_typed():
    look = names.look_key
    assert look("Ilse") == look("1lse") == look("\u0399lse") == "llse"  # I, 1, Greek Iota
    assert look("ilse") == "ilse"  # case kept: i and l do not look alike
    assert look("\u041e\u04cf\u0435") == "Ole"


def test_the_roster_finds_a_spelling_by_letters_before_by_look():
    index = spelling_index([(1, ["ilse"]), (2, ["1lse"])])
    assert index.get("ILSE") == 1  # by letters
    assert index.get("Ilse") == 1  # by letters first, though it looks like 1lse
    assert index.get("Ulla") is None
    assert spelling_index([(2, ["1lse"])]).get("Ilse") == 2  # by look only


# --- the table and its generator -------------------------------------------------------------


def test_the_table_is_unicode_17():
    assert confusables_data.VERSION == "17.0.0"
    table = confusables.prototypes()
    assert len(table) == 6565
    assert table["\u04cf"] == "l"  # 13.0 to 16.0 mapped the small palochka to i
    assert confusables.small_capitals()[0x274] == "N"


def test_the_generator_writes_the_table_and_the_small_capitals(tmp_path, monkeypatch):
    source = tmp_path / "confusables.txt"
    source.write_text(
        "\ufeff# confusables.txt\n# Date: 2025-07-22, 05:49:37 GMT\n# © 2025 Unicode®, Inc.\n"
        "# Version: 17.0.0\n"
        "04CF ;\t006C ;\tMA\t# ( ӏ → l ) CYRILLIC SMALL LETTER PALOCHKA\n"
        "0310 ;\t0306 0307 ;\tMA\t# ( ̐ → ̆̇ ) COMBINING CANDRABINDU\n",
        encoding="utf-8",
    )
    script = Path(__file__).resolve().parents[2] / "scripts" / "make_confusables.py"
    spec = importlib.util.spec_from_file_location("make_confusables", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "TARGET", tmp_path / "data.py")
    assert module.main([str(source)]) == 0
    written: dict = {}
    exec((tmp_path / "data.py").read_text(encoding="utf-8"), written)
    assert written["VERSION"] == "17.0.0"
    assert written["TABLE"].splitlines() == ["04CF 006C", "0310 0306 0307"]
    assert "0274 004E" in written["SMALL_CAPITALS"].splitlines()
    assert written["SMALL_CAPITALS"] == confusables_data.SMALL_CAPITALS
    assert module.main([]) == 2
