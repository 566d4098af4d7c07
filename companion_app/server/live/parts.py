"""A live page cut into parts, so a change sends only the parts that changed (issue 33.6).

The room display marks each tile, and its header, with `data-live-part="<id>"`. Its render
is cut into those parts and a layout: the page with each part replaced by a slot,
`<template data-live-slot="<id>">`. Against the last render of the same group, a change is
the parts whose HTML differs (a move: one tile, about 1-2 KB however many tables are in
play) and, only when tables come or go, the new layout (`static/live.js` puts the parts it
has into the slots). A part's element must not contain another element of its own tag.
"""

import re
from dataclasses import dataclass

_PART = re.compile(
    r'<(?P<tag>article|header|section)\b[^>]*\bdata-live-part="(?P<id>[^"]+)"[^>]*>.*?</(?P=tag)>',
    re.S,
)


@dataclass(frozen=True)
class Cut:
    """A page as parts by id (in page order) and the layout that places them."""

    parts: dict[str, str]
    layout: str


def cut(html: str) -> Cut:
    """`html` cut into its marked parts and the layout left around them."""
    parts: dict[str, str] = {}

    def slot(match: re.Match) -> str:
        """Keep the part; leave its slot."""
        parts[match.group("id")] = match.group(0)
        return f'<template data-live-slot="{match.group("id")}"></template>'

    return Cut(parts, _PART.sub(slot, html))


def changed(before: Cut, after: Cut) -> tuple[dict[str, str], str | None]:
    """(parts new or different since `before`, the layout if it changed, else None)."""
    parts = {key: html for key, html in after.parts.items() if before.parts.get(key) != html}
    return parts, (after.layout if after.layout != before.layout else None)
