"""What stands between HTTP and the app: the error shape, strict JSON, checks, the server.

`errors` answers every refusal as `{"error": ...}` under /api and as a short page elsewhere;
`jsonio` reads request bodies and CLI sheets strictly; `guard` checks every request's host
and cross-site writes (docs/security.md). `serve` runs the app with uvicorn and prints where
the tablet should point: its front (`asgi`) holds the live pages' streams and the device
long polls on an event loop (the `live` package: hub, groups, renders, pages) and hands
every other request to Flask in a thread pool (`wsgi`; docs/live.md). May import `store`,
`i18n`, `config` and `scoring` (docs/architecture.md).
"""
