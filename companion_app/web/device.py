"""The on-screen table box: a standalone page, and the panel partial any table page includes.

The panel (`templates/device/_panel.html`) is drawn from `device_panel(table_id)`, a template
global, so a page includes it with the table id alone:

    {% with table_id = table.id %}{% include "device/_panel.html" %}{% endwith %}

Its script (`static/device/device.js`) keeps it live through the device API.
"""

from flask import Blueprint, current_app, render_template
from flask_babel import gettext

from companion_app.device import feed as device_feed
from companion_app.device.status import VIRTUAL, get_status
from companion_app.games import VIEWS, view_for
from companion_app.server import rights
from companion_app.store import get_store, reveal_gate
from companion_app.web.boxcheck import check_urls, check_words
from scoring.games import get_game

bp = Blueprint("device_web", __name__)

#: Full scale of a screen colour channel; strip levels are scaled up from the firmware's cap.
SCREEN_MAX = 255


def panel_text() -> dict:
    """The panel's words in the page's language; {id}-style slots are filled by the script."""
    return {
        "seat": {
            "off": "",
            "idle": gettext("waiting"),
            "armed": gettext("choosing"),
            "locked": gettext("locked in"),
            "revealed": gettext("revealed"),
        },
        "badge": {
            "virtual": gettext("Virtual box"),
            "connected": gettext("Box connected"),
            "disconnected": gettext("Box disconnected"),
            "box_silent": gettext("Box not answering"),
            "box_deaf": gettext("The box does not hear the companion"),
            "port_shared": gettext(
                "Another program has the box's port open: %(programs)s. Close it.",
                programs="{programs}",
            ),
            "port_busy": gettext(
                "The box's port is held by %(programs)s: this bridge waits for it. Close that"
                " program or stop the other bridge.",
                programs="{programs}",
            ),
            "box_fault": gettext(
                "The box stopped showing this game: its firmware failed on the table's"
                " current state (%(fault)s). Play on; it shows the game again after the next"
                " move. If this happens again, update the box's firmware.",
                fault="{fault}",
            ),
        },
        "unknown_holder": gettext("another program"),
        "no_reveal": gettext("No reveal armed"),
        "progress": gettext(
            "Reveal %(id)s: %(locked)s of %(armed)s locked in",
            id="{id}",
            locked="{locked}",
            armed="{armed}",
        ),
        "revealed": gettext("Reveal %(id)s: revealed", id="{id}"),
        "follow": gettext("Show on the box"),
        "followed": gettext("The box shows this table"),
        "follow_refused": gettext(
            "You cannot show this table on the box here: it shows another table's game, and only"
            " that table's host, its scorers or this computer can move it."
        ),
        "offline": gettext("The companion cannot be reached; trying again."),
        "owner": {
            "this": gettext(
                "The box shows this table; only its host, its scorers or this computer can move it."
            ),
            "other": gettext(
                "The box shows another table's game; only that table's host, its scorers or"
                " this computer can move it."
            ),
            "free": gettext(
                "The box shows no game in play; this table's host or scorers can show it here."
            ),
        },
    }


#: Problems the badge names even while the box is connected.
SHOWN_CONNECTED = ("port_shared", "box_fault")


def badge_state(status: dict) -> str:
    """virtual (no box), connected, a known problem (another program on the port, the box
    silent or deaf to us, the box holding a state back), or disconnected (grey)."""
    if status["mode"] == VIRTUAL:
        return "virtual"
    problem = status.get("problem")
    if problem in SHOWN_CONNECTED or (problem and not status["connected"]):
        return problem
    return "connected" if status["connected"] else "disconnected"


def badge_text(state: str, status: dict, text: dict) -> str:
    """The badge's words; another program on the port is named with its process id, the
    box's fault with the error's own words."""
    programs = ", ".join(f"{h['name']} ({h['pid']})" for h in status.get("holders") or ())
    fault = status.get("fault") or "?"
    programs = programs or text["unknown_holder"]
    return text["badge"][state].replace("{programs}", programs).replace("{fault}", fault)


def reveal_line(reveal: dict | None, text: dict) -> str:
    """The one-line progress of the current reveal."""
    if reveal is None:
        return text["no_reveal"]
    if reveal["revealed"]:
        return text["revealed"].format(id=reveal["id"])
    return text["progress"].format(
        id=reveal["id"], locked=len(reveal["locked"]), armed=len(reveal["seats"])
    )


