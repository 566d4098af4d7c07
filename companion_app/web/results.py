"""Final results of any game: the results page, printouts, QR downloads, exports and history.

Views stay thin: the game's `results(state)` (docs/game-contract.md) gives the standings,
`companion_app.results` turns them into codes, charts and files, the templates lay them out.
"""

from datetime import UTC, datetime

from flask import Response, abort, current_app, redirect, render_template, request, url_for
from flask_babel import gettext
from markupsafe import Markup

from companion_app.games import VIEWS, view_for
from companion_app.i18n import formats
from companion_app.results import bgstats, chart, history, links, qr, tiebreaks, verify
from companion_app.server import rights, serve
from companion_app.server.guard import canonical_root
from companion_app.store import TableNotFound, db, get_store, league, roster
from companion_app.web import secrecy
from scoring.games import get_game
from scoring.league.roster import RosterError

NOT_FINISHED = 409
#: Printouts: paper key -> layout class; the page size and margins are in static/print/<key>.css.
PAPERS = {
    "a4": "sheet",
    "letter": "sheet",
    "80mm": "receipt receipt-80",
    "58mm": "receipt receipt-58",
}
#: Letters of a name's word past which a receipt prints it smaller (print.css `.long-word`):
#: about what one line of the roll holds in bold 10 pt.
LONG_WORD = {"80mm": 24, "58mm": 16}
#: The results link, BG Stats straight from the code (no network needed), and BG Stats through
#: the companion's short link (coarse enough for a 58 mm receipt, needs the club network).
QR_KINDS = ("link", "bgstats", "bgstats_short")


def public_url(path: str) -> str:
    """A path of this app as a phone on the LAN reaches it: COMPANION_BASE_URL, else the
    canonical address of this request (`guard.canonical_root`: the live pages link the same)."""
    server = (request.environ.get("SERVER_NAME", ""), int(request.environ.get("SERVER_PORT") or 0))
    return canonical_root(current_app, request.host, server).rstrip("/") + path


def lan_url(url: str) -> str | None:
    """`url` on this computer's LAN address, when `url` is local-only and the LAN is known."""
    if not links.is_local_only(url):
        return None
    address = serve.lan_address()
    return None if links.is_local_only(f"http://{address}/") else links.with_host(url, address)


def public_results_url(table_id: str) -> str:
    """A table's results page as a phone on the LAN reaches it."""
    return public_url(url_for("web.results", table_id=table_id))


def _view(game: str):
    """The game's view module (title, category labels), or None for a game without one."""
    return view_for(game) if game in VIEWS else None


def _score_label(game: str) -> str:
    """What the game's score counts ("Final score"; a game's own word, e.g. track spaces)."""
    return str(getattr(_view(game), "SCORE_LABEL", None) or gettext("Final score"))


def title_of(game: str) -> str:
    """The game's name on the tablet (its registry name when it has no view module)."""
    view = _view(game)
    return str(view.TITLE) if view is not None else game


def _labels(game: str, keys: list[str]) -> list[tuple[str, str]]:
    """Category keys with their labels in the page's language."""
    known = getattr(_view(game), "CATEGORY_LABELS", {})
    return [(key, str(known.get(key, key))) for key in keys]


def tiebreak_label(game: str, key: str) -> str:
    """What a tie-break key counts, in the page's language ("Cards in hand")."""
    view = _view(game)
    known = {**getattr(view, "CATEGORY_LABELS", {}), **getattr(view, "TIEBREAK_LABELS", {})}
    return str(known.get(key, key))


#: A tie-break a player does not have (no final exhibition, so no oldest object).
NO_VALUE = "–"


def tiebreak_value(value: object) -> str:
    """A tie-break value in the page's number format, or a dash where there is none."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return NO_VALUE
    return formats.plain(value)


def tiebreak_texts(game: str, final: dict) -> dict[int, str]:
    """Per seat that tied on score: its tie-break values in words ("Cards in hand 5")."""
    tied = tiebreaks.tied_seats(final)
    return {
        player["seat"]: " · ".join(
            f"{label} {tiebreak_value(value)}"
            for label, value in tiebreaks.pairs(
                final, player, lambda key: tiebreak_label(game, key)
            )
        )
        for player in final["players"]
        if player["seat"] in tied
    }


def tiebreak_rows(game: str, final: dict) -> list[tuple[str, list[str]]]:
    """Per tie-break key: its label and every player's value in seat order (for the tables)."""
    return [
        (tiebreak_label(game, key), [tiebreak_value(value) for value in column])
        for key, column in zip(
            tiebreaks.keys(final),
            zip(*(tiebreaks.values(player) for player in final["players"]), strict=True),
            strict=False,
        )
    ]


def tiebreak_comment(game: str, final: dict) -> str:
    """The ties and what broke them, for a play's comments ("" when nobody tied)."""
    texts = tiebreak_texts(game, final)
    groups = [
        ", ".join(f"{player['name']} ({texts[player['seat']]})" for player in group)
        for group in tiebreaks.tie_groups(final)
    ]
    return gettext("Tie-break: %(ties)s", ties="; ".join(groups)) if groups else ""


