"""Building Small World states for tests: a new game with a fixed column, patched like a scenario set-up."""

from __future__ import annotations

from typing import Any

from conquest.core.jsondoc import merge_patch
from conquest.rulesets.smallworld import RULESET
from conquest.rulesets.smallworld.state import SmallWorldState

COLUMN = "amazons:commando,wizards:merchant,dwarves:wealthy,orcs:pillaging,trolls:swamp,elves:forest"


def make(players: int = 2, setup: dict[str, Any] | None = None, **options: Any) -> SmallWorldState:
    opts = {"column": COLUMN, **options}
    state = RULESET.new_game(players, opts, 0)
    if setup:
        doc = state.to_json()
        doc.pop("to_move", None)
        state = RULESET.state_from_json(merge_patch(doc, setup))
    assert isinstance(state, SmallWorldState)
    return state


def play(state: SmallWorldState, *actions: str) -> SmallWorldState:
    for a in actions:
        state = state.apply(a)  # type: ignore[assignment]
    return state
