"""Build narby positions from a JSON merge patch on the documented state format (docs/rules/narby.md)."""

from __future__ import annotations

from typing import Any

from conquest.core.jsondoc import merge_patch
from conquest.rulesets.narby import RULESET
from conquest.rulesets.narby.rules import NarbyState

# red (seat 0) at 5,5 beside its cave 4,4; blue (seat 1) at 15,15 beside its cave 17,17; red to act
ACTION = {
    "round": 1, "phase": "action", "node": "act", "seat": 0, "step": 0,
    "dragons": ["red", "blue"], "dragon_at": ["5,5", "15,15"], "caves": ["4,4", "17,17"],
    "home": ["4,4", "17,17"], "chest": "10,10", "chest_coins": 3, "coins": [10, 10],
    "order": [0, 1], "turn": 0, "actions_left": 3,
}


def position(patch: dict[str, Any] | None = None, players: int = 2, options: dict[str, Any] | None = None,
             base: dict[str, Any] | None = None) -> NarbyState:
    doc = RULESET.new_game(players, {"dragons": "select", **(options or {})}, 0).to_json()
    doc.pop("to_move")
    doc = merge_patch(doc, ACTION if base is None else base)
    doc = merge_patch(doc, patch or {})
    st = RULESET.state_from_json(doc)
    assert isinstance(st, NarbyState)
    return st


def play(state: NarbyState, *actions: str) -> NarbyState:
    for a in actions:
        state = state.apply(a)  # type: ignore[assignment]
    return state


def legal_texts(state: NarbyState) -> list[str]:
    return [RULESET.format_action(a) for a in state.legal_actions()]