def _local(moment: datetime) -> datetime:
    """A stored UTC time in the server's time zone (what the players' clocks say)."""
    return moment.astimezone()


#: Verification codes kept per app; beyond this many the memo starts over (it only saves work).
CODE_MEMO_SIZE = 4096


def verification_code_of(table) -> str:
    """The table's verification code, memoised by (id, version): a version's log never changes."""
    memo = current_app.extensions.setdefault("verification_codes", {})
    key = (table.id, table.version)
    if key not in memo:
        if len(memo) >= CODE_MEMO_SIZE:
            memo.clear()
        moves = verify.active_moves(get_store().history(table.id))
        memo[key] = verify.verification_code(table.game, table.setup, moves)
    return memo[key]


class Finished:
    """A finished table with everything its results pages show."""

    def __init__(self, table_id: str) -> None:
        """Load the table, its results and log; 404 for unknown ids (TableNotFound)."""
        store = get_store()
        self.table = store.get(table_id)
        self.final = get_game(self.table.game).results(self.table.state)
        self.entries = store.history(table_id)
        self.code = verify.verification_code(
            self.table.game, self.table.setup, verify.active_moves(self.entries)
        )
        self.title = title_of(self.table.game)

    @property
    def finished(self) -> bool:
        """True once the rules say the game is over."""
        return bool(self.final["finished"])

    def results_url(self) -> str:
        """The results page as a phone on the LAN reaches it."""
        return public_results_url(self.table.id)

    def bgstats_payload(self) -> dict:
        """The play as BG Stats imports it."""
        return bgstats.play_payload(
            self.table.game,
            self.final,
            play_id=self.table.id,
            started=_local(self.table.created_at),
            ended=_local(self.table.updated_at),
            fallback_name=self.title,
            location=current_app.config.get("LOCATION", ""),
            people=roster.seat_ids(db.get_db(), self.table.id),
            comments=" · ".join(
                text
                for text in (
                    gettext("Verification code %(code)s", code=self.code),
                    tiebreak_comment(self.table.game, self.final),
                )
                if text
            ),
        )

    def bgstats_url(self) -> str:
        """The BG Stats createPlay link with the whole play (where the short link leads)."""
        return bgstats.import_url(self.bgstats_payload())

    def bgstats_short_url(self) -> str:
        """The companion's short link that forwards a phone to `bgstats_url`."""
        return public_url(url_for("web.bgstats_link", table_id=self.table.id))

    def bgstats_kind(self) -> str:
        """The BG Stats code to show: the short link, unless phones cannot reach this address."""
        if request.args.get("bgstats") == "direct" or links.is_local_only(self.results_url()):
            return "bgstats"
        return "bgstats_short"

    def qr_text(self, kind: str) -> str:
        """The text a QR code of `kind` carries."""
        if kind == "link":
            return self.results_url()
        if kind == "bgstats_short":
            return self.bgstats_short_url()
        return bgstats.import_url(bgstats.compact(self.bgstats_payload()))

    def context(self) -> dict:
        """The names the results and print templates read."""
        players = self.final["players"]
        names = [player["name"] for player in players]
        return {
            "table": self.table,
            "title": self.title,
            "final": self.final,
            "ranking": sorted(players, key=lambda player: (player["rank"], player["seat"])),
            "winners": [player["name"] for player in players if player["winner"]],
            "names": names,
            "categories": _labels(self.table.game, self.final["categories"]),
            "tiebreak_texts": tiebreak_texts(self.table.game, self.final),
            "tiebreak_rows": tiebreak_rows(self.table.game, self.final),
            "score_label": _score_label(self.table.game),
            "breakdown_title": str(getattr(_view(self.table.game), "BREAKDOWN_TITLE", "")),
            "code": self.code,
            "ended": formats.date_time(self.table.updated_at),
            "chart": Markup(
                chart.score_chart(
                    names,
                    self.final["rounds"],
                    title=gettext("Score after each round"),
                    round_label=gettext("Round"),
                    number=formats.whole,
                )
            ),
            "papers": PAPERS,
            "bgstats_kind": self.bgstats_kind(),
            "local_only": links.is_local_only(self.results_url()),
            "lan_url": lan_url(self.results_url()),
        }

    @staticmethod
    def qr_caption(kind: str) -> str:
        """What a QR code does, in the page's language."""
        if kind == "link":
            return gettext("Open these results on a phone")
        return gettext("Log this play in BG Stats")


def bgstats_link(table_id: str):
    """The short link of a BG Stats code: forward the phone to the play's createPlay link."""
    found = Finished(table_id)
    if not found.finished:
        return _pending(found)
    return redirect(found.bgstats_url(), code=302)


def _pending(found: Finished):
    """The page for a game that is not over yet: say so, link back, no zeros (409)."""
    names = [player["name"] for player in found.final["players"]]
    page = render_template(
        "results_pending.html", table=found.table, title=found.title, names=names
    )
    return page, NOT_FINISHED


