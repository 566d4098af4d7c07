"""Languages: Flask-Babel wired with a session choice, then the browser's preference.

`labels` names the game's words in the page's language. May import `config` and `scoring`
only (docs/architecture.md).
"""

import functools
import re
from collections.abc import Callable
from datetime import time as dtime

from flask import Flask, current_app, request, session
from flask_babel import Babel, gettext
from jinja2 import pass_context

from companion_app.i18n import formats, labels
from companion_app.i18n.hyphens import soft_hyphens
from scoring.razzia import cards
from scoring.razzia.sheet import _plural as sheet_plural
from scoring.razzia.text import card_name

#: Session key holding the language the table picked with the CS | EN switch.
SESSION_KEY = "lang"


def get_locale() -> str:
    """The session's language if set, else the browser's best match, else the default."""
    languages = current_app.config["LANGUAGES"]
    chosen = session.get(SESSION_KEY)
    if chosen in languages:
        return chosen
    best = request.accept_languages.best_match(languages)
    return best or current_app.config["BABEL_DEFAULT_LOCALE"]


def set_language(lang: str) -> bool:
    """Remember `lang` for this browser; False if the app does not speak it."""
    if lang not in current_app.config["LANGUAGES"]:
        return False
    session[SESSION_KEY] = lang
    return True


#: How messages name card kinds, per parameter: English text -> the label in the page's
#: language. Rules say "horse racing" ({card}), score sheets "5 gold coins" ({cards}).
_CARD_NAMES = {
    "card": {card_name(kind): labels.KINDS[kind] for kind in cards.CARD_COUNTS},
    "cards": {sheet_plural(kind): labels.PLURAL_KINDS[kind] for kind in cards.CARD_COUNTS},
}


#: Parameters holding a time of day as the store writes it ("13:05"), shown as the page's
#: language writes times ("1:05 PM" in English).
_TIME_PARAMS = ("time",)
_CLOCK = re.compile(r"^\d{2}:\d{2}$")
#: Parameters holding one check value as the rules print it ("9,000").
_CHECK_PARAMS = ("check", "high")
_PRINTED_CHECK = re.compile(r"^\d{1,3}(?:,\d{3})*$")


def _param(key: str, value: object) -> object:
    """A message parameter in the page's language (card kinds and check values)."""
    if not isinstance(value, str):
        return value
    if key in _TIME_PARAMS and _CLOCK.match(value):
        return formats.time(dtime.fromisoformat(value))
    if key in _CHECK_PARAMS and _PRINTED_CHECK.match(value):
        return money(int(value.replace(",", "")))
    label = _CARD_NAMES.get(key, {}).get(value)
    return value if label is None else str(label)


def table_label(table) -> str | None:
    """A table's label as shown (issue 32 item 6): the host's words, else "Table <number>"."""
    if table.label:
        return table.label
    return None if table.number is None else gettext("Table %(number)s", number=table.number)


def translate_error(error: Exception) -> str:
    """A rule or store refusal in the page's language: its template translated, then filled."""
    template = getattr(error, "template", None)
    if template is None:
        return str(error)
    params = {key: _param(key, value) for key, value in getattr(error, "params", {}).items()}
    try:
        return gettext(template).format(**params) if params else gettext(template)
    except (KeyError, IndexError, ValueError):
        return str(error)


def translate_refusal(
    error: Exception, names: list[str] | None = None, fields: dict | None = None
) -> str:
    """`translate_error` with the field a path names put in words ("Ann, check 2: ...")."""
    from companion_app.i18n.fields import in_words  # fields reads labels of this package

    return in_words(translate_error(error), names, fields)


def money(value: int | None) -> str:
    """A check value with the locale's digit grouping (13,000 / 13 000; −2 with the minus sign)."""
    return formats.whole(value)


#: The minus sign a printed number shows (U+2212), not the narrower hyphen.
MINUS = formats.MINUS
signed = formats.signed
one_decimal = formats.one_decimal
percent = formats.percent


def pounds(value: int | None) -> str:
    """A Klub amount in pounds: £2, −£2 (the sign before the pound, never "£-2")."""
    if value is None:
        return ""
    return (MINUS if value < 0 else "") + "£" + formats.whole(abs(value))


def tile(text: object) -> str:
    """A tile's label with soft hyphens where the page's language may break its words."""
    return soft_hyphens(str(text), get_locale())


#: Whose syllables a player's name breaks by on a narrow tile: Czech in both page languages
#: (the tables are Czech; a name reads the same whatever the page's language).
NAME_LANGUAGE = "cs"


def name_tile(name: object) -> str:
    """A player's name with soft hyphens where it may break on a narrow tile or chip."""
    return soft_hyphens(str(name), NAME_LANGUAGE)


def per_page(language_filter: Callable) -> Callable:
    """A filter whose answer depends on the page's language, run at every render.

    Jinja runs a plain filter of a constant (`{{ 1000|money }}`) once, when it compiles the
    template, and keeps the text: the first page's language then stayed in every later page
    ("1,000" on Czech pages after an English one). A filter that takes the context never runs
    at compile time.
    """

    @pass_context
    @functools.wraps(language_filter)
    def run(_context, value, *args, **kwargs):
        return language_filter(value, *args, **kwargs)

    return run


def init_app(app: Flask) -> None:
    """Attach Flask-Babel and the Jinja helpers the templates use."""
    Babel(app, locale_selector=get_locale)
    app.jinja_env.filters["money"] = per_page(money)
    app.jinja_env.filters["signed"] = per_page(signed)
    app.jinja_env.filters["pounds"] = per_page(pounds)
    app.jinja_env.filters["one_decimal"] = per_page(one_decimal)
    app.jinja_env.filters["percent"] = per_page(percent)
    for name in ("number", "average", "rating", "rating_change", "date", "date_time", "day"):
        app.jinja_env.filters[name] = per_page(getattr(formats, name))
    app.jinja_env.filters["tile"] = per_page(tile)
    app.jinja_env.filters["name_tile"] = name_tile
    app.jinja_env.globals["current_locale"] = get_locale
    app.jinja_env.globals["languages"] = app.config["LANGUAGES"]
    app.jinja_env.globals["table_label"] = table_label
