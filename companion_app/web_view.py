"""What the table pages show, read from a state: groups, auction seats, history lines, QR.

Nothing here decides what is legal; `actions(state)` does that. These helpers only
arrange what the state already says for the templates.
"""

import qrcode
import qrcode.image.svg
from flask_babel import gettext
from markupsafe import Markup

from companion_app import labels
from companion_app.i18n import money
from scoring.razzia import cards


def family_groups(family: dict) -> list[dict]:
    """A family's loot by group (jewelry, others, businesses), only the kinds held."""
    groups = []
    for key, (label, kinds) in labels.GROUPS.items():
        held = [(kind, labels.kind(kind), family[kind]) for kind in kinds if family.get(kind)]
        if held:
            groups.append({"key": key, "label": label, "cards": held})
    return groups


def draw_order(offered: list[str]) -> list[tuple[str, str]]:
    """The loot kinds the actor may turn up, in the family layout order, with labels."""
    return [
        (kind, labels.kind(kind))
        for _label, kinds in labels.GROUPS.values()
        for kind in kinds
        if kind in offered
    ]


def auction_seats(state: dict) -> list[dict]:
    """Each bidder of the running auction in order, with their bid, pass or waiting status."""
    running = state["auction"]
    said = {bid["seat"]: bid["check"] for bid in running["bids"]}
    seats = []
    for position, seat in enumerate(running["order"]):
        if seat in said:
            status = "bid" if said[seat] is not None else "passed"
        else:
            status = "acting" if position == running["next"] else "waiting"
        seats.append(
            {
                "seat": seat,
                "name": state["players"][seat]["name"],
                "status": status,
                "check": said.get(seat),
            }
        )
    return seats


def variants() -> list[dict]:
    """The player-count variants: checks in play, checks per player, police that end a round."""
    rows = []
    for count in range(cards.MIN_PLAYERS, cards.MAX_PLAYERS + 1):
        in_play = cards.checks_in_play(count)
        rows.append(
            {
                "players": count,
                "low": min(in_play),
                "high": max(in_play),
                "per_player": len(cards.CHECK_SETS[count][0]),
                "police": cards.police_limit(count),
            }
        )
    return rows


def check_sets(count: int) -> dict[str, tuple[int, ...]]:
    """The checks of each set label (A: 2,000, 6,000, 13,000 ...) for this many players."""
    return dict(zip(cards.SET_LABELS, cards.CHECK_SETS[count], strict=False))


def describe(move: dict | None, names: list[str]) -> str:
    """A history line for a move, in the page's language."""
    move = move or {}
    seat = move.get("seat")
    name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    kind = move.get("type")
    if kind == "deal":
        sets = ", ".join(f"{n}: {s}" for n, s in zip(names, move.get("sets") or [], strict=False))
        return gettext("Check sets dealt (%(sets)s)", sets=sets)
    if kind == "draw":
        return gettext(
            "%(name)s turned up: %(card)s", name=name, card=labels.kind(str(move.get("card")))
        )
    if kind == "thief":
        taken = ", ".join(labels.kind(str(card)) for card in move.get("take") or [])
        return gettext("%(name)s used thieves to take: %(cards)s", name=name, cards=taken)
    if kind == "forced_auction":
        return gettext("%(name)s called a forced auction", name=name)
    if kind == "bid":
        return gettext("%(name)s bid %(check)s", name=name, check=money(move.get("check")))
    if kind == "pass":
        return gettext("%(name)s passed", name=name)
    if kind == "next_round":
        return gettext("Next round started")
    return str(kind)


def qr_svg(url: str) -> Markup:
    """An inline SVG QR code of `url` (generated here, so it is trusted markup)."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    return Markup(image.to_string(encoding="unicode"))


def ranking(state: dict) -> list[dict]:
    """The final ranking as the rules ranked it, best first (ties keep seat order)."""
    rows = [
        {"seat": seat, "name": player["name"], "total": total, "rank": rank}
        for seat, (player, total, rank) in enumerate(
            zip(state["players"], state["totals"], state["ranks"] or [], strict=False)
        )
    ]
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))