def results(table_id: str):
    """The final ranking, breakdowns, chart, verification code and QR codes of a table."""
    found = Finished(table_id)
    if not found.finished:
        return _pending(found)
    return render_template("results.html", **found.context(), evening=_evening_of(table_id))


def _evening_of(table_id: str) -> league.Evening | None:
    """The club evening a table belongs to (None for one the club has not linked yet)."""
    try:
        return league.table_evening(db.get_db(), table_id)
    except (TableNotFound, RosterError):
        return None


def print_results(table_id: str, paper: str):
    """The results laid out for one paper (A4, Letter, 80 or 58 mm receipt)."""
    if paper not in PAPERS:
        abort(404)
    found = Finished(table_id)
    if not found.finished:
        return _pending(found)
    return render_template(
        "print_results.html",
        **found.context(),
        paper=paper,
        layout=PAPERS[paper],
        printed=formats.date_time(datetime.now(UTC)),
        long_words={
            player["seat"]
            for player in found.final["players"]
            if has_long_word(player["name"], paper)
        },
    )


def has_long_word(name: str, paper: str) -> bool:
    """True when a word of `name` is longer than a line of the `paper` receipt holds."""
    longest = LONG_WORD.get(paper)
    return bool(longest) and max(map(len, name.split()), default=0) > longest


def qr_image(table_id: str, kind: str, fmt: str):
    """A QR code (results link or BG Stats import) as a downloadable SVG or PNG."""
    if kind not in QR_KINDS or fmt not in ("svg", "png"):
        abort(404)
    found = Finished(table_id)
    if not found.finished:
        return _pending(found)
    text = found.qr_text(kind)
    if fmt == "svg":
        body, mimetype = qr.svg(text, label=found.qr_caption(kind)), "image/svg+xml"
    else:
        body, mimetype = qr.png(text), "image/png"
    filename = f"results-{table_id}-{kind}.{fmt}"
    disposition = "attachment" if request.args.get("download") else "inline"
    return Response(
        body,
        mimetype=mimetype,
        headers={"Content-Disposition": f'{disposition}; filename="{filename}"'},
    )


def export_game(table_id: str):
    """The table as JSON: setup, the whole log, the results and the verification code.

    While the game runs the results hold what players keep hidden (scoring/secrecy.py), so
    only a device that may edit the table gets a file, others the not-finished page; and
    on that device (a shared screen) the log's secret fields are markers and the results
    and code are held back (the code of each version would let the log be guessed), unless
    the scorer tapped Show on this device (web/secrecy.py).
    """
    found = Finished(table_id)
    if not found.finished and not rights.can_edit(table_id):
        return _pending(found)
    log = secrecy.log_view(found.table, found.entries)
    data = history.game_export(found.table, log["entries"], found.final, found.code)
    if log["secrets"]["hidden"]:
        data = history.concealed_export(data, log["setup"], log["secrets"]["hidden"])
    response = current_app.json.response(data)
    response.headers["Content-Disposition"] = f'attachment; filename="game-{table_id}.json"'
    return response


def finished_plays() -> list[dict]:
    """Every finished table as a history row, most recent first."""
    store = get_store()
    people = roster.seat_people_map(db.get_db())
    plays = []
    for table in store.list_tables():
        if not table.finished:
            continue
        final = get_game(table.game).results(table.state)
        if not final["finished"]:
            continue
        code = verification_code_of(table)
        play = history.make_play(table, final, title_of(table.game), code)
        for player in play["players"]:
            person = people.get((table.id, player["seat"]))
            if person is not None:
                player["person"], player["person_name"] = person
        play["tiebreak_texts"] = tiebreak_texts(table.game, final)
        plays.append(play)
    return plays


def _filters() -> tuple[str, str]:
    """The game and player the history is filtered by (empty: all)."""
    return request.args.get("game", "").strip(), request.args.get("player", "").strip()


def games_history():
    """Finished games, filterable by game and player, with per-player statistics."""
    plays = finished_plays()
    game, player = _filters()
    shown = history.filter_plays(plays, game, player)
    games = sorted({(play["game"], play["title"]) for play in plays}, key=lambda g: g[1])
    names = sorted(
        {p.get("person_name", p["name"]) for play in plays for p in play["players"]},
        key=str.casefold,
    )
    return render_template(
        "history_games.html",
        plays=shown,
        games=games,
        names=names,
        game=game,
        player=player,
        stats=history.player_stats(shown),
    )


def history_csv():
    """The (filtered) history as CSV, one line per player per game."""
    game, player = _filters()
    text = history.history_csv(history.filter_plays(finished_plays(), game, player))
    return Response(
        "\ufeff" + text,  # the BOM makes spreadsheets read the Czech names as UTF-8
        mimetype="text/csv",
        headers={"Content-Disposition": 'attachment; filename="history.csv"'},
    )
