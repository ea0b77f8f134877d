"""The nerath package is laid out by the sections of the rules document: its modules import one another without
a cycle (counting imports inside functions and under TYPE_CHECKING), none is over 800 lines, and each opens with
a docstring naming what it implements."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import conquest.rulesets.nerath as pkg

PKG = "conquest.rulesets.nerath"
HERE = Path(pkg.__file__).parent
MODULES = {p.stem: p for p in HERE.glob("*.py")}


def imports_of(path: Path) -> set[str]:
    """Modules of the package that ``path`` imports anywhere in its text (``__init__`` for the package)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            if name == PKG:
                out.add("__init__")
            elif name.startswith(PKG + ".") and name[len(PKG) + 1:] in MODULES:
                out.add(name[len(PKG) + 1:])
    return out


def test_the_package_imports_form_no_cycle() -> None:
    graph = {m: imports_of(p) - {m} for m, p in MODULES.items()}
    assert "turn" in graph and "effects" in graph["turn"]   # the walk sees the imports it is meant to see
    order = list(graphlib.TopologicalSorter(graph).static_order())   # raises CycleError on a cycle
    assert order.index("state") < order.index("battle") < order.index("turn")


def test_modules_are_short_and_say_what_they_implement() -> None:
    for name, path in MODULES.items():
        text = path.read_text()
        assert len(text.splitlines()) <= 800, f"{name}.py is over 800 lines"
        assert ast.get_docstring(ast.parse(text)), f"{name}.py has no docstring"
