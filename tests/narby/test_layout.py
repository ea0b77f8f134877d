"""The narby package is laid out like the rules document (docs/architecture.md, "narby package layout"): one
module per section, each opening with a docstring that names it, no module over about 800 lines, and no cycle
among the package's imports (function-level imports included)."""

from __future__ import annotations

import ast
from pathlib import Path

import conquest.rulesets.narby as narby

PKG = Path(narby.__file__).parent
PREFIX = "conquest.rulesets.narby"
MODULES = {p.stem: p for p in PKG.glob("*.py")}


def _imports(path: Path) -> set[str]:
    """The package's modules that ``path`` imports anywhere in its body."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            if name.startswith(PREFIX + "."):
                stem = name[len(PREFIX) + 1:].split(".")[0]
                if stem in MODULES:
                    out.add(stem)
    return out


def test_no_import_cycle() -> None:
    graph = {m: _imports(p) - {m} for m, p in MODULES.items()}
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph[m]):
            assert state.get(n) != 1, "import cycle: " + " -> ".join(path + [m, n])
            if n not in state:
                visit(n, path + [m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])
    # the dispatcher imports the sections; no section imports it back
    assert {"setup", "draw", "populate", "action_phase", "tribute"} <= graph["turn"]
    assert all("turn" not in graph[m] for m in MODULES if m not in ("rules", "ruleset", "__init__"))


def test_sections_open_with_their_docstring_and_stay_small() -> None:
    sections = {"setup": "Setup", "draw": "Draw Phase", "populate": "Populate Phase",
                "places": "Places of Power", "action_phase": "Action Phase", "actions": "Actions",
                "charts": "Charts", "tribute": "Tribute Phase", "cards": "Cards"}
    for stem, heading in sections.items():
        doc = ast.get_docstring(ast.parse(MODULES[stem].read_text()))
        assert doc is not None and doc.startswith(heading) and "rules document 001" in doc, stem
    for stem, path in MODULES.items():
        assert ast.get_docstring(ast.parse(path.read_text())), f"{stem}.py has no docstring"
        assert len(path.read_text().splitlines()) <= 800, f"{stem}.py is over 800 lines"
