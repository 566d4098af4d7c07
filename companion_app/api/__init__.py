"""The JSON API under /api: tables, moves, undo, history, the calculator, and the box's endpoints.

May import `server`, `device`, `store`, `i18n`, `config` and `scoring` (docs/architecture.md).
"""

from flask import Flask

from companion_app.api import boxcheck, device, tables
from companion_app.server import rights

#: The rights each API write needs; undeclared ones need edit rights on the table in the URL.
POLICIES = {
    "api.create_table": rights.OPEN,  # its creator becomes the host
    "api.post_score": rights.OPEN,  # the calculator stores nothing
    "api.abandon_table": rights.HOST_ONLY,
    "api.restore_table": rights.HOST_ONLY,
    "api_device.press_reveal": rights.BOX_OR_EDIT,
    "api_device.put_device_status": rights.BOX,
    "api_device.put_followed": rights.IN_VIEW,  # rights on the table it points the box at
    "api_check.put_check": rights.BOX,  # the bridge runs the box check
}


def init_app(app: Flask) -> None:
    """Register the API's blueprints and the rights their writes need."""
    app.register_blueprint(tables.bp)
    app.register_blueprint(device.bp)
    app.register_blueprint(boxcheck.bp)
    for endpoint, policy in POLICIES.items():
        rights.declare(app, endpoint, policy)
