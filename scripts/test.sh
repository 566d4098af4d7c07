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
# Two workers a core, at most 8 (pytest-xdist; worksteal keeps the long browser walks from
# waiting behind each other): many tests wait on real time (a simulated box runs on its own
# clock, the server's deadlines, a button held), and while one waits another runs (pytest on
# two cores: 631 s with 2 workers, 368 s with 4, 378 s with 6). The slowest tests are listed
# at the end; then, alone, the tests that hold real time to a bound (marker `alone`: the
# fault suite's 3 s recoveries, the panel and strip agreeing), which busy neighbours would fail.
# COMPANION_LONG_PROPERTIES=1 plays the property tests' full game counts (tests/game_counts.py).
# Exit status 5 (no test selected: extra arguments chose none of that part) is no failure.
# Each part writes a JUnit report, and scripts/test_summary.py prints every failure of both
# parts last (name, where, first line), so the tail of a CI log says what went wrong.
workers=$(( $(nproc) * 2 ))
[ "$workers" -le 8 ] || workers=8
reports=test-artifacts/reports
rm -rf "$reports" && mkdir -p "$reports"
status=0
run() {
  local part=$1 && shift
  .venv/bin/python -m pytest -q --junitxml="$reports/$part.xml" "$@" \
    || { rc=$?; [ "$rc" -eq 5 ] || status=$rc; }
}
run parallel -n "$workers" --dist worksteal --durations=15 -m "not alone" "$@"
run alone -m alone "$@"
.venv/bin/python scripts/test_summary.py "parallel=$reports/parallel.xml" "alone=$reports/alone.xml"
exit "$status"
