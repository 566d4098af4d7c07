#!/usr/bin/env bash
# Set up everything the tests need on a fresh Debian machine, then run every test (extra args go to pytest).
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# Debian's Chromium drives the browser tests; nothing downloads a browser of its own.
if ! command -v chromium >/dev/null 2>&1; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check -e '.[test]'

.venv/bin/ruff check --quiet .
bash scripts/setup-firmware-tests.sh
# Both cores (pytest-xdist; worksteal keeps the long browser walks from waiting behind each
# other); the slowest tests are listed at the end. COMPANION_LONG_PROPERTIES=1 plays the
# property tests' full game counts (tests/game_counts.py).
.venv/bin/python -m pytest -q -n auto --dist worksteal --durations=15 "$@"
