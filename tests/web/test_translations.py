"""The committed catalogs: .mo files match their .po files, every page message has Czech."""

from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "companion_app" / "translations"
LOCALES = ("cs", "en")
#: Marker names used besides gettext's defaults (see babel.cfg).
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "_l": None}


def catalog_path(locale: str, suffix: str) -> Path:
    """The committed catalog file of a locale."""
    return TRANSLATIONS / locale / "LC_MESSAGES" / f"messages.{suffix}"


def _plain(value):
    """A msgid or msgstr as a hashable, comparable value (plurals become tuples)."""
    return tuple(value) if isinstance(value, list | tuple) else value


def as_dict(catalog) -> dict:
    """A catalog's translated messages, comparable across .po and .mo."""
    return {
        _plain(message.id): _plain(message.string)
        for message in catalog
        if message.id and any(_plain(message.string) or ())
    }


def page_messages() -> set:
    """Every msgid of the templates, the app and the rules (N_), extracted with babel.cfg."""
    with open(ROOT / "babel.cfg") as config:
        method_map, options_map = parse_mapping_cfg(config)
    found = extract_from_dir(str(ROOT), method_map, options_map, keywords=KEYWORDS)
    return {message for _file, _line, message, _comments, _context in found}


@pytest.mark.parametrize("locale", LOCALES)
def test_compiled_catalogs_are_up_to_date(locale, tmp_path):
    """Compiling the committed .po in a temp dir gives the committed .mo."""
    with open(catalog_path(locale, "po"), "rb") as po:
        catalog = read_po(po, locale=locale)
    fresh = tmp_path / "messages.mo"
    with open(fresh, "wb") as mo:
        write_mo(mo, catalog)
    with open(fresh, "rb") as new, open(catalog_path(locale, "mo"), "rb") as committed:
        assert as_dict(read_mo(committed)) == as_dict(read_mo(new)), (
            f"{locale}: run `pybabel compile -d companion_app/translations` (see babel.cfg)"
        )


def test_every_page_message_has_a_czech_translation():
    """Every message of the pages and of the rules is translated to Czech, none fuzzy."""
    with open(catalog_path("cs", "po"), "rb") as po:
        catalog = read_po(po, locale="cs")
    missing = []
    for msgid in page_messages():
        key = msgid[0] if isinstance(msgid, tuple) else msgid
        message = catalog.get(key)
        strings = (
            ()
            if message is None
            else (message.string if isinstance(message.string, tuple) else (message.string,))
        )
        if message is None or message.fuzzy or not strings or not all(strings):
            missing.append(msgid)
    assert not missing, f"untranslated in cs (update the catalog, see babel.cfg): {missing}"


def test_the_extraction_finds_the_page_messages():
    """The extraction above really reads the templates (a guard against an empty check)."""
    found = page_messages()
    assert "Draw the check sets by lot for us" in found
    assert "It is {expected}'s turn, not {got}'s." in found
    assert "police officer" in found


def test_mo_is_a_binary_catalog():
    """The committed .mo files are real compiled catalogs (not pointers or empty files)."""
    for locale in LOCALES:
        data = catalog_path(locale, "mo").read_bytes()
        assert read_mo(BytesIO(data)) is not None
    with open(catalog_path("cs", "mo"), "rb") as committed:
        assert as_dict(read_mo(committed))["car"] == "auto"
