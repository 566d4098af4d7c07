"""Imports point down the house of docs/architecture.md, and nothing imports itself back.

Every `import` and `from ... import` in `companion_app/` (at module level or inside a
function) is read with `ast`, mapped to the room it lands in and checked against ALLOWED;
`scoring/` and `firmware/` import nothing of the app. No module of the app, the rules, the
firmware or the simulated board imports, through others, a module that imports it: the
firmware and the simulated board's modules import each other flat (`import protocol`), as on
the board, and are resolved that way. The checker is tested on made-up wrong imports too, so
a broken checker cannot pass silently.
"""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = "companion_app"

#: The app's rooms and the rooms each may import (its own room always; `scoring` always).
#: The factory (`companion_app/__init__.py`) and the CLI (`cli/`) wire everything.
ALLOWED = {
    "web": {"games", "results", "club", "device", "server", "store", "i18n", "config"},
    "api": {"device", "server", "store", "i18n", "config"},
    "games": {"store", "i18n", "config"},
    "results": set(),
    "club": {"store", "i18n", "config"},
    "device": {"bridge", "store", "config"},
    "simulator": {"bridge"},
    "bridge": set(),
    "server": {"store", "i18n", "config"},
    "store": {"config"},
    "i18n": {"config"},
    "config": set(),
}
WIRING = {"factory", "cli"}
#: Folders whose modules import by bare name, as MicroPython does, and where a bare name is
#: looked up: the firmware finds its own modules (`machine` is the board's, built in); the
#: simulated board's modules find their own, then the firmware's (both are on its path).
FLAT_FOLDERS = {
    "firmware": ("firmware",),
    f"{APP}/simulator/board": (f"{APP}/simulator/board", "firmware"),
}
#: Every tree whose modules must not import in a circle.
TREES = (APP, "scoring", "firmware")
#: What the pure rules and the MicroPython firmware may never import.
FOREIGN_TO_RULES = (APP, "flask", "flask_babel", "werkzeug", "uvicorn", "a2wsgi")


def room(module: str) -> str | None:
    """The room a module of the app lives in (None for modules outside the app)."""
    parts = module.split(".")
    if parts[0] != APP:
        return None
    if len(parts) == 1:
        return "factory"
    return parts[1]


