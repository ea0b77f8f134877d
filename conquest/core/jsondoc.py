"""JSON document helpers: RFC 7386 merge patch and RFC 6901 pointers (through the ``jsonpointer`` library)."""

from __future__ import annotations

import copy
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
