"""What every game's form parsing shares: numbers, the version field, the general area."""

from werkzeug.datastructures import MultiDict

#: Refusals of moves no panel claims go to the top of the page.
GENERAL_AREA = "general"
#: A version no table has: a form without a readable version is refused as stale.
UNREADABLE_VERSION = -1


def whole_number(text: str | None) -> int | str | None:
    """An int if the text is one; otherwise the text itself, for the rules to refuse by name."""
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def parse_version(form: MultiDict) -> int:
    """The table version the form was rendered at."""
    version = whole_number(form.get("version"))
    return version if isinstance(version, int) else UNREADABLE_VERSION
