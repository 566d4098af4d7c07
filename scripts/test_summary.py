"""Print what failed in the test command's pytest runs, last, so a CI log's tail says it.

The test command runs pytest twice (the parallel part, then the `alone` part), so pytest's own
short summary of the first run scrolls away under the second. Each run writes a JUnit XML
report; this reads them in order and prints every failing or erroring test with its first
line and where it failed, then one closing line of totals ("N passed, N failed").
"""

import re
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

# The last "path:line: Error" line of a long report is where the failure was raised.
LOCATION = re.compile(r"^(\S+\.py):(\d+)(: |$)")


@dataclass
class Part:
    """One pytest run's tally and its failures."""

    name: str
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    problems: list[str] = field(default_factory=list)


def main(argv: list[str]) -> int:
    """Read `name=report.xml` pairs, print the failures and totals; exit 0 (it only reports)."""
    parts = [read_part(*pair.split("=", 1)) for pair in argv]
    problems = [line for part in parts for line in part.problems]
    if problems:
        print(f"\n==== what failed ({len(problems)}) ====")
        for line in problems:
            print(line)
    passed = sum(part.passed for part in parts)
    failed = sum(part.failed for part in parts)
    skipped = sum(part.skipped for part in parts)
    print(f"\nsummary: {passed} passed, {failed} failed, {skipped} skipped")
    return 0


def read_part(name: str, report: str) -> Part:
    """The tally of one run from its JUnit XML; a run that wrote none is one failure."""
    part = Part(name)
    path = Path(report)
    if not path.is_file():
        part.failed = 1
        part.problems.append(f"[{name}] pytest wrote no report ({report}): read the log above")
        return part
    for case in ET.parse(path).getroot().iter("testcase"):
        tally(part, case)
    return part


def tally(part: Part, case: ET.Element) -> None:
    """Count one test case; note it when it failed or erred."""
    bad = case.find("failure")
    if bad is None:
        bad = case.find("error")
    if bad is not None:
        part.failed += 1
        part.problems.append(describe(part.name, case, bad))
    elif case.find("skipped") is not None:
        part.skipped += 1
    else:
        part.passed += 1


def describe(part_name: str, case: ET.Element, bad: ET.Element) -> str:
    """`FAILED [part] tests/x.py::test_y (at file:line)` and the failure's first line."""
    test_id = node_id(case)
    kind = "FAILED" if bad.tag == "failure" else "ERROR"
    message = first_line(bad.get("message") or "")
    if not message or message.startswith("failed on "):
        # A set-up or teardown error's message only says where; its first "E" line says what.
        message = first_error_line(bad.text or "") or message
    where = location(bad.text or "")
    at = f" (at {where})" if where else ""
    return f"{kind} [{part_name}] {test_id}{at}\n    {message}"


def node_id(case: ET.Element) -> str:
    """pytest's node id, from the test's file (xunit1 names it), dotted class name and name."""
    classname, name = case.get("classname", ""), case.get("name", "")
    path = case.get("file")
    if path:
        module = path.removesuffix(".py").replace("/", ".")
        klass = classname.removeprefix(module).lstrip(".")
    else:  # xunit2 names no file: the module ends before the first capitalised piece (a class)
        pieces = classname.split(".")
        cut = next((i for i, piece in enumerate(pieces) if piece[:1].isupper()), len(pieces))
        path = "/".join(pieces[:cut]) + ".py"
        klass = ".".join(pieces[cut:])
    return "::".join(bit for bit in (path, klass.replace(".", "::"), name) if bit)


def first_line(text: str) -> str:
    """The first non-blank line, cut to 300 characters."""
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:300]
    return ""


def first_error_line(text: str) -> str:
    """The first line pytest marked with "E" in a long report."""
    for line in text.splitlines():
        if line.startswith("E "):
            return line[1:].strip()[:300]
    return ""


def location(text: str) -> str:
    """`file:line` of the last raise in a long report, if it names one."""
    found = ""
    for line in text.splitlines():
        match = LOCATION.match(line.strip())
        if match:
            found = f"{match.group(1)}:{match.group(2)}"
    return found


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
