"""Player names (scoring/names.py): one rule for every game's setup and every score sheet."""

import unicodedata

import pytest

from scoring import for_sale, names, razzia
from scoring import prodigals_club as club
from scoring.errors import IllegalMove, InvalidSetup, InvalidSheet
from scoring.sheets import score_sheet
from tests.scoring.prodigals_play import setup as club_setup
from tests.scoring.prodigals_play import started as club_started

#: A minimal valid setup of each game, given its player names.
SETUPS = {
    "razzia": (razzia, lambda players: {"players": players}),
    "for_sale": (for_sale, lambda players: {"players": players}),
    "prodigals_club": (club, lambda players: club_setup(players)),
}
OTHERS = ["Bob", "Cid"]

CONTROL = ["\x00", "\x07", "\t", "\n", "\x1b", "\x7f", "\x85", "\u2028", "\u2029"]
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e"]
BIDI = [
    *(chr(code) for code in range(0x202A, 0x202F)),
    *(chr(code) for code in range(0x2066, 0x206A)),
    "\u200e",
    "\u200f",
    "\u061c",
]
PRIVATE = ["\ue000", "\U000f0000", "\U0010fffd", "\ufdd0", "\ufffe", "\uffff", "\U0001ffff"]
FILLERS = ["\u3164", "\uffa0", "\u115f", "\u034f"]


def new_table(game: str, players: list[str]) -> dict:
    """The first state of `game` with these players (InvalidSetup if refused)."""
    rules, make = SETUPS[game]
    return rules.new_table(make(players))


def refused(game: str, players: list[str], fragment: str) -> str:
    """The setup is refused with a message containing `fragment`; the message."""
    with pytest.raises(InvalidSetup) as caught:
        new_table(game, players)
    assert fragment in str(caught.value), str(caught.value)
    return str(caught.value)


# --- what is kept: whitespace stripped, NFC, real names of every script --------------------


@pytest.mark.parametrize("game", SETUPS)
def test_names_are_stripped_and_stored_in_nfc(game):
    state = new_table(game, ["  Zoe\u0308 ", "Jir\u030ci\u0301", "Cid"])
    assert [player["name"] for player in state["players"]] == ["Zoë", "Jiří", "Cid"]
    assert all(unicodedata.is_normalized("NFC", p["name"]) for p in state["players"])


@pytest.mark.parametrize(
    "name",
    [
        "Čeněk Šťastný",
        "O'Brien-Smith",
        "李雷",
        "Ωμέγα",
        "عائشة",
        "❤\ufe0f Ann",
        "Dee 🎲",
        "Anna Marie",
    ],
)
def test_names_in_any_script_with_emoji_are_accepted(name):
    state = new_table("razzia", [name, "Bob"])
    assert state["players"][0]["name"] == name


def test_a_name_of_forty_characters_after_nfc_is_accepted_and_forty_one_refused():
    decomposed = "e\u0301" * names.MAX_NAME_LENGTH  # 80 code points, 40 after NFC
    assert new_table("razzia", [decomposed, "Bob"])["players"][0]["name"] == "é" * 40
    refused("razzia", ["x" * 41, "Bob"], "longer than 40 characters")


# --- refused characters ----------------------------------------------------------------------


@pytest.mark.parametrize("game", SETUPS)
def test_name_with_lone_surrogate_is_refused(game):
    message = refused(game, ["Ann", "B\ud800b", "Cid"], "half of a character")
    assert "player 2" in message and "U+D800" in message
    message.encode("utf-8")  # the refusal itself can be shown on any page


@pytest.mark.parametrize("char", CONTROL)
def test_name_with_control_character_is_refused(char):
    message = refused("razzia", ["Ann", f"B{char}b"], "control character")
    assert f"U+{ord(char):04X}" in message and "player 2" in message


@pytest.mark.parametrize("char", ZERO_WIDTH)
def test_name_with_zero_width_character_is_refused(char):
    message = refused("for_sale", ["Ann", "Bob", f"C{char}id"], "invisible character")
    assert f"[U+{ord(char):04X}]" in message and "player 3" in message


@pytest.mark.parametrize("char", BIDI)
def test_name_with_bidi_override_is_refused(char):
    message = refused("prodigals_club", [f"{char}Ann", "Bob"], "invisible character")
    assert f"U+{ord(char):04X}" in message


def test_refusal_names_the_character_and_shows_where_it_hides():
    message = refused("razzia", ["Ann", "evil\u202egnp.exe"], "RIGHT-TO-LEFT OVERRIDE")
    assert '"evil[U+202E]gnp.exe"' in message


@pytest.mark.parametrize("char", PRIVATE)
def test_name_with_private_use_character_or_noncharacter_is_refused(char):
    refused("razzia", [f"Ann{char}", "Bob"], "private-use character")


@pytest.mark.parametrize("char", FILLERS)
def test_name_with_invisible_filler_letter_is_refused(char):
    refused("razzia", [f"Ann{char}", "Bob"], "invisible character")


