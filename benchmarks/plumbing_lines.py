"""Count the state plumbing of each ruleset (issue 29): the non-blank, non-comment lines of its ``schema.py`` and
``serial.py`` (whole), plus the functions ``clone``, ``__init__``, ``from_body``, ``_from_body`` and ``body_json``
of its state classes and modules; the shared core (``core/schema.py``, ``core/fields.py``, ``core/keys.py``: the
declarations' machinery and the key kinds every ruleset may use) is counted once, apart.
Docstrings count as lines (they are part of what a reader reads).

    python3 benchmarks/plumbing_lines.py [REPO]
"""

from __future__ import annotations

import ast
import pathlib
import sys

WHOLE = {"schema.py", "serial.py"}
FUNCS = {"clone", "__init__", "from_body", "_from_body", "body_json", "_body_json"}


def code_lines(lines: list[str]) -> int:
    return sum(1 for line in lines if line.strip() and not line.strip().startswith("#"))


def ruleset_lines(pkg: pathlib.Path) -> int:
    n = 0
    for f in sorted(pkg.glob("*.py")):
        text = f.read_text()
        lines = text.splitlines()
        if f.name in WHOLE:
            n += code_lines(lines)
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and any("State" in ast.unparse(b) or "Data" in ast.unparse(b)
                                                       for b in node.bases):
                for fn in node.body:
                    if isinstance(fn, ast.FunctionDef) and fn.name in FUNCS:
                        n += code_lines(lines[fn.lineno - 1:fn.end_lineno])
            elif isinstance(node, ast.FunctionDef) and node.name in ("from_body", "body_json") and node.col_offset == 0:
                n += code_lines(lines[node.lineno - 1:node.end_lineno])
    return n


def main() -> None:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    total = 0
    for rs in ("kingdom", "narby", "smallworld", "nerath"):
        n = ruleset_lines(root / "conquest/rulesets" / rs)
        total += n
        print(f"{rs:12} {n}")
    print(f"{'rulesets':12} {total}")
    core = sum(code_lines((root / "conquest/core" / f).read_text().splitlines())
               for f in ("schema.py", "fields.py", "keys.py") if (root / "conquest/core" / f).exists())
    print(f"{'core':12} {core}")


if __name__ == "__main__":
    main()
