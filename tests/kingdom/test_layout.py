"""The kingdom package is laid out like the rules document (docs/architecture.md, "kingdom package layout"): one
module per section, each opening with a docstring that names it, and the sections below the dispatcher.
(Import circles and module sizes over the whole package are checked in tests/core/test_layout.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

import conquest.rulesets.kingdom as kingdom

PKG = Path(kingdom.__file__).parent
MODULES = {p.stem: p for p in PKG.glob("*.py")}
# the headings of rules document 002, in its order, and the module of each
SECTIONS = {"setup": "SETUP", "phases": "MODIFICATIONS TO THE GAME PHASES", "conquest_phase": "CONQUEST PHASE",
            "recruit": "Recruit Armies", "move": "Move Armies", "stop": "Stop Your Conquest",
            "bonus": "BONUS EFFECTS", "end": "END OF THE GAME"}
ABOVE = {"turn", "reasons", "serial", "rules", "view", "webboard", "ruleset", "narrate"}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            base = node.module
            if base == "conquest.rulesets.kingdom":
                found.update(alias.name for alias in node.names)
            elif base.startswith("conquest.rulesets.kingdom."):
                found.add(base.rsplit(".", 1)[1])
    return found


def test_sections_open_with_their_heading() -> None:
    for stem, heading in SECTIONS.items():
        doc = ast.get_docstring(ast.parse(MODULES[stem].read_text()))
        assert doc is not None and doc.startswith(heading) and "rules document ``002``" in doc, stem
    for stem, path in MODULES.items():
        assert ast.get_docstring(ast.parse(path.read_text())), f"{stem}.py has no docstring"


def test_sections_never_import_the_layers_above_them() -> None:
    for stem in [*SECTIONS, "state", "base", "board"]:
        above = _imports(MODULES[stem]) & ABOVE
        assert not above, f"{stem}.py imports {sorted(above)}, which sit above the sections"


def test_the_import_reader_sees_a_section_import() -> None:
    assert {"conquest_phase", "phases", "state"} <= _imports(MODULES["stop"])
