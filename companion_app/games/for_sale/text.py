"""For Sale words on the tablet: the bidding banner and what to set out for this table."""

from flask_babel import gettext, ngettext

from scoring.for_sale import cards


def bid_banner(state: dict, actions: dict) -> str:
    """Who bids now and what they may do, as the controls allow it (RULES.md §2 "Phase 1")."""
    player = state["players"][actions["actor"]]
    name = player["name"]
    if actions["min_bid"] is not None:
        return gettext("%(name)s: bid or pass", name=name)
    if player["coins"] == 0:
        return gettext("%(name)s has no coins left to bid and must pass.", name=name)
    return gettext("%(name)s cannot beat the highest bid and must pass.", name=name)


def setup_steps(state: dict) -> list[str]:
    """What the table sets out before the first round (RULES.md §2 "Coins", "Variant")."""
    count = len(state["players"])
    removed = cards.removed(count, state["variant"])
    coins = cards.COINS[count]
    steps = [ngettext("Give each player %(num)s coin.", "Give each player %(num)s coins.", coins)]
    if removed:
        steps.append(
            ngettext(
                "Remove %(num)s house and %(num)s check unseen; they stay out of the game.",
                "Remove %(num)s houses and %(num)s checks unseen; they stay out of the game.",
                removed,
            )
        )
    else:
        steps.append(gettext("All 30 houses and 30 checks are played; remove none."))
    steps.append(gettext("Shuffle the houses and the checks into two face-down decks."))
    return steps
