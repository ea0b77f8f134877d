from __future__ import annotations

from typing import Any

from conquest.core.jsondoc import merge_patch
from conquest.core.registry import get_ruleset

KINGDOM = get_ruleset("kingdom")


def state_with(patch: dict[str, Any] | None = None, **options: Any):
    """A new kingdom game with ``patch`` merged into its state JSON (as scenario files do)."""
    state = KINGDOM.new_game(2, options)
    if patch:
        doc = state.to_json()
        doc.pop("to_move")
        state = KINGDOM.state_from_json(merge_patch(doc, patch))
    return state


def play(state, *actions: str):
    for a in actions:
        state = state.apply(a)
    return state
