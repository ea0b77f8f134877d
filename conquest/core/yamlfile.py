"""Reading YAML files with errors that keep PyYAML's line and column."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from conquest.core.errors import ConquestError


def yaml_problem(e: yaml.YAMLError) -> str:
    """One line: what PyYAML found wrong and where (1-based line and column, as editors count)."""
    if isinstance(e, yaml.MarkedYAMLError):
        what = " ".join(x for x in (e.context, e.problem) if x) or "syntax error"
        mark = e.problem_mark or e.context_mark
        if mark is not None:
            return f"{what} (line {mark.line + 1}, column {mark.column + 1})"
        return what
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def load_yaml(path: str | Path, what: str = "file") -> Any:
    """The parsed document; ``ConquestError`` naming the file (and line and column) when it cannot be."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ConquestError(f"cannot read {what} {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ConquestError(f"{what} {path} is not UTF-8 text") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ConquestError(f"{what} {path} is not valid YAML: {yaml_problem(e)}") from None
