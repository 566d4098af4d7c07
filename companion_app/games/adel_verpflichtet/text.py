"""Adel Verpflichtet's words on the tablet: action cards, the resolution's steps, history lines."""

from flask_babel import gettext, ngettext

from scoring.adel_verpflichtet import cards, resolve


def card_text(card: dict | None) -> str:
    """A collection card as the table says it: "B 1720"."""
    return cards.label(card) if card else "-"


def cards_text(shown: list[dict] | None) -> str:
    """Several cards: "A 1600, B 1700, C 1800"."""
    return ", ".join(card_text(card) for card in shown or [])


def place_text(place: str | None) -> str:
    """A location card's name."""
    return {cards.AUCTION: gettext("Auction house"), cards.CASTLE: gettext("Castle")}.get(
        place, "?"
    )


def action_text(action: dict | None) -> str:
    """An action card's name: "Check 12", "Thief 3", "Detective", "Exhibit"."""
    action = action or {}
    kind, value = action.get("card"), action.get("value")
    if kind == cards.CHECK:
        return gettext("Check %(value)s", value=value)
    if kind == cards.THIEF:
        return gettext("Thief %(number)s", number=value)
    if kind == cards.DETECTIVE:
        return gettext("Detective")
    if kind == cards.EXHIBIT:
        return gettext("Exhibit")
    return gettext("Nothing to play")


def _name(names: list[str], seat: object) -> str:
    """A seat's name ("?" for a seat not at the table)."""
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def step_text(step: dict, names: list[str]) -> str:
    """One step of a turn's resolution, with its reason."""
    kind = step.get("step")
    name = _name(names, step.get("seat"))
    owner = _name(names, step.get("owner"))
    spaces = step.get("spaces", 0)
    if kind == "bought":
        return gettext(
            "%(name)s's check %(check)s is the highest: %(name)s buys %(card)s from pile %(pile)s.",
            name=name,
            check=step["check"],
            card=card_text(step["card"]),
            pile=step["pile"] + 1,
        )
    if kind == "register":
        return gettext(
            "Check %(check)s goes to the auction register for good.", check=step["check"]
        )
    if kind == "nothing_to_buy":
        return gettext("Both piles are empty: nothing to buy, the checks go back.")
    if kind == "check_stolen":
        return gettext(
            "%(owner)s's thief %(number)s is alone at the auction house: takes check %(check)s.",
            owner=owner,
            number=step["number"],
            check=step["check"],
        )
    if kind == "thieves_scared":
        return gettext(
            "Thieves %(numbers)s scare each other off: nobody takes the check.",
            numbers=", ".join(str(n) for n in step["numbers"]),
        )
    if kind == "thief_no_purchase":
        return gettext(
            "%(owner)s's thief %(number)s gets nothing: nobody bought anything.",
            owner=owner,
            number=step["number"],
        )
    shown, space = cards_text(step.get("cards")), step.get("space")
    if kind == "exhibition_best":
        return gettext(
            "%(name)s's exhibition (%(cards)s) is the best: the top number on the leader's"
            " space %(space)s, %(spaces)s forward.",
            name=name,
            cards=shown,
            space=space,
            spaces=spaces,
        )
    if kind == "exhibition_second":
        return gettext(
            "%(name)s's exhibition (%(cards)s) is second: the bottom number on the leader's"
            " space %(space)s, %(spaces)s forward.",
            name=name,
            cards=shown,
            space=space,
            spaces=spaces,
        )
    if kind == "exhibition_out":
        return gettext(
            "%(name)s's exhibition (%(cards)s) is not among the best two: no move.",
            name=name,
            cards=cards_text(step["cards"]),
        )
    if kind == "card_stolen":
        return gettext(
            "%(owner)s's thief %(number)s takes %(card)s from %(name)s's exhibition.",
            owner=owner,
            number=step["number"],
            card=card_text(step["card"]),
            name=name,
        )
    if kind == "caught":
        return gettext(
            "%(owner)s's thief %(number)s is caught: prison cell %(cell)s.",
            owner=owner,
            number=step["number"],
            cell=step.get("cell", 1),
        )
    if kind == "released":
        return gettext(
            "%(owner)s's thief %(number)s is pushed out of the last cell: back to %(owner)s.",
            owner=owner,
            number=step["number"],
        )
    if kind == "detective":
        return ngettext(
            "%(name)s's detective caught a thief: rank %(rank)s, %(num)s space forward.",
            "%(name)s's detective caught a thief: rank %(rank)s, %(num)s spaces forward.",
            spaces,
            name=name,
            rank=step["rank"],
        )
    if kind == "detective_idle":
        return gettext("%(name)s's detective caught nobody: no move.", name=name)
    if kind == "banquet":
        return gettext(
            "%(name)s reached the banquet table: after this turn, the final exhibition.", name=name
        )
    return str(kind)