def test_unassigned_code_points_are_accepted_as_future_emoji():
    # Python's Unicode tables lag behind phone keyboards; U+1FAEF is unassigned in 14.0.
    assert new_table("razzia", ["\U0001faef", "Bob"])["players"][0]["name"] == "\U0001faef"


def test_a_name_of_only_spaces_or_variation_selectors_needs_a_name():
    refused("razzia", ["   ", "Bob"], "needs a name")
    refused("razzia", ["\ufe0f", "Bob"], "needs a name")


# --- the same name ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ann", "ann"),
        ("Zoë", "Zoe\u0308"),  # precomposed and decomposed
        ("ǅ", "Dž"),  # NFKC
        ("Ann", "Ａｎｎ"),  # fullwidth
        ("Ann Lee", "Ann  Lee"),
        ("Ann Lee", "Ann\u00a0Lee"),
        ("❤ Ann", "❤\ufe0f Ann"),  # variation selector
        ("STRASSE", "straße"),
        # Look-alikes of other scripts (issue 24; UTS #39 confusable skeleton):
        ("Ann", "\u0410nn"),  # Cyrillic capital A
        ("Ann", "\u0391nn"),  # Greek capital alpha
        ("Anna", "\u0430nn\u0430"),  # Cyrillic small a
        ("Pavel", "\u0420\u0430vel"),  # Cyrillic Er and a
        ("Jim", "Jirn"),  # rn looks like m
        # Blanks that are not whitespace count as spaces (issue 24):
        ("Ann", "Ann\u2800"),  # braille blank after the name
        ("Ann Lee", "Ann\u2800Lee"),
    ],
)
@pytest.mark.parametrize("game", SETUPS)
def test_names_that_look_the_same_are_the_same_name(game, first, second):
    message = refused(game, [first, "Bob", second], "same name")
    assert "Players 1 and 3" in message


def test_names_that_differ_visibly_are_different():
    state = new_table("razzia", ["Zoë", "Zoe", "Ann", "Anne", "Ann Lee"])
    assert len(state["players"]) == 5


def test_czech_accents_keep_names_apart_under_the_skeleton():
    """The look-alike rule folds other scripts' letters, never a Czech accent away."""
    state = new_table("razzia", ["Zdeněk", "Zdenek", "Lída", "Lida", "Čeněk"])
    assert len(state["players"]) == 5


def test_a_name_of_only_blanks_needs_a_name():
    """Issue 24: the braille blank U+2800 alone (or with spaces) is no name."""
    refused("razzia", ["\u2800", "Bob"], "needs a name")
    refused("razzia", [" \u2800\u2800 ", "Bob"], "needs a name")


def test_blanks_around_a_name_are_dropped():
    """A braille blank typed after a name is stripped like a space."""
    state = new_table("razzia", ["Ann\u2800", "\u2800Bob "])
    assert [player["name"] for player in state["players"]] == ["Ann", "Bob"]


def test_a_letter_with_stacked_accents_is_refused_with_the_count():
    """Issue 24: a letter with 39 stacked accents is refused; the message names the count."""
    message = refused("razzia", ["Bob", "A" + "\u0301" * 39], "stacks 39 accents")
    assert "player 2" in message and "at most 4" in message


@pytest.mark.parametrize("name", ["Việt", "Nguyễn Thị Ánh", "שָׁלוֹם", "བསྒྲུབས", "Z" + "\u0301" * 4])
def test_real_names_with_several_marks_on_a_letter_are_accepted(name):
    """Vietnamese, pointed Hebrew and Tibetan stack up to 4 marks; they are names."""
    assert new_table("razzia", [name, "Bob"])["players"][0]["name"] == unicodedata.normalize(
        "NFC", name
    )


def test_the_skeleton_is_the_standards():
    """UTS #39: skeleton = NFD, prototypes from confusables.txt, NFD again."""
    from scoring.confusables import skeleton

    assert skeleton("\u0410nn") == skeleton("\u0391nn") == "Ann"
    assert skeleton("paypal") == skeleton("\u0440\u0430ypal")
    assert skeleton("m") == "rn"
    assert skeleton("ě") == unicodedata.normalize("NFD", "ĕ")  # caron looks like breve


# --- the rule's parts ------------------------------------------------------------------------


def test_same_name_key_folds_case_width_normalisation_variation_selectors_and_spaces():
    key = names.same_name_key
    assert key("Zoe\u0308") == key("ZOË") == key("ｚｏë")
    assert key(" a \u00a0 b ") == "a b"
    assert key("\ufe0f") == ""


def test_shown_text_is_encodable_quoted_and_short():
    shown = names.shown("\ud800" + "x" * 60)
    shown.encode("utf-8")
    assert shown.startswith('"[U+D800]') and shown.endswith('..."')


# --- the calculators use the same rule -------------------------------------------------------

