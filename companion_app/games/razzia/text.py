"""Razzia! words on the tablet: the head's banner and what the table does between rounds."""

from flask_babel import gettext

from companion_app.i18n import money
from scoring.razzia import cards, table

#: The highest check in the box (RULES.md §1 "Cards": checks 1,000 ... 16,000).
TOP_CHECK = 16000


def turn_banner(state: dict, actions: dict) -> str:
    """Who acts and what they may do, as the controls below allow it (RULES.md §1 "Auction")."""
    name = state["players"][actions["actor"]]["name"]
    if state["phase"] != "auction":
        return gettext("%(name)s to play", name=name)
    if not actions["can_pass"]:
        return gettext("%(name)s called the forced auction and must bid", name=name)
    if not actions["bids"]:
        return gettext("%(name)s cannot beat the highest bid and must pass.", name=name)
    return gettext("%(name)s: bid or pass", name=name)


def round_end_steps(state: dict) -> list[str]:
    """What the table physically does before the next round (RULES.md §1 "Round end")."""
    starter = table.seat_with_highest_check(state)
    player = state["players"][starter]
    return [
        gettext("Put the loot left in the row and all police officers back in the box."),
        # The kinds of cards.DISCARDED_AFTER_SCORING and cards.KEPT_ACROSS_ROUNDS, by group.
        gettext(
            "Every family discards its jewelry, drivers, thieves and gold coins; bodyguards,"
            " cars and businesses stay for the next round."
        ),
        gettext("Everyone turns all their checks face up; the centre check stays."),
        gettext(
            "%(name)s holds the highest check (%(check)s) and starts round %(round)s.",
            name=player["name"],
            check=money(max(player["up"] + player["down"])),
            round=state["round"] + 1,
        ),
    ]


def deal_steps(players: int) -> list[str]:
    """What the table lays out before the first deal (RULES.md §1 "Checks by player count")."""
    high = max(cards.checks_in_play(players))
    steps = [gettext("Put the 1,000 check face up in the centre.")]
    if high < TOP_CHECK:
        steps.append(
            gettext(
                "Put the checks above %(high)s back in the box: %(players)s players do not"
                " use them.",
                high=money(high),
                players=players,
            )
        )
    steps.append(
        gettext("Shuffle the 99 loot cards and 21 police officers into one face-down deck.")
    )
    return steps