def coming_up(state: dict, names: list[str]) -> list[str]:
    """What the rules will do after the entry on screen, so the table sees it before it happens."""
    lines = []
    if state["phase"] == "buy":
        thieves = resolve.thieves_at(state, cards.AUCTION)
        if len(thieves) == 1:
            lines.append(
                gettext(
                    "Then %(owner)s's thief %(number)s, alone here, takes the check just paid.",
                    owner=_name(names, thieves[0]["owner"]),
                    number=thieves[0]["number"],
                )
            )
        elif thieves:
            lines.append(step_text({"step": "thieves_scared", "numbers": _numbers(thieves)}, names))
    if state["phase"] in ("buy", "exhibit", "steal"):
        castle_thieves = resolve.steal_order(state)
        # While a thief steals, the ones after it are still to come.
        still = state["queue"][1:] if state["phase"] == "steal" else castle_thieves
        if still:
            lines.append(
                ngettext(
                    "Then thief %(numbers)s takes a card of every exhibition.",
                    "Then thieves %(numbers)s, highest first, each take a card of every"
                    " exhibition.",
                    len(still),
                    numbers=", ".join(str(n) for n in still),
                )
            )
        for seat, _ in resolve.played_at(state, cards.CASTLE, cards.DETECTIVE):
            if castle_thieves:
                line = gettext(
                    "Then %(name)s's detective catches every thief at the castle and moves by"
                    " rank.",
                    name=_name(names, seat),
                )
            else:
                line = step_text({"step": "detective_idle", "seat": seat}, names)
            lines.append(line)
    return lines


def clash_text(clash: dict) -> str:
    """The warning of a year on two letters (RULES.md §4: accepted, but the tie-break may fail)."""
    return gettext(
        "Year %(year)s is on two different cards (%(letters)s): if two exhibitions tie, the"
        " oldest object may not decide between them. Check the cards; if they are right, play on.",
        year=clash["year"],
        letters=", ".join(f"{letter} {clash['year']}" for letter in clash["letters"]),
    )


def _numbers(thieves: list[dict]) -> list[int]:
    """The numbers of some thieves."""
    return [thief["number"] for thief in thieves]


def describe(move: dict | None, names: list[str]) -> str:
    """A history line for a move, in the page's language."""
    move = move or {}
    kind = move.get("type")
    if kind in ("locations", "choices"):
        places = move.get("places") or []
        line = ", ".join(f"{_name(names, s)}: {place_text(p)}" for s, p in enumerate(places))
        if kind == "choices":
            played = move.get("actions") or []
            line += "; " + ", ".join(
                f"{_name(names, s)}: {action_text(a)}" for s, a in enumerate(played)
            )
        return gettext("Revealed: %(line)s", line=line)
    if kind == "actions":
        played = move.get("actions") or []
        line = ", ".join(f"{_name(names, s)}: {action_text(a)}" for s, a in enumerate(played))
        return gettext("Action cards: %(line)s", line=line)
    if kind == "buy" and isinstance(move.get("card"), dict) and "seat" in move:
        return gettext(
            "%(name)s bought %(bought)s from pile %(pile)s with check %(check)s;"
            " next on top: %(card)s",
            name=_name(names, move["seat"]),
            bought=card_text(move["card"]),
            pile=(move.get("pile") or 0) + 1,
            check=move.get("check"),
            card=card_text(move.get("next")),
        )
    if kind == "buy":  # a purchase stored before the move recorded who bought what
        return gettext(
            "Bought from pile %(pile)s; next on top: %(card)s",
            pile=(move.get("pile") or 0) + 1,
            card=card_text(move.get("next")),
        )
    if kind in ("exhibitions", "final"):
        shows = move.get("shows") or []
        line = "; ".join(
            f"{_name(names, s)}: {cards_text(shown)}" for s, shown in enumerate(shows) if shown
        )
        if kind == "final":
            return gettext("Final exhibitions: %(line)s", line=line or "-")
        return gettext("Exhibitions: %(line)s", line=line)
    if kind == "steal":
        taken = [card_text(card) for card in move.get("cards") or [] if card]
        return gettext(
            "Thief %(number)s takes %(cards)s", number=move.get("thief"), cards=", ".join(taken)
        )
    if kind == "next":
        return gettext("Next turn")
    return str(kind)
