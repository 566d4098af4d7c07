"""Errors raised by the pure rules, each carrying a sentence a player understands.

A rule error keeps its English template and parameters apart, so the web layer
can translate the template (marked with `N_` for extraction) and fill it in.
"""

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def N_(template: str) -> str:  # noqa: N802 - the conventional gettext marker name
    """Mark a message template for translation without translating it here."""
    return template


class RuleError(ValueError):
    """Base class: the input breaks a rule; the message says which and why."""

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params) if params else template)


def raise_all(refusals: list[RuleError]) -> None:
    """Raise the first refusal with the rest as its `others`, so a form shows them all at once."""
    if refusals:
        first = refusals[0]
        first.others = refusals[1:]
        raise first


def collect(refusals: list[RuleError], check: Callable[..., T], *args: object) -> T | None:
    """`check(*args)`, or None with its refusal (and that one's `others`) added to `refusals`.

    A form's independent parts are each checked this way, then `raise_all` names every one.
    """
    try:
        return check(*args)
    except RuleError as refused:
        refusals += [refused, *getattr(refused, "others", [])]
        return None


def collect_at(
    refusals: list[RuleError], field: str, check: Callable[..., T], *args: object
) -> T | None:
    """`collect`, each refusal marked as about the form field `field`."""
    found = len(refusals)
    result = collect(refusals, check, *args)
    for refused in refusals[found:]:
        at_field(refused, field)
    return result


def at_field(refused: RuleError, field: str) -> RuleError:
    """The refusal marked with the form field it is about (the page marks that field)."""
    refused.field = field
    return refused


class IllegalMove(RuleError):
    """A move that the rules do not allow in the current state."""


class InvalidSetup(RuleError):
    """A table setup (players, variant) that the game cannot start with."""


class InvalidSheet(RuleError):
    """A score sheet that is malformed or describes an impossible position."""
