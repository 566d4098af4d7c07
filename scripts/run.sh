#!/usr/bin/env bash
# Set up the companion in .venv and serve it on http://127.0.0.1:5000 (extra args go to `companion serve`).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check -e .
exec .venv/bin/companion serve "$@"
