"""Errors handled in one place: `{"error": "<sentence>"}` under /api, a short page elsewhere.

Nothing here ever shows a traceback; an unexpected exception is logged and answered with a
plain sentence (the store rolls back its transaction, so nothing half-done was kept). A full,
read-only or failing disk is no surprise but a state of the machine: 503 with what happened,
logged without a traceback, a line per kind per store/faults.LOG_EVERY_S.
"""

from flask import Flask, Response, current_app, render_template_string, request
from flask_babel import gettext
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from companion_app.i18n import get_locale
from companion_app.store import StaleVersion, StoreError, TableNotFound, TooManyTables, faults
from scoring.errors import N_, RuleError

API_PREFIX = "/api"
BAD_REQUEST, NOT_FOUND, METHOD_NOT_ALLOWED, CONFLICT = 400, 404, 405, 409
TOO_MANY_REQUESTS = 429
TOO_LARGE, SERVER_ERROR, UNAVAILABLE = 413, 500, 503
UNEXPECTED = N_("Something went wrong on the server; nothing was changed. Please try again.")

_PAGE = """<!doctype html>
<html lang="{{ lang }}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ status }} · {{ title }}</title></head>
<body><main><h1>{{ title }}</h1><p>{{ message }}</p>
<p><a href="/">{{ back }}</a></p></main></body></html>
"""


class ApiError(Exception):
    """A request the API refuses before it reaches the rules (shape, type, encoding)."""

    def __init__(self, status: int, message: str) -> None:
        """A refusal with its HTTP status and sentence."""
        self.status = status
        super().__init__(message)


def _wants_json() -> bool:
    """True for API paths, which always answer in JSON."""
    path = request.path
    return path == API_PREFIX or path.startswith(API_PREFIX + "/")


def respond(status: int, message: str, *, translated: str | None = None) -> Response:
    """The error as JSON for the API, or as a short escaped HTML page."""
    if _wants_json():
        response = current_app.json.response({"error": message})
    else:
        page = render_template_string(
            _PAGE,
            lang=get_locale(),
            status=status,
            title=gettext("That did not work"),
            message=translated or message,
            back=gettext("Back to the tables"),
        )
        response = Response(page, mimetype="text/html")
    response.status_code = status
    return response


def _translated(error: RuleError | StoreError) -> str:
    """The error's sentence in the page's language (its template translated, then filled)."""
    return (
        gettext(error.template).format(**error.params) if error.params else gettext(error.template)
    )


def _http_message(error: HTTPException) -> str:
    """A sentence for an HTTP-level refusal (unknown path, wrong method, body too large)."""
    if error.code == NOT_FOUND:
        return f"There is nothing at {request.path[:80]}."
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        allowed = " or ".join(sorted(set(error.valid_methods) - {"HEAD", "OPTIONS"}))
        return f"{request.method} is not allowed on {request.path[:80]}; use {allowed}."
    if error.code == TOO_LARGE:
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        return f"The request body is larger than the limit of {limit} bytes."
    return error.description or error.name


def refuse(status: int, template: str, **params: object) -> Response:
    """A refusal made before any view ran (server/guard.py): English JSON, translated page."""
    message = template.format(**params)
    return respond(status, message, translated=gettext(template).format(**params))


def handle_http(error: HTTPException) -> Response:
    """Unknown URLs, wrong methods, oversize bodies and other HTTP-level refusals."""
    response = respond(error.code or BAD_REQUEST, _http_message(error))
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        response.headers["Allow"] = ", ".join(error.valid_methods)
    return response


def handle_api_error(error: ApiError) -> Response:
    """A request refused for its shape before reaching the rules."""
    return respond(error.status, str(error))


def handle_rule_error(error: RuleError) -> Response:
    """A move, setup or sheet the rules refuse: 400 with the rule's sentence."""
    return respond(BAD_REQUEST, str(error), translated=_translated(error))


def handle_not_found(error: TableNotFound) -> Response:
    """A table id that does not exist."""
    return respond(NOT_FOUND, str(error), translated=_translated(error))


def handle_stale(error: StaleVersion) -> Response:
    """A move or undo sent against an older version of the table."""
    return respond(CONFLICT, str(error), translated=_translated(error))


def handle_too_many_tables(error: TooManyTables) -> Response:
    """A device that started its share of tables this hour: 429, and when to try again."""
    response = respond(TOO_MANY_REQUESTS, str(error), translated=_translated(error))
    response.headers["Retry-After"] = str(error.retry_after_s)
    return response


def handle_store_refusal(error: StoreError) -> Response:
    """Any other store refusal (a table its host abandoned): 409, nothing changed."""
    return respond(CONFLICT, str(error), translated=_translated(error))


def handle_storage_fault(error: faults.StorageFault) -> Response:
    """A write the disk refused (full, read-only, failing): 503, nothing was changed."""
    return respond(UNAVAILABLE, str(error), translated=_translated(error))


def handle_unexpected(error: Exception) -> Response:
    """Any other exception: log it with its traceback, answer with a plain sentence.

    A storage fault met outside the store's write transactions (a file of the instance folder,
    a read on a failing disk) is answered and logged as in handle_storage_fault.
    """
    kind = faults.classify(error, current_app.instance_path)
    if kind is not None:
        faults.report(kind, error)
        return handle_storage_fault(faults.StorageFault(kind))
    current_app.logger.error(
        "Unhandled error on %s %s", request.method, request.path, exc_info=error
    )
    return respond(SERVER_ERROR, UNEXPECTED, translated=gettext(UNEXPECTED))


def init_app(app: Flask) -> None:
    """Register every handler on the app (so they cover unknown /api paths too)."""
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(ApiError, handle_api_error)
    app.register_error_handler(RuleError, handle_rule_error)
    app.register_error_handler(TableNotFound, handle_not_found)
    app.register_error_handler(StaleVersion, handle_stale)
    app.register_error_handler(TooManyTables, handle_too_many_tables)
    app.register_error_handler(faults.StorageFault, handle_storage_fault)
    app.register_error_handler(StoreError, handle_store_refusal)
    app.register_error_handler(Exception, handle_unexpected)
