"""For Sale on a player's phone: the house they lay face down, and what only they may see."""

from flask_babel import gettext

from companion_app.i18n import money


def seat_label(house: object) -> str:
    """A house as the seat's chip names it."""
    return gettext("house %(number)s", number=house)


def seat_secrets(state: dict, seat: int) -> list[tuple[str, str]]:
    """This seat's own coins, checks and houses (RULES.md §2: coins and checks are hidden)."""
    player = state["players"][seat]
    checks = player["checks"]
    return [
        (gettext("My coins"), str(player["coins"])),
        (gettext("My checks"), ", ".join(money(check) for check in checks) or "—"),
        (gettext("My checks in all"), money(sum(checks))),
        (gettext("My houses"), ", ".join(str(house) for house in sorted(player["houses"])) or "—"),
    ]
