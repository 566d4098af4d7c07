"""Adel Verpflichtet's three calculators: auction, castle and final (SCORESHEETS.md)."""

from scoring.adel_verpflichtet import cards, castle, ending, places
from scoring.common import only_known_fields
from scoring.errors import N_, InvalidSheet

KEYS = {
    "auction": ("game", "kind", "checks", "thieves"),
    "castle": (
        "game",
        "kind",
        "players",
        "positions",
        "fraction",
        "exhibitions",
        "thieves",
        "detectives",
        "jail",
    ),
    "final": ("game", "kind", "positions", "hands"),
}
SHEET_UNKNOWN = N_("{field}: unknown key; this sheet takes: {known}.")


def score_sheet(sheet: dict) -> dict:
    """Run the calculator named by the sheet's `kind`."""
    kind = sheet.get("kind")
    if kind not in KEYS:
        raise InvalidSheet(N_("kind: must be auction, castle or final."))
    only_known_fields(sheet, KEYS[kind], InvalidSheet, SHEET_UNKNOWN)
    return {"auction": _auction, "castle": _castle, "final": _final}[kind](sheet)


def _name(value: object, field: str, known: list[str] | None = None) -> str:
    """A player's name on the sheet (one of `known` when given)."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidSheet(N_("{field}: must be a player's name."), field=field)
    if known is not None and value not in known:
        raise InvalidSheet(
            N_("{field}: {name} is not one of the players ({known})."),
            field=field,
            name=value[:40],
            known=", ".join(known),
        )
    return value


def _number(value: object, field: str, low: int = 0) -> int:
    """A whole number of at least `low`."""
    if type(value) is not int or value < low:
        raise InvalidSheet(
            N_("{field}: must be a whole number of {low} or more."), field=field, low=low
        )
    return value


def _mapping(value: object, field: str) -> dict:
    """An object keyed by player names."""
    if not isinstance(value, dict):
        raise InvalidSheet(N_("{field}: must be an object keyed by player names."), field=field)
    return value


def _names(value: object, field: str, known: list[str] | None = None) -> list[str]:
    """A list of distinct player names."""
    if not isinstance(value, list):
        raise InvalidSheet(N_("{field}: must be a list of player names."), field=field)
    found = [_name(item, f"{field}[{index}]", known) for index, item in enumerate(value)]
    if len(set(found)) != len(found):
        raise InvalidSheet(N_("{field}: a player is listed twice."), field=field)
    return found


def _distinct(values: dict, field: str, what: str) -> None:
    """Refuse two equal check values or thief numbers (all differ in the game)."""
    seen: dict = {}
    for name, value in values.items():
        if value in seen:
            raise InvalidSheet(
                N_("{field}: {first} and {second} both have {value}; every {what} differs."),
                field=field,
                first=seen[value],
                second=name,
                value=value,
                what=what,
            )
        seen[value] = name


def _one_role(roles: dict[str, list[str]]) -> None:
    """Each player plays one action card: refuse a name in two roles."""
    seen: dict[str, str] = {}
    for role, names in roles.items():
        for name in names:
            if name in seen:
                raise InvalidSheet(
                    N_("{role}: {name} is also in {other}; a player plays one action card."),
                    role=role,
                    name=name,
                    other=seen[name],
                )
            seen[name] = role


def _auction(sheet: dict) -> dict:
    """Highest check buys; a lone thief takes it; two or more thieves take nothing."""
    checks = _mapping(sheet.get("checks", {}), "checks")
    for name, value in checks.items():
        _name(name, "checks")
        _number(value, f"checks.{name}", 1)
    _distinct(checks, "checks", "check")
    thieves = _names(sheet.get("thieves", []), "thieves")
    _one_role({"checks": list(checks), "thieves": thieves})
    if not checks:
        return {"buyer": None, "check": None, "stolen_by": None}
    buyer = max(checks, key=checks.get)
    return {
        "buyer": buyer,
        "check": checks[buyer],
        "stolen_by": thieves[0] if len(thieves) == 1 else None,
    }


def _cards(value: object, field: str) -> list[dict]:
    """A list of collection cards."""
    if not isinstance(value, list):
        raise InvalidSheet(N_("{field}: must be a list of cards."), field=field)
    return [cards.read_card(card, f"{field}[{i}]", InvalidSheet) for i, card in enumerate(value)]


#: The refusal of one card entered in two places of a sheet (RULES.md §4: one physical card).
SHEET_TWICE = {
    "exhibitions": N_(
        "{field}: {card} is already in {name}'s exhibition; each card is one physical card."
    ),
    "hands": N_("{field}: {card} is already in {name}'s hand; each card is one physical card."),
}


def _each_card_once(by_name: dict[str, list[dict]], field: str) -> list[dict]:
    """Refuse a card on the sheet twice (in two players' cards or twice in one's); the year
    clashes of the cards entered, for the warning (RULES.md §4)."""
    seen: dict[tuple, str] = {}
    for name, entered in by_name.items():
        for index, card in enumerate(entered):
            first = seen.setdefault(places.key(card), name)
            if first != name or entered.index(card) != index:
                raise InvalidSheet(
                    SHEET_TWICE[field],
                    field=f"{field}.{name}[{index}]",
                    card=cards.label(card),
                    name=first,
                )
    return places.year_clashes([card for entered in by_name.values() for card in entered])


def _positions(value: object, names: list[str]) -> dict[str, int]:
    """Every player's track space."""
    positions = _mapping(value, "positions")
    for name in names:
        if name not in positions:
            raise InvalidSheet(N_("positions: {name} is missing."), name=name[:40])
    for name, space in positions.items():
        _name(name, "positions", names)
        _number(space, f"positions.{name}")
    return positions


