"""The test command's closing summary (scripts/test_summary.py), issue 35 item 2."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "test_summary.py"
SPEC = importlib.util.spec_from_file_location("test_summary", SCRIPT)
summary = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(summary)

# What pytest 9's --junitxml writes for a pass, an assertion, a set-up error and a skip (the
# walk's cases as xunit1 writes them, with their file; the box's as xunit2, without).
REPORT = """<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests">
<testsuite name="pytest" errors="1" failures="1" skipped="1" tests="4">
<testcase classname="tests.web.test_walk" name="test_ok[cs-1024]" file="tests/web/test_walk.py" />
<testcase classname="tests.web.test_walk" name="test_bad" file="tests/web/test_walk.py">
<failure message="AssertionError: the dice are out of view&#10;assert 812 &lt;= 768">def test_bad():
&gt;       assert bottom &lt;= 768, "the dice are out of view"
E       AssertionError: the dice are out of view

tests/web/test_walk.py:41: AssertionError</failure></testcase>
<testcase classname="tests.device.test_box.TestBoot" name="test_err" time="0.0">
<error message="failed on setup with &quot;file tests/device/test_box.py, line 7">
file tests/device/test_box.py, line 7
E       fixture 'board' not found

tests/device/test_box.py:7</error></testcase>
<testcase classname="tests.web.test_walk" name="test_later" time="0.0">
<skipped type="pytest.skip" message="no">tests/web/test_walk.py:50: no</skipped></testcase>
</testsuite></testsuites>
"""


def test_every_failure_is_printed_last_with_where_and_its_first_line(tmp_path, capsys):
    """Both parts' failures come after everything else, then one closing line of totals."""
    (tmp_path / "parallel.xml").write_text(REPORT)
    (tmp_path / "alone.xml").write_text(REPORT.replace("test_walk", "test_strip"))

    summary.main([f"parallel={tmp_path / 'parallel.xml'}", f"alone={tmp_path / 'alone.xml'}"])

    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] == "summary: 2 passed, 4 failed, 2 skipped"
    assert "FAILED [parallel] tests/web/test_walk.py::test_bad (at tests/web/test_walk.py:41)" in (
        lines
    )
    assert "    AssertionError: the dice are out of view" in lines
    assert (
        "ERROR [parallel] tests/device/test_box.py::TestBoot::test_err"
        + (" (at tests/device/test_box.py:7)")
        in lines
    )
    assert "    fixture 'board' not found" in lines  # what, not only where
    assert (
        "FAILED [alone] tests/web/test_strip.py::test_bad" + (" (at tests/web/test_strip.py:41)")
        in lines
    )


def test_a_part_that_wrote_no_report_is_a_failure(tmp_path, capsys):
    """pytest that died before writing its report is not read as a green part."""
    (tmp_path / "parallel.xml").write_text(REPORT)

    summary.main([f"parallel={tmp_path / 'parallel.xml'}", f"alone={tmp_path / 'none.xml'}"])

    out = capsys.readouterr().out
    assert "[alone] pytest wrote no report" in out
    assert out.strip().splitlines()[-1] == "summary: 1 passed, 3 failed, 1 skipped"


def test_a_green_run_prints_only_the_totals(tmp_path, capsys):
    """Nothing failed: no failure heading, just the closing line."""
    green = REPORT.split("<testcase")[0] + (
        '<testcase classname="tests.test_a" name="test_b" /></testsuite></testsuites>'
    )
    (tmp_path / "parallel.xml").write_text(green)

    summary.main([f"parallel={tmp_path / 'parallel.xml'}"])

    assert capsys.readouterr().out.strip() == "summary: 1 passed, 0 failed, 0 skipped"
