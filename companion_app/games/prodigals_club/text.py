"""Klub ztroskotanců words on the tablet: the last move's notice and the history lines."""

from flask_babel import gettext

from companion_app.i18n import formats, pounds, signed


def notice_text(state: dict) -> str | None:
    """The last move's notice (votes capped, all cash spent ...) in the page's language."""
    notice = state.get("notice")
    if not notice:
        return None
    name = state["players"][notice["seat"]]["name"]
    kind = notice["kind"]
    if kind == "votes_capped":
        return gettext(
            "Votes capped at 44: %(name)s would have had %(wanted)s.",
            name=name,
            wanted=notice["wanted"],
        )
    if kind == "spent_all":
        return gettext(
            "%(name)s had only £%(spent)s of £%(asked)s, so spent all their cash.",
            name=name,
            spent=notice["spent"],
            asked=notice["asked"],
        )
    if kind == "exchange_excess":
        return gettext(
            "The exchange went past its limit: the bank paid %(name)s £%(paid)s.",
            name=name,
            paid=notice["paid"],
        )
    return gettext(
        "Society score limited to the chart: %(name)s has %(score)s, not %(wanted)s.",
        name=name,
        score=notice["score"],
        wanted=notice["wanted"],
    )


def _pounds(value: object) -> str:
    """An amount as the page prints pounds (−£2), or as sent when it is not a number."""
    return pounds(value) if isinstance(value, int) and not isinstance(value, bool) else str(value)


def tile_text(tile: dict) -> str:
    """A tile as the forms take it: value/district."""
    return f"{tile['value']}/{tile['district']}"


def _describe_property(move: dict, name: str) -> str:
    """A history line for a property entry."""
    action = move.get("action")
    if action == "add":
        tiles = ", ".join(tile_text(t) for t in move.get("tiles") or [] if isinstance(t, dict))
        return gettext("%(name)s took property tiles: %(tiles)s", name=name, tiles=tiles)
    if action == "sell":
        tile = move.get("tile")
        shown = tile_text(tile) if isinstance(tile, dict) else "?"
        return gettext("%(name)s sold tile %(tile)s", name=name, tile=shown)
    if action == "exchange":
        give, take = move.get("give"), move.get("take")
        return gettext(
            "%(name)s exchanged tile %(give)s for %(take)s",
            name=name,
            give=tile_text(give) if isinstance(give, dict) else "?",
            take=tile_text(take) if isinstance(take, dict) else "?",
        )
    if action == "spend":
        return gettext("%(name)s spent £%(amount)s", name=name, amount=move.get("amount"))
    if action == "receive":
        return gettext("%(name)s received £%(amount)s", name=name, amount=move.get("amount"))
    return gettext("%(name)s's cash set to %(cash)s", name=name, cash=_pounds(move.get("cash")))


def _describe_legacy(move: dict, name: str) -> str:
    """A history line for a Legacy entry."""
    action = move.get("action")
    if action == "spend":
        return gettext("%(name)s spent £%(amount)s (Legacy)", name=name, amount=move.get("amount"))
    if action == "receive":
        return gettext(
            "%(name)s received £%(amount)s (Legacy)", name=name, amount=move.get("amount")
        )
    if action == "set_cash":
        return gettext(
            "%(name)s's Legacy cash set to %(cash)s", name=name, cash=_pounds(move.get("cash"))
        )
    if action == "add" and move.get("label"):
        return gettext(
            "%(name)s got the Legacy property %(label)s worth £%(value)s",
            name=name,
            label=move["label"],
            value=move.get("value"),
        )
    if action == "add":
        return gettext(
            "%(name)s got a Legacy property worth £%(value)s", name=name, value=move.get("value")
        )
    if action == "value":
        return gettext(
            "%(name)s's Legacy property %(number)s is now worth £%(value)s",
            name=name,
            number=move.get("property"),
            value=move.get("value"),
        )
    return gettext(
        "%(name)s no longer owns Legacy property %(number)s",
        name=name,
        number=move.get("property"),
    )


def _describe_token(move: dict, name: str) -> str:
    """A society token moved one space on the chart."""
    token = move.get("token")
    number = token + 1 if isinstance(token, int) else token
    if move.get("direction") == "up":
        return gettext("%(name)s: society token %(number)s one space up", name=name, number=number)
    return gettext("%(name)s: society token %(number)s one space down", name=name, number=number)


def _society_value(value: object) -> str:
    """Society tokens or their sum as numbers are written (−2, never "-2" or "[-1, 2]")."""
    if isinstance(value, list):
        return ", ".join(_society_value(item) for item in value)
    return formats.whole(value) if isinstance(value, int) else str(value)


def describe(move: dict | None, names: list[str]) -> str:
    """A history line for a move, in the page's language."""
    move = move or {}
    seat = move.get("seat")
    name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    kind = move.get("type")
    if kind == "order":
        order = ", ".join(names[s] for s in move.get("order") or [] if 0 <= s < len(names))
        return gettext("Turn order: %(order)s", order=order)
    if kind == "property":
        return _describe_property(move, name)
    if kind == "legacy":
        return _describe_legacy(move, name)
    if kind == "votes":
        delta = move.get("delta")
        shown = signed(delta) if isinstance(delta, int) else str(delta)
        return gettext("%(name)s: votes %(delta)s", name=name, delta=shown)
    if kind == "society":
        value = _society_value(move.get("tokens") if "tokens" in move else move.get("sum"))
        return gettext("%(name)s: society %(value)s", name=name, value=value)
    if kind == "token":
        return _describe_token(move, name)
    if kind == "reserve":
        return gettext("%(name)s reserved place %(place)s", name=name, place=move.get("place"))
    if kind == "end_actions":
        return gettext("Actions over")
    if kind == "hyde_park":
        counts = ", ".join(
            f"{n}: {c}" for n, c in zip(names, move.get("megaphones") or [], strict=False)
        )
        return gettext("Hyde Park (megaphones %(counts)s)", counts=counts)
    if kind == "old_lady":
        exempt = ", ".join(names[s] for s in move.get("exempt") or [] if 0 <= s < len(names))
        return gettext("Old Lady done (exempt: %(names)s)", names=exempt or "–")
    if kind == "end_round":
        return gettext("Next round started")
    return str(kind)