RAZZIA_SHEET = {"game": "razzia", "round": 1, "players": [{"name": "Ann"}, {"name": "Bob"}]}
FOR_SALE_SHEET = {"game": "for_sale", "players": [{"name": n} for n in ("Ann", "Bob", "Cid")]}
FINAL_SHEET = {
    "game": "prodigals_club",
    "kind": "final",
    "competitions": ["election", "society"],
    "players": [{"name": n, "election": 3, "society": 4} for n in ("Ann", "Bob")],
}
HYDE_PARK_SHEET = {
    "game": "prodigals_club",
    "kind": "hyde_park",
    "losses": [3, 2, 1],
    "megaphones": {"Ann": 1, "Bob": 2},
}
HANDICAP_SHEET = {
    "game": "prodigals_club",
    "kind": "handicaps",
    "competitions": ["election", "society"],
    "order": ["Ann", "Bob"],
}


def renamed(sheet: dict, first: str, second: str = "Bob") -> dict:
    """The sheet with its first two player names replaced."""
    sheet = {**sheet}
    if "megaphones" in sheet:
        sheet["megaphones"] = {first: 1, second: 2}
    elif "order" in sheet:
        sheet["order"] = [first, second]
    else:
        players = [dict(player) for player in sheet["players"]]
        players[0]["name"], players[1]["name"] = first, second
        sheet["players"] = players
    return sheet


def sheet_names_out(result: dict) -> list[str]:
    """The player names a calculator's result gives."""
    for key in ("players",):
        if key in result:
            return [player["name"] for player in result[key]]
    return list(result.get("votes") or result["handicaps"])


SHEETS = {
    "razzia": (RAZZIA_SHEET, "players[0].name"),
    "for_sale": (FOR_SALE_SHEET, "players[0].name"),
    "final": (FINAL_SHEET, "players[0].name"),
    "hyde_park": (HYDE_PARK_SHEET, "megaphones"),
    "handicaps": (HANDICAP_SHEET, "order[0]"),
}


@pytest.mark.parametrize("kind", SHEETS)
@pytest.mark.parametrize(
    ("bad", "fragment"),
    [
        ("A\ud800", "half of a character"),
        ("A\x1bB", "control character"),
        ("A\u202eB", "invisible character"),
        ("A\u200bB", "invisible character"),
        ("A\ue000", "private-use"),
        ("x" * 41, "longer than 40"),
        ("\u3000", "non-empty"),
    ],
)
def test_sheet_name_with_refused_character_is_refused_at_its_path(kind, bad, fragment):
    sheet, path = SHEETS[kind]
    with pytest.raises(InvalidSheet) as caught:
        score_sheet(renamed(sheet, bad))
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and fragment in message, message
    message.encode("utf-8")


@pytest.mark.parametrize("kind", SHEETS)
def test_sheet_names_that_look_the_same_are_refused(kind):
    sheet, _path = SHEETS[kind]
    with pytest.raises(InvalidSheet, match="same name"):
        score_sheet(renamed(sheet, "Zoë", "ZOE\u0308"))


@pytest.mark.parametrize("kind", SHEETS)
def test_sheet_names_come_out_stripped_and_in_nfc(kind):
    sheet, _path = SHEETS[kind]
    assert sheet_names_out(score_sheet(renamed(sheet, " Zoe\u0308 ")))[:2] == ["Zoë", "Bob"]


# --- other free text: a Legacy property's label --------------------------------------------


def test_legacy_label_with_bidi_override_is_refused():
    state = club_started(competitions=["legacy", "election"])
    move = {"type": "legacy", "seat": 0, "action": "add", "label": "Mlýn\u202e", "value": 5}
    with pytest.raises(IllegalMove, match="label: the label .*U\\+202E"):
        club.apply(state, move)


def test_legacy_label_is_stored_in_nfc():
    state = club_started(competitions=["legacy", "election"])
    move = {"type": "legacy", "seat": 0, "action": "add", "label": " Mly\u0301n ", "value": 5}
    after = club.apply(state, move)
    assert after["players"][0]["legacy"]["properties"][0]["label"] == "Mlýn"


@pytest.mark.parametrize("kind", SHEETS)
def test_sheet_look_alikes_blanks_and_stacked_accents_are_refused(kind):
    """The calculators use the same rule: Cyrillic look-alike, blank-only, stacked accents."""
    sheet, path = SHEETS[kind]
    with pytest.raises(InvalidSheet, match="same name"):
        score_sheet(renamed(sheet, "Bob", "B\u043eb"))  # Cyrillic o
    with pytest.raises(InvalidSheet, match="non-empty"):
        score_sheet(renamed(sheet, "\u2800"))
    with pytest.raises(InvalidSheet) as caught:
        score_sheet(renamed(sheet, "e" + "\u0300" * 12))
    assert str(caught.value).startswith(f"{path}: ") and "stacks 12 accents" in str(caught.value)
