"""The tablet's pages: home, tables, history, results, calculators, the on-screen box.

`pages` is the blueprint and its URL map; each page module holds the views of one screen and
asks the game's own view module (`companion_app.games`) for what is game-specific. May import
`games`, `results`, `device`, `server`, `store`, `i18n`, `config` and `scoring`
(docs/architecture.md).
"""

from flask import Flask

from companion_app.server import rights
from companion_app.web import assets, club, device, pages

#: Page writes anyone may make: the language, a new table (its creator hosts it), joining
#: with the scorers' key or a seat's key (checked by the view).
OPEN_WRITES = ("web.language", "web.new_table", "web.join", "web.seat_join")


def init_app(app: Flask) -> None:
    """Register the pages' blueprints and the rights their writes need."""
    assets.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(device.bp)
    for endpoint in OPEN_WRITES + pages.CALCULATORS:
        rights.declare(app, endpoint, rights.OPEN)
    rights.declare(app, "web.abandon", rights.HOST_ONLY)
    rights.declare(app, "web.restore", rights.HOST_ONLY)
    rights.declare(app, "web.drop_seat", rights.HOST_ONLY)
    rights.declare(app, "web.seal", rights.SEAT)
    club.init_app(app)
