#!/usr/bin/env bash
# Install what the firmware tests need, idempotently and quickly when already done:
# Node with MicroPython's WebAssembly build (npm, pinned by package-lock.json) and the ESP32
# MicroPython stubs in typings/ for mypy. Registries only: npm and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."

STUBS="micropython-esp32-esp32-generic-stubs==1.27.0.post1"
STUBS_STAMP="typings/micropython_esp32_esp32_generic_stubs-1.27.0.post1.dist-info"
MP_PACKAGE="node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs"

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# Node 20 and npm (Debian's packages when missing).
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi

# MicroPython for Node, exactly as locked; skipped when node_modules is current.
if [ ! -f "$MP_PACKAGE" ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

# ESP32 stubs for mypy: they must live outside the venv (see firmware/mypy.ini).
if [ ! -d "$STUBS_STAMP" ]; then
  PYTHON=".venv/bin/python"
  [ -x "$PYTHON" ] || PYTHON="python3"
  rm -rf typings
  "$PYTHON" -m pip install --quiet --disable-pip-version-check --no-compile \
    --target typings "$STUBS"
fi
