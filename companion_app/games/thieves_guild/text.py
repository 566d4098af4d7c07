"""History lines of Cech zlodějů moves, read from the log the rules stored with each move."""

from flask_babel import gettext, ngettext

#: Between the events of one move on its history line.
SEPARATOR = " · "


def describe(move: dict | None, names: list[str]) -> str:
    """A history line for a move, in the page's language ("Eva robs Petr of 4: ...")."""
    move = move or {}
    events = move.get("log") or []
    lines = [event_text(event, names) for event in events if isinstance(event, dict)]
    return SEPARATOR.join(line for line in lines if line) or str(move.get("type"))


def _name(names: list[str], seat: object) -> str:
    """The name at `seat`, or "?" for a seat the table does not have."""
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def gold(amount: int) -> str:
    """An amount of gold with the language's plural ("1 zlatý, 3 zlaté, 5 zlatých")."""
    return ngettext("%(num)s gold", "%(num)s gold", amount)


def event_text(event: dict, names: list[str]) -> str:
    """One event of a move's log as the table would say it."""
    kind = event.get("event")
    name = _name(names, event.get("seat"))
    simple = {
        "start": lambda: gettext("%(name)s starts", name=name),
        "turn": lambda: gettext("%(name)s’s turn", name=name),
        "loot": lambda: gettext(
            "%(name)s rolls %(roll)s for the loot", name=name, roll=event["roll"]
        ),
        "target": lambda: gettext("Target roll: %(roll)s", roll=event["roll"]),
        "aim": lambda: aim_text(name, event["direction"]),
        "no_victim": lambda: gettext("The count lands on %(name)s: no robbery", name=name),
        "stopped": lambda: gettext("A card stopped the robbery; the turn ends"),
        "jailed": lambda: gettext("%(name)s is in jail and loses the turn", name=name),
        "game_over": lambda: gettext("Game over"),
        "resume": lambda: gettext("Everyone has gold again: play goes on"),
    }
    if kind in simple:
        return simple[kind]()
    if kind == "buy":
        return gettext(
            "%(name)s buys card %(number)s for %(gold)s",
            name=name,
            number=event["number"],
            gold=gold(event["cost"]),
        )
    if kind == "black_peter":
        return gettext("%(name)s pays %(gold)s for Černý Petr", name=name, gold=gold(event["paid"]))
    if kind == "last_gold":
        broke = ", ".join(_name(names, seat) for seat in event.get("seats", []))
        return gettext(
            "%(names)s lost their last gold: only reactions now, then the end", names=broke
        )
    if kind == "rob":
        return robbery_text(event, names)
    if kind == "card":
        return card_text(event, names)
    return str(kind)


def aim_text(name: str, direction: str) -> str:
    """The robber's choice of side."""
    if direction == "left":
        return gettext("%(name)s counts to the left", name=name)
    return gettext("%(name)s counts to the right", name=name)


def robbery_text(event: dict, names: list[str]) -> str:
    """ "Eva robs Petr of 4" or, from a pauper, "...: Petr had 3, Eva pays a fine"."""
    robber, victim = _name(names, event.get("seat")), _name(names, event.get("victim"))
    if event.get("fine"):
        return gettext(
            "%(robber)s robs %(victim)s of %(loot)s: %(victim)s had %(had)s, "
            "%(robber)s pays a fine of 1 gold",
            robber=robber,
            victim=victim,
            loot=event["loot"],
            had=event["had"],
        )
    return ngettext(
        "%(robber)s robs %(victim)s of %(num)s gold",
        "%(robber)s robs %(victim)s of %(num)s gold",
        event["took"],
        robber=robber,
        victim=victim,
    )


def card_text(event: dict, names: list[str]) -> str:
    """A played card and what it did."""
    parts = [
        gettext(
            "%(name)s plays %(card)s", name=_name(names, event.get("seat")), card=event.get("card")
        )
    ]
    for transfer in event.get("transfers") or []:
        giver = _name(names, transfer.get("from"))
        if transfer.get("to") == "bank":
            parts.append(
                gettext(
                    "%(giver)s pays %(gold)s to the bank", giver=giver, gold=gold(transfer["gold"])
                )
            )
        else:
            parts.append(
                gettext(
                    "%(giver)s gives %(gold)s to %(taker)s",
                    giver=giver,
                    taker=_name(names, transfer.get("to")),
                    gold=gold(transfer["gold"]),
                )
            )
    changed = event.get("roll")
    if isinstance(changed, dict):
        template = (
            gettext("loot roll %(old)s → %(new)s", old=changed["old"], new=changed["new"])
            if changed.get("which") == "loot"
            else gettext("target roll %(old)s → %(new)s", old=changed["old"], new=changed["new"])
        )
        parts.append(template)
    if "jail" in event:
        parts.append(gettext("%(name)s goes to jail", name=_name(names, event["jail"])))
    if "black_peter" in event:
        parts.append(
            gettext("Černý Petr goes to %(name)s", name=_name(names, event["black_peter"]))
        )
    return parts[0] + (": " + ", ".join(parts[1:]) if parts[1:] else "")
