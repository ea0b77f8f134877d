"""JSON document helpers: RFC 7386 merge patch and RFC 6901 pointers (through the ``jsonpointer`` library)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonpointer

from conquest.core.errors import ConquestError


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386: objects merge recursively, ``null`` deletes, anything else replaces."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


_MISSING = object()


def resolve_pointer(doc: Any, pointer: str) -> Any:
    """The value at ``pointer`` or raise ConquestError naming the pointer."""
    try:
        return jsonpointer.resolve_pointer(doc, pointer)
    except (jsonpointer.JsonPointerException, TypeError) as e:
        raise ConquestError(f"pointer {pointer!r} does not resolve: {e}") from None


def pointer_exists(doc: Any, pointer: str) -> bool:
    try:
        return jsonpointer.resolve_pointer(doc, pointer, _MISSING) is not _MISSING
    except jsonpointer.JsonPointerException as e:
        raise ConquestError(f"pointer {pointer!r} is not a JSON pointer: {e}") from None


def read_json_file(path: str | Path, what: str = "file") -> Any:
    """The JSON document in ``path``; ``ConquestError`` in one line when it cannot be read, is not text (a
    binary file) or is not JSON."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except IsADirectoryError:
        raise ConquestError(f"{path} is a folder, not a {what}") from None
    except OSError as e:
        raise ConquestError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ConquestError(f"{path} is not a {what}: not UTF-8 text (a binary file?)") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ConquestError(f"{path}: not JSON ({e.msg} at line {e.lineno})") from None
    except RecursionError:
        raise ConquestError(f"{path}: JSON nested too deeply to be a state or record") from None


def flatten(doc: Any, prefix: tuple[Any, ...] = (), out: dict[tuple[Any, ...], Any] | None = None
             ) -> dict[tuple[Any, ...], Any]:
    if out is None:
        out = {}
    if isinstance(doc, dict) and doc:
        for k, v in doc.items():
            flatten(v, prefix + (str(k),), out)
    elif isinstance(doc, (list, tuple)) and doc:
        for i, v in enumerate(doc):
            flatten(v, prefix + (i,), out)
    else:
        out[prefix] = doc if not isinstance(doc, (dict, list, tuple)) else type(doc).__name__
    return out


def hidden_part(full: dict[str, Any], view: dict[str, Any]) -> frozenset[tuple[Any, ...]]:
    """The leaves of the referee's state (path and value) that ``view`` does not show as they are.

    The two documents are walked together and equal subtrees are skipped whole (one comparison in C), so a
    view that differs from the state in a few places costs little however large the state is."""
    out: set[tuple[Any, ...]] = set()
    _diff(full, view, (), out)
    return frozenset(out)


def _leaf(doc: Any) -> Any:
    return doc if not isinstance(doc, (dict, list, tuple)) else type(doc).__name__


def _diff(full: Any, view: Any, prefix: tuple[Any, ...], out: set[tuple[Any, ...]]) -> None:
    """Add to ``out`` the leaves of ``full`` under ``prefix`` that ``view`` (the same place in the view)
    does not show as they are; the same answer as comparing ``_flatten`` of both."""
    if full is view or (type(full) is type(view) and full == view):
        return
    if isinstance(full, dict) and full:
        if isinstance(view, dict) and view:
            vm = view if all(type(k) is str for k in view) else {str(k): v for k, v in view.items()}
            for k, x in full.items():
                _diff(x, vm.get(str(k), _MISSING), prefix + (str(k),), out)
            return
    elif isinstance(full, (list, tuple)) and full:
        if isinstance(view, (list, tuple)) and view:
            for i, x in enumerate(full):
                _diff(x, view[i] if i < len(view) else _MISSING, prefix + (i,), out)
            return
    else:
        shown = _MISSING if view is _MISSING or (isinstance(view, (dict, list, tuple)) and view) else _leaf(view)
        val = _leaf(full)
        if shown is _MISSING or shown != val:
            out.add((prefix, repr(val)))
        return
    # a container where the view has something else (or nothing): every leaf of it against the view's
    shown_leaves = flatten(view, prefix) if view is not _MISSING else {}
    for path, val in flatten(full, prefix).items():
        if shown_leaves.get(path, _MISSING) != val:
            out.add((path, repr(val)))