def led_css(pixel: list, cap: int) -> str:
    """A strip level (0..cap per channel) as the screen colour it stands for."""
    red, green, blue = (min(SCREEN_MAX, round(level * SCREEN_MAX / cap)) for level in pixel)
    return f"rgb({red}, {green}, {blue})"


def arm_seats(table_id: str, seat_count: int) -> tuple[list[int], bool]:
    """The seats the panel's Arm button arms: the game's pending choice, else every seat."""
    table = get_store().get(table_id)
    pending = reveal_gate.pending_seats(get_game(table.game), table.state)
    return (pending, True) if pending else (list(range(seat_count)), False)


def led_groups(table_id: str) -> list[tuple[str, str]]:
    """The strip's pixel groups with what they mean in the table's game (LED_LABELS)."""
    game = get_store().get(table_id).game
    custom = getattr(view_for(game), "LED_LABELS", {}) if game in VIEWS else {}
    return [
        ("police", str(custom.get("police") or gettext("Police officers"))),
        ("round", str(custom.get("round") or gettext("Round"))),
        ("seat", gettext("Players")),
    ]


def box_owner(table_id: str, text: dict) -> dict:
    """Which table the box shows and who may move it: {"state", "line"} for the panel."""
    followed = device_feed.followed_table()["table"]
    if followed is None or not device_feed.in_play(followed):
        return {"state": "free" if followed != table_id else "this", "line": text["owner"]["free"]}
    if followed == table_id:
        return {"state": "this", "line": text["owner"]["this"]}
    other = get_store().get(followed)
    title = str(view_for(other.game).TITLE) if other.game in VIEWS else other.game
    players = ", ".join(get_game(other.game).summary(other.state)["players"])
    line = gettext(
        "The box shows %(game)s (%(players)s); only that table's host, its scorers or this"
        " computer can move it.",
        game=title,
        players=players,
    )
    return {"state": "other", "line": line}


def follow_refusal(owner: dict, text: dict) -> str:
    """Why this device may not show its table on the box ("" when it may): the box shows
    another table's game in play, and only that table's host, its scorers or this computer
    can move it (the API refuses the press; issue 32 item 7: the button said nothing)."""
    followed = device_feed.followed_table()["table"]
    if owner["state"] != "other" or followed is None or rights.can_edit(followed):
        return ""
    return text["follow_refused"]


def folded(badge: str, choosing: bool, reveal: dict | None) -> bool:
    """True when the panel may fold to its status line: no box, no choice, no reveal running."""
    running = reveal is not None and not reveal["revealed"]
    return badge != "connected" and not choosing and not running


@bp.app_template_global()
def device_panel(table_id: str) -> dict:
    """Everything the panel partial shows at first paint; the script updates it after."""
    body = device_feed.device_body(table_id)
    status = get_status(current_app).snapshot()
    frame = device_feed.panel_frame(table_id, status)
    text = panel_text()
    seats = list(enumerate(body["players"]))[: body["display"]["seats"]]
    armed, choosing = arm_seats(table_id, len(seats))
    badge = badge_state(status)
    owner = box_owner(table_id, text)
    return {
        "table_id": table_id,
        "body": body,
        "frame": frame,
        "leds": [led_css(pixel, frame["cap"]) for pixel in frame["pixels"]],
        "seats": seats,
        "arm_seats": armed,
        "arm_choosing": choosing,
        # The seats are the table's next decision until everyone choosing has locked in.
        "seats_decide": choosing and not (body["reveal"] or {}).get("revealed"),
        "followed": device_feed.followed_table()["table"] == table_id,
        "owner": owner,
        "follow_refusal": follow_refusal(owner, text),
        "badge": badge,
        "badge_text": badge_text(badge, status, text),
        "simulator": status.get("simulator"),  # which engine runs a simulated box, if one does
        "folded": folded(badge, choosing, body["reveal"]),
        "reveal_line": reveal_line(body["reveal"], text),
        "text": text,
        "groups": led_groups(table_id),
    }


@bp.get("/tables/<table_id>/box")
def box(table_id: str) -> str:
    """The panel on a page of its own, for a tablet or a second screen at the table; with the
    builder's first-plug check of the box below it."""
    panel = device_panel(table_id)
    return render_template(
        "device/box.html",
        panel=panel,
        names=panel["body"]["players"],
        check_words=check_words(),
        check_urls=check_urls(table_id),
    )
