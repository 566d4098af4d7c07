"""The tablet's pages: home, tables, history, results, calculators, the on-screen box.

`pages` is the blueprint and its URL map; each page module holds the views of one screen and
asks the game's own view module (`companion_app.games`) for what is game-specific. May import
`games`, `results`, `device`, `server`, `store`, `i18n`, `config` and `scoring`
(docs/architecture.md).
"""

from flask import Flask

from companion_app.web import device, pages


def init_app(app: Flask) -> None:
    """Register the pages' blueprints."""
    app.register_blueprint(pages.bp)
    app.register_blueprint(device.bp)
