"""The package's shape: no import circles anywhere in `conquest/`, and no module past a readable size.

The imports are read with the standard library's `ast`, including imports inside functions, so a circle hidden
in a lazy import counts too. Imports under `if TYPE_CHECKING:` are left out: they name a type for the type
checker and never run.
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


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        type_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If) and _is_type_checking(block.test)
                     for stmt in block.body for n in ast.walk(stmt)}
        for node in ast.walk(tree):
            if id(node) in type_only:
                continue
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


def test_type_only_imports_are_not_edges(tmp_path: Path) -> None:
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a.b\nimport c\n")
    block = next(n for n in ast.walk(tree) if isinstance(n, ast.If))
    assert _is_type_checking(block.test)


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


# ---- no generic layer names a game (issue 28) ---------------------------------------------------------------
# Outside conquest/rulesets/<id>/ nothing imports that package, compares a ruleset id or holds one as a string,
# and nothing probes a ruleset with getattr/hasattr (every hook is declared on Ruleset, conquest/core/game.py).

GAME_NAMING_ALLOWED: tuple[str, ...] = ()
"""Paths (relative to the repository) not held to the checks below: none."""
RULESET_NAMES = ("rs", "ruleset", "rules", "rset")
"""Names of a variable or attribute that holds a ruleset (``rs``, ``self.ruleset``, ``state.ruleset``...)."""


def _ruleset_ids() -> set[str]:
    from conquest.core.registry import rulesets
    ids = set(rulesets())
    assert ids, "no ruleset is registered"
    return ids


def _rel(path: Path) -> str:
    return path.relative_to(PACKAGE_ROOT.parent).as_posix()


def _own_ruleset(path: Path) -> str | None:
    """The ruleset package ``path`` belongs to (``conquest/rulesets/<id>/...``), else None."""
    parts = path.relative_to(PACKAGE_ROOT).parts
    return parts[1] if len(parts) > 2 and parts[0] == "rulesets" else None


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body:
            first = n.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    # an attribute's docstring: a string statement right after an assignment
    for n in ast.walk(tree):
        body = getattr(n, "body", None)
        if isinstance(body, list):
            for prev, stmt in zip(body, body[1:]):
                if (isinstance(prev, (ast.Assign, ast.AnnAssign)) and isinstance(stmt, ast.Expr)
                        and isinstance(stmt.value, ast.Constant)):
                    out.add(id(stmt.value))
    return out


def _holds_a_ruleset(node: ast.expr) -> bool:
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return name.lower() in RULESET_NAMES


def _names_an_id(node: ast.expr, ids: set[str]) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in ids
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(isinstance(e, ast.Constant) and e.value in ids for e in node.elts)
    return False


def game_naming_problems(path: Path, text: str, ids: set[str]) -> list[str]:
    """What in the Python module ``path`` (its source ``text``) names a game it does not belong to, as
    ``file:line: what`` lines: an import of ``conquest.rulesets.<id>`` outside that package; and outside
    conquest/rulesets: a comparison with a ruleset id, any other string that is exactly a ruleset id (docstrings
    apart), a getattr/hasattr of a ruleset outside conquest/core."""
    own = _own_ruleset(path)
    rel = _rel(path)
    generic = not rel.startswith("conquest/rulesets/")
    tree = ast.parse(text, filename=rel)
    docs = _docstrings(tree)
    problems: list[str] = []
    compared: set[int] = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            if isinstance(n, ast.Import):
                modules = [a.name for a in n.names]
            else:
                base = _resolve(_module_name(path), path.name == "__init__.py", n)
                modules = [f"{base}.{a.name}" for a in n.names] if base == "conquest.rulesets" else [base]
            for m in modules:
                parts = m.split(".")
                if len(parts) > 2 and parts[:2] == ["conquest", "rulesets"] and parts[2] != own:
                    problems.append(f"{rel}:{n.lineno}: imports {m} (a ruleset's package, from outside it): "
                                    f"reach the game through its Ruleset (conquest.core.registry)")
        if not generic:
            continue
        if isinstance(n, ast.Compare):
            for side in [n.left, *n.comparators]:
                if _names_an_id(side, ids):
                    problems.append(f"{rel}:{n.lineno}: compares with a ruleset id ({ast.unparse(n)[:60]}): "
                                    f"declare the difference as a Ruleset hook")
                    compared.update(id(x) for x in ast.walk(side))
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("getattr", "hasattr")
                and n.args and _holds_a_ruleset(n.args[0]) and not rel.startswith("conquest/core/")):
            problems.append(f"{rel}:{n.lineno}: {n.func.id} probes a ruleset ({ast.unparse(n)[:60]}): call the "
                            f"hook declared on Ruleset (conquest/core/game.py)")
    if generic:
        for n in ast.walk(tree):
            if (isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in ids and id(n) not in docs
                    and id(n) not in compared):
                problems.append(f"{rel}:{n.lineno}: the string \"{n.value}\" names a game: take the ruleset from "
                                f"the registry or an argument")
    return problems


def js_naming_problems(path: Path, text: str, ids: set[str]) -> list[str]:
    """Every line of a web page file (script, style, document) that holds a ruleset id as a word (code or
    comment)."""
    import re
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, ids))) + r")\b")
    rel = _rel(path)
    return [f"{rel}:{i}: names the game '{m.group(1)}': the page learns what differs from the server (Ruleset hooks)"
            for i, line in enumerate(text.splitlines(), 1) if (m := pattern.search(line))]


def test_no_generic_layer_names_a_game() -> None:
    ids = _ruleset_ids()
    problems: list[str] = []
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        if _rel(path).startswith(GAME_NAMING_ALLOWED):
            continue
        problems += game_naming_problems(path, path.read_text(encoding="utf-8"), ids)
    for path in sorted((PACKAGE_ROOT / "web" / "static").glob("*")):
        if path.suffix in (".js", ".css", ".html"):   # the page's scripts, styles and documents
            problems += js_naming_problems(path, path.read_text(encoding="utf-8"), ids)
    assert not problems, "a generic layer names a game:\n" + "\n".join(problems)


def test_the_game_naming_check_finds_each_kind() -> None:
    ids = {"nerath", "kingdom"}
    web = PACKAGE_ROOT / "web" / "x.py"
    src = ('"""The nerath odds; compare rs.id == "nerath" in a docstring is fine."""\n'
           "from conquest.rulesets.nerath.odds import Battle\n"
           "import conquest.rulesets.kingdom\n"
           "from conquest.rulesets import nerath\n"
           "def f(rs, ruleset_id):\n"
           '    if ruleset_id == "nerath" or rs.id in ("kingdom", "x"):\n'
           "        return getattr(rs, 'board_json', None)\n"
           "    hasattr(self.ruleset, 'round_of')\n"
           '    return get_ruleset("kingdom")\n')
    found = game_naming_problems(web, src, ids)
    lines = sorted(int(p.split(":")[1]) for p in found)
    assert lines == [2, 3, 4, 6, 6, 7, 8, 9], found
    assert all(p.startswith("conquest/web/x.py:") for p in found)
    # inside its own package a game may import itself and name itself; not another game
    own = PACKAGE_ROOT / "rulesets" / "nerath" / "y.py"
    found = game_naming_problems(own, 'from conquest.rulesets.nerath import data\n'
                                      'import conquest.rulesets.kingdom.rules\n'
                                      'ID = "nerath"\nfrom ..kingdom import board\nfrom . import odds\n', ids)
    assert [int(p.split(":")[1]) for p in found] == [2, 4], found
    # core may probe its own objects; a generic getattr of anything else is fine
    core = PACKAGE_ROOT / "core" / "z.py"
    assert game_naming_problems(core, "getattr(rs, 'x', None)\ngetattr(e, 'strerror', None)\n", ids) == []
    assert game_naming_problems(web, "getattr(e, 'strerror', None)\n", ids) == []
    js = PACKAGE_ROOT / "web" / "static" / "a.js"
    found = js_naming_problems(js, 'const a = 1;\nif (ruleset === "kingdom") x();\n'
                                   '// the nerath page\nnerathy();\n', ids)
    assert [int(p.split(":")[1]) for p in found] == [2, 3], found


# ---- no function past a readable length without a reason (issue 29) ----------------------------------------
# A function of more than MAX_FUNCTION_LINES lines (from its `def` to its last line) says why at its top: a
# "Long because: ..." line in its docstring or in a comment before its first statement. Plumbing is split
# instead; what stays long reads like the rulebook (one rule per branch) or is a hot loop kept in one frame.

MAX_FUNCTION_LINES = 80
LONG_REASON = "Long because:"


def long_function_problems(path: Path, text: str) -> list[str]:
    """``path:line name (N lines)`` for each function of ``text`` over the limit with no written reason."""
    lines = text.splitlines()
    problems = []
    for node in ast.walk(ast.parse(text, filename=str(path))):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        length = (node.end_lineno or node.lineno) - node.lineno + 1
        if length <= MAX_FUNCTION_LINES:
            continue
        doc = ast.get_docstring(node) or ""
        # the lines from the `def` to the first statement after the docstring: comments there are the top
        first = node.body[1 if doc and len(node.body) > 1 else 0]
        head = lines[node.lineno - 1:first.lineno - 1]
        said = [s for s in [doc, *(ln.strip() for ln in head if ln.strip().startswith("#"))] if LONG_REASON in s]
        if not any(s.split(LONG_REASON, 1)[1].strip() for s in said):
            problems.append(f"{path}:{node.lineno} {node.name} ({length} lines)")
    return problems


def test_no_function_is_long_without_a_reason() -> None:
    problems = [p for path in sorted(PACKAGE_ROOT.rglob("*.py"))
                for p in long_function_problems(Path(_rel(path)), path.read_text(encoding="utf-8"))]
    assert not problems, f"functions over {MAX_FUNCTION_LINES} lines without a '{LONG_REASON} ...' line: {problems}"


def test_the_long_function_check_reads_docstrings_and_comments() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    bare = "def f():\n" + body
    assert long_function_problems(Path("m.py"), bare) == [f"m.py:1 f ({MAX_FUNCTION_LINES + 1} lines)"]
    short = "def f():\n" + body[body.index("\n") + 1:]
    assert long_function_problems(Path("m.py"), short) == []
    documented = 'def f():\n    """Long because: one branch per verb of the rules."""\n' + body
    assert long_function_problems(Path("m.py"), documented) == []
    commented = "def f(\n    a,\n):\n    # Long because: the hot loop stays in one frame\n" + body
    assert long_function_problems(Path("m.py"), commented) == []
    empty_reason = 'def f():\n    """Long because:"""\n' + body
    assert len(long_function_problems(Path("m.py"), empty_reason)) == 1
    late_comment = "def f():\n" + body + "    # Long because: said too late\n    y = 0\n"
    assert len(long_function_problems(Path("m.py"), late_comment)) == 1
