"""The narby package is laid out like the rules document (docs/architecture.md, "narby package layout"): one
module per section, each opening with a docstring that names it. (Import circles, module sizes and the layering
of the whole package are checked in tests/core/test_layout.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

import conquest.rulesets.narby as narby

PKG = Path(narby.__file__).parent
MODULES = {p.stem: p for p in PKG.glob("*.py")}


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
