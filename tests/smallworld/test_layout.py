"""The package's shape: no import cycle inside it (imports inside functions count), no module over 800 lines,
and one entry per race and per power of the data files, each the only place its effects live."""

from __future__ import annotations

import ast
from pathlib import Path

from conquest.rulesets.smallworld import data as D
from conquest.rulesets.smallworld.powers import POWER_RULES, Power
from conquest.rulesets.smallworld.races import RACE_RULES, Race

PKG = "conquest.rulesets.smallworld"
HERE = Path(D.__file__).parent


def _imports(path: Path) -> set[str]:
    """Modules of the package that ``path`` imports, anywhere in the file."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        for n in names:
            if n.startswith(PKG + "."):
                mod = n[len(PKG) + 1:].split(".")[0]
                if (HERE / f"{mod}.py").exists():
                    out.add(mod)
    return out


def _graph() -> dict[str, set[str]]:
    return {p.stem: _imports(p) - {p.stem} for p in HERE.glob("*.py") if p.stem != "__init__"}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycle_in_the_package() -> None:
    graph = _graph()
    assert "serial" in graph["state"] and "state" not in graph["serial"]
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_no_module_over_800_lines() -> None:
    long = {p.name: n for p in HERE.glob("*.py") if (n := len(p.read_text().splitlines())) > 800}
    assert not long, long


def test_one_entry_per_race_and_power_in_the_data_order() -> None:
    assert [r.id for r in RACE_RULES] == D.RACE_IDS
    assert [p.id for p in POWER_RULES] == D.POWER_IDS
    assert all(isinstance(r, Race) and r.banner == D.BANNER[r.index] for r in RACE_RULES)
    assert all(isinstance(p, Power) and p.badge == D.BADGE[p.index] for p in POWER_RULES)
    # each entry is its own class: changing one race or power touches one place
    assert len({type(r) for r in RACE_RULES}) == len(RACE_RULES)
    assert len({type(p) for p in POWER_RULES}) == len(POWER_RULES)


def test_the_state_names_no_race_or_power() -> None:
    """The steps call the entries' hooks; no step module names a race's or a power's index."""
    names = {n.upper().replace("-", "_") for n in D.RACE_IDS + D.POWER_IDS}
    for mod in ("state", "base", "conquest", "combo", "redeployment", "decline", "scoring", "turn", "messages",
                "serial"):
        tree = ast.parse((HERE / f"{mod}.py").read_text())
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} \
            | {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert not (used & names), (mod, used & names)
