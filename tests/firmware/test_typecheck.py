"""The firmware type-checks against the ESP32 MicroPython stubs (mypy, firmware/mypy.ini)."""

import subprocess
import sys

import pytest

from .conftest import ROOT, SETUP_HINT


def test_firmware_type_checks_against_the_esp32_stubs():
    if not (ROOT / "typings" / "machine.pyi").is_file():
        pytest.fail("the ESP32 stubs are not in typings/: " + SETUP_HINT)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "firmware/mypy.ini"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    files = len(list((ROOT / "firmware").glob("*.py")))  # every module, boxfault.py too
    assert f"no issues found in {files} source files" in result.stdout


def test_the_stubs_catch_a_wrong_machine_call(tmp_path):
    if not (ROOT / "typings" / "machine.pyi").is_file():
        pytest.fail("the ESP32 stubs are not in typings/: " + SETUP_HINT)
    bad = tmp_path / "bad.py"
    bad.write_text("import machine\nmachine.Pin(13, machine.Pin.PULLUP)\n")
    config = tmp_path / "mypy.ini"
    config.write_text(
        (ROOT / "firmware" / "mypy.ini")
        .read_text()
        .replace("$MYPY_CONFIG_FILE_DIR/..", str(ROOT))
        .replace("files = $MYPY_CONFIG_FILE_DIR/*.py", f"files = {bad}")
    )
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 1 and "PULLUP" in result.stdout, result.stdout
