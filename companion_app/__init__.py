"""The companion's Flask app: `create_app()` wires the store, the API, the pages and i18n.

Flask and the app's modules are imported when an app is built, not with the package: a
`companion device run` imports none of them, and a bridge restarted after a `kill -9` shows
the box the table again sooner (issue 34, item 5; bench/bench_bridge_start.py).
"""

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict | None = None, instance_path: str | None = None) -> "Flask":
    """Build the app; `test_config` overrides the config, `instance_path` the instance folder."""
    from flask import Flask

    from companion_app import config
    from companion_app.config import Config

    app = Flask(__name__, instance_relative_config=True, instance_path=instance_path)
    app.config.from_object(Config())
    if test_config:
        app.config.update(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    config.init_app(app)

    from companion_app import api, i18n, store, web
    from companion_app.server import errors, guard, guesses, rights
    from companion_app.server.live import pages as live_pages

    store.init_app(app)
    i18n.init_app(app)
    errors.init_app(app)
    guard.init_app(app)
    guesses.init_app(app)  # before the rights: a slowed guesser's key is not compared
    rights.init_app(app)
    api.init_app(app)
    web.init_app(app)
    live_pages.init_app(app)
    return app
