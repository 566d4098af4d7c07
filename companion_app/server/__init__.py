"""What stands between HTTP and the app: the one error shape, strict JSON reading, waitress.

`errors` answers every refusal as `{"error": ...}` under /api and as a short page elsewhere;
`jsonio` reads request bodies and CLI sheets strictly; `serve` runs the app with waitress and
prints where the tablet should point. May import `store`, `i18n`, `config` and `scoring`
(docs/architecture.md).
"""