def _castle(sheet: dict) -> dict:
    """One castle phase: exhibitions, then thieves, then detectives (RULES.md §4)."""
    names = _names(sheet.get("players"), "players")
    if not cards.MIN_PLAYERS <= len(names) <= cards.MAX_PLAYERS:
        raise InvalidSheet(N_("players: 2 to 5 players play Adel Verpflichtet."))
    positions = _positions(sheet.get("positions"), names)
    shown = _mapping(sheet.get("exhibitions", {}), "exhibitions")
    shows = {
        _name(n, "exhibitions", names): _cards(c, f"exhibitions.{n}") for n, c in shown.items()
    }
    thieves = _mapping(sheet.get("thieves", {}), "thieves")
    for name, number in thieves.items():
        _name(name, "thieves", names)
        _number(number, f"thieves.{name}", 1)
    detectives = _names(sheet.get("detectives", []), "detectives", names)
    _one_role({"exhibitions": list(shows), "thieves": list(thieves), "detectives": detectives})
    clashes = _each_card_once(shows, "exhibitions")
    jail = _jail(sheet.get("jail", []), names, thieves)
    valid = {name: cards.is_exhibition(shows[name]) for name in shows}
    fraction = _sheet_fraction(sheet.get("fraction"), bool(shows))
    seat = {name: index for index, name in enumerate(names)}
    competing = {seat[name]: shows[name] for name in shows if valid[name]}
    best, second, advance = castle.exhibition_advance(competing, fraction)
    after = [positions[name] + advance.get(seat[name], 0) for name in names]
    caught = [{"owner": n, "number": thieves[n]} for n in thieves] if detectives else []
    moved = castle.detective_advance(after, [seat[n] for n in detectives], bool(caught))
    jail_after, released = castle.imprison(jail, caught, len(names))
    gained = {name: advance.get(seat[name], 0) + moved.get(seat[name], 0) for name in names}
    return {
        "valid": valid,
        "best": names[best] if best is not None else None,
        "second": names[second] if second is not None else None,
        "advance": gained,
        "positions": {name: positions[name] + gained[name] for name in names},
        "jail": jail_after,
        "released": released,
        "clashes": clashes,
    }


def _sheet_fraction(value: object, needed: bool) -> list[int] | None:
    """The leader's fraction [top, bottom]; required when anyone exhibits."""
    if value is None:
        if needed:
            raise InvalidSheet(
                N_("fraction: enter the top and bottom number on the leader's space.")
            )
        return None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(type(n) is not int or n < 0 for n in value)
        or value[0] < value[1]
    ):
        raise InvalidSheet(
            N_("fraction: two whole numbers [top, bottom], the top one at least the bottom one.")
        )
    return value


def _jail(value: object, names: list[str], thieves: dict) -> list[dict]:
    """The prison, cell 1 first: at most one thief per cell, one cell per player."""
    if not isinstance(value, list) or len(value) > len(names):
        raise InvalidSheet(N_("jail: a list of at most one thief per cell, one cell per player."))
    numbers = set(thieves.values())
    found = []
    for index, entry in enumerate(value):
        field = f"jail[{index}]"
        if not isinstance(entry, dict) or set(entry) != {"owner", "number"}:
            raise InvalidSheet(N_("{field}: a thief is {{owner, number}}."), field=field)
        _name(entry["owner"], f"{field}.owner", names)
        number = _number(entry["number"], f"{field}.number", 1)
        if number in numbers:
            raise InvalidSheet(
                N_("{field}: thief {number} is twice on the sheet; every thief differs."),
                field=field,
                number=number,
            )
        numbers.add(number)
        found.append({"owner": entry["owner"], "number": number})
    return found


def _final(sheet: dict) -> dict:
    """The final exhibitions (+8 / +4) and the ranking."""
    positions = _mapping(sheet.get("positions"), "positions")
    names = [_name(name, "positions") for name in positions]
    if not cards.MIN_PLAYERS <= len(names) <= cards.MAX_PLAYERS:
        raise InvalidSheet(N_("positions: 2 to 5 players play Adel Verpflichtet."))
    _positions(positions, names)
    hands = _mapping(sheet.get("hands", {}), "hands")
    for name in hands:
        _name(name, "hands", names)
    held = {name: _cards(hands.get(name, []), f"hands.{name}") for name in names}
    clashes = _each_card_once(held, "hands")
    shows = [cards.best_from_hand(held[name]) for name in names]
    best, second = cards.best_two({seat: s for seat, s in enumerate(shows) if s})
    advance = [0] * len(names)
    if best is not None:
        advance[best] = cards.FINAL_BEST
    if second is not None:
        advance[second] = cards.FINAL_SECOND
    final = [positions[name] + gain for name, gain in zip(names, advance, strict=True)]
    ranks = ending.final_ranks(final, shows)
    rows = [
        {
            "name": name,
            "exhibition": shows[i],
            "advance": advance[i],
            "position": final[i],
            "rank": ranks[i],
        }
        for i, name in enumerate(names)
    ]
    return {
        "game": cards.GAME,
        "kind": "final",
        "players": rows,
        "winners": [row["name"] for row in rows if row["rank"] == 1],
        "clashes": clashes,
    }
