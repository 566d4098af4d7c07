"""The JSON API under /api: tables, moves, undo, history, the calculator, and the box's endpoints.

May import `server`, `device`, `store`, `i18n`, `config` and `scoring` (docs/architecture.md).
"""

from flask import Flask

from companion_app.api import device, tables


def init_app(app: Flask) -> None:
    """Register the API's blueprints."""
    app.register_blueprint(tables.bp)
    app.register_blueprint(device.bp)
