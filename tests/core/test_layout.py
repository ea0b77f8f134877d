"""The package's shape: no import circles anywhere in `conquest/`, and no module past a readable size.

The imports are read with the standard library's `ast`, including imports inside functions and under
`TYPE_CHECKING`, so a circle hidden in a lazy import counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import conquest

PACKAGE_ROOT = Path(conquest.__file__).resolve().parent
MAX_LINES = 800


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE_ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE_ROOT.rglob("*.py"))}


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    # A module's relative imports start from its package; a package's from itself.
    base = base if is_package else base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, is_package, node)
                # `from pkg import sub` imports the submodule when there is one.
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in node.names]
            for target in targets:
                # Importing a.b.c runs a and a.b first; an edge to the deepest module we own.
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    WHITE, GREY, BLACK = 0, 1, 2
    colour = {node: WHITE for node in graph}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = GREY
        stack.append(node)
        for nxt in sorted(graph[node]):
            if colour[nxt] == GREY:
                return stack[stack.index(nxt):] + [nxt]
            if colour[nxt] == WHITE:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        colour[node] = BLACK
        return None

    for node in sorted(graph):
        if colour[node] == WHITE:
            found = visit(node)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_circle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_graph_sees_relative_and_function_level_imports() -> None:
    graph = import_graph()
    # conquest/core/__init__.py and the cli import other modules; the graph must have seen them.
    assert graph["conquest.cli"], "the CLI's imports were not read"
    assert any(dep.startswith("conquest.core") for dep in graph["conquest.cli"])


def test_no_import_circles_in_the_package() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_layers_point_down() -> None:
    """docs/architecture.md: a ruleset imports `core`, never an agent, the analysis layer or the web app;
    `core` imports no ruleset."""
    graph = import_graph()
    for module, deps in graph.items():
        if module.startswith("conquest.core"):
            assert not any(d.startswith("conquest.rulesets.") for d in deps), (module, deps)
        if module.startswith("conquest.rulesets."):
            banned = ("conquest.agents", "conquest.analysis", "conquest.web", "conquest.cli", "conquest.rl")
            assert not any(d.startswith(banned) for d in deps), (module, deps)


def test_no_module_is_too_long_to_read() -> None:
    long_ones = {name: n for name, path in _modules().items()
                 if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long_ones, f"modules over {MAX_LINES} lines: {long_ones}"


def test_the_rulesets_layers_run_down_their_rules_documents() -> None:
    """docs/architecture.md, the package layouts: a dispatcher on top imports the sections, no section imports
    it back, and the state's data sits below its JSON."""
    graph = import_graph()

    def deps(module: str) -> set[str]:
        seen: set[str] = set()
        todo = [module]
        while todo:
            for nxt in graph[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    nerath, narby, sw = "conquest.rulesets.nerath", "conquest.rulesets.narby", "conquest.rulesets.smallworld"
    assert {f"{nerath}.{m}" for m in ("movement", "sea", "battle", "reinforce", "income", "victory")} <= deps(
        f"{nerath}.turn")
    assert f"{nerath}.turn" not in deps(f"{nerath}.battle")
    assert {f"{narby}.{m}" for m in ("setup", "draw", "populate", "action_phase", "tribute")} <= graph[f"{narby}.turn"]
    for module in graph:
        if module.startswith(narby + ".") and module not in (f"{narby}.turn", f"{narby}.rules", f"{narby}.ruleset",
                                                             narby):
            assert f"{narby}.turn" not in graph[module], module
    assert f"{sw}.serial" in graph[f"{sw}.state"] and f"{sw}.state" not in deps(f"{sw}.serial")


def test_every_ruleset_module_says_what_it_implements() -> None:
    missing = [name for name, path in _modules().items() if name.startswith("conquest.rulesets.")
               and not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))]
    assert not missing, f"modules without a docstring: {missing}"