def module_name(path: Path) -> str:
    """The dotted module name of a source file under ROOT."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in a file, `from x import y` resolved to x.y if a file."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((node.lineno, flat_module(alias.name, path) or alias.name))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if not node.level and flat_module(base, path):
                found.append((node.lineno, flat_module(base, path)))
                continue
            if node.level:  # relative: one dot is this package, each more dot one up
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, node.module] if node.module else parts)
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.append((node.lineno, candidate if is_module(candidate) else base))
    return found


def flat_module(name: str, path: Path) -> str | None:
    """The module a bare `import name` in a file of the firmware or the simulated board
    lands in (None for a module of MicroPython's own, or a file not in such a folder)."""
    for folder, search in FLAT_FOLDERS.items():
        if path.parent == ROOT / folder:
            for place in search:
                if (ROOT / place / f"{name}.py").is_file():
                    return module_name(ROOT / place / f"{name}.py")
    return None


def is_module(dotted: str) -> bool:
    """True if `dotted` names a module or package file in the repository."""
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def violations(edges: list[tuple[str, int, str]]) -> list[str]:
    """Every (importer, line, imported) edge that points against ALLOWED, as a sentence."""
    wrong = []
    for importer, line, imported in edges:
        source, target = room(importer), room(imported)
        if source is None or target is None or source == target or source in WIRING:
            continue
        if target not in ALLOWED[source]:
            wrong.append(f"{importer}:{line} imports {imported} ({source} -> {target})")
    return wrong


def cycles(edges: list[tuple[str, int, str]]) -> list[list[str]]:
    """The import circles among the given modules (strongly connected groups of two or more)."""
    graph: dict[str, set[str]] = {}
    for importer, _, imported in edges:
        if imported != importer:
            graph.setdefault(importer, set()).add(imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def edges_of(folder: str) -> list[tuple[str, int, str]]:
    """(importer, line, imported) for every import in every source file under `folder`."""
    return [
        (module_name(path), line, imported)
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line, imported in imported_modules(path)
    ]


def test_every_room_of_the_app_is_known():
    """A new package must be placed in the house (ALLOWED) before it can be imported."""
    rooms = {room(module_name(path)) for path in (ROOT / APP).rglob("*.py")}
    assert rooms <= set(ALLOWED) | WIRING, sorted(rooms - set(ALLOWED) - WIRING)


def test_the_top_level_holds_only_packages_the_factory_and_config():
    """companion_app/ has packages (cli/ among them), __init__.py (the factory) and config.py."""
    modules = {path.name for path in (ROOT / APP).glob("*.py")}
    assert modules == {"__init__.py", "config.py"}


def test_app_imports_point_down():
    """web/api -> games/results/device/server -> store/i18n -> config -> scoring, never up."""
    assert violations(edges_of(APP)) == []


def test_no_import_circle_at_any_depth():
    """No module of the app, the rules, the firmware or the simulated board imports, through
    others, a module that imports it (inside one package or across packages)."""
    edges = [edge for tree in TREES for edge in edges_of(tree)]
    known = {module for module, _, _ in edges}
    assert cycles([edge for edge in edges if edge[2] in known]) == []


def test_flat_imports_resolve_to_the_firmware_and_the_board():
    """`import protocol` in the firmware and `import simhost` on the board are edges too."""
    edges = edges_of("firmware") + edges_of(f"{APP}/simulator/board")
    assert ("firmware.box", "firmware.protocol") in {(a, b) for a, _, b in edges}
    board = f"{APP}.simulator.board"
    assert (f"{board}.machine", f"{board}.simhost") in {(a, b) for a, _, b in edges}


def test_every_process_has_its_own_folder():
    """The server's view of the box, the bridge and the simulator never import the pages,
    the API or the store from the bridge's side: the bridge talks to the app over HTTP."""
    bridge_side = [
        f"{importer}:{line} imports {imported}"
        for importer, line, imported in edges_of(f"{APP}/bridge") + edges_of(f"{APP}/simulator")
        if room(imported) not in (None, "bridge", "simulator")
    ]
    assert bridge_side == []


@pytest.mark.parametrize("folder", ["scoring", "firmware"])
def test_rules_and_firmware_import_nothing_of_the_app(folder):
    """The pure rules and the firmware never reach into the app, Flask or the server."""
    wrong = [
        f"{importer}:{line} imports {imported}"
        for importer, line, imported in edges_of(folder)
        if imported.split(".")[0] in FOREIGN_TO_RULES
    ]
    assert wrong == []


@pytest.mark.parametrize(
    "importer, imported",
    [
        (f"{APP}.store.tables", f"{APP}.web.pages"),  # the store reaching up to the pages
        (f"{APP}.games.razzia", f"{APP}.web.score"),  # a game view reaching into web
        (f"{APP}.bridge.link", f"{APP}.store.tables"),  # the bridge reading the database
        (f"{APP}.bridge.driver", f"{APP}.simulator.box"),  # the bridge starting a simulator
        (f"{APP}.results.qr", f"{APP}.store"),  # results are pure
        (f"{APP}.i18n", f"{APP}.api.tables"),
    ],
)
def test_the_checker_refuses_an_upward_import(importer, imported):
    """A made-up wrong import is reported, naming both modules."""
    found = violations([(importer, 1, imported)])
    assert len(found) == 1 and importer in found[0] and imported in found[0]


def test_the_checker_allows_a_downward_import_and_wiring():
    """Imports down the house, inside one room, and from the factory or the CLI pass."""
    edges = [
        (f"{APP}.web.tables", 1, f"{APP}.store"),
        (f"{APP}.store.tables", 1, f"{APP}.store.reveal_gate"),
        (f"{APP}.device.feed", 1, f"{APP}.store.reveals"),
        (APP, 1, f"{APP}.web"),
        (f"{APP}.cli", 1, f"{APP}.store.changes"),
    ]
    assert violations(edges) == []


def test_the_checker_finds_a_circle():
    """Two modules that import each other (the old store <-> reveal) are one circle."""
    edges = [("a.store", 1, "a.reveal"), ("a.reveal", 2, "a.store"), ("a.web", 1, "a.store")]
    assert cycles(edges) == [["a.reveal", "a.store"]]


def test_the_checker_finds_a_circle_deep_inside_a_package():
    """The old Klub board <-> chart circle, two levels down in scoring, and a longer one."""
    club = "scoring.prodigals_club"
    edges = [(f"{club}.board", 1, f"{club}.chart"), (f"{club}.chart", 5, f"{club}.board")]
    assert cycles(edges) == [[f"{club}.board", f"{club}.chart"]]
    ring = [("x.a.b", 1, "x.a.c"), ("x.a.c", 1, "x.d"), ("x.d", 1, "x.a.b")]
    assert cycles(ring) == [["x.a.b", "x.a.c", "x.d"]]


def test_the_checker_reads_flat_board_imports_into_a_circle(tmp_path, monkeypatch):
    """The old simulated board: machine imports simhost, simhost imports machine back."""
    board = tmp_path / "firmware"
    board.mkdir()
    (board / "machine.py").write_text("import simhost\n")
    (board / "simhost.py").write_text("def press():\n    import machine\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert cycles(edges_of("firmware")) == [["firmware.machine", "firmware.simhost"]]
