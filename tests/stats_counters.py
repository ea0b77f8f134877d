"""Shared check of the report counters a ruleset keeps in its state (``stats``, read by ``game_stats``)."""

from __future__ import annotations

import json
from typing import Any, Sequence

import pytest

from conquest.core.errors import StateFormatError
from conquest.core.game import Ruleset, State


def assert_counters_survive_json_and_clone(rs: Ruleset, st: State, keys: Sequence[str], counter: str) -> None:
    """The counters are written to the state JSON and read back, cloned (not shared), start at 0 when a document
    has none, and an unknown or negative counter is refused naming the field."""
    doc = json.loads(json.dumps(st.to_json()))
    back: Any = rs.state_from_json(doc)
    mine: Any = st
    assert back.stats == mine.stats and rs.game_stats(back) == rs.game_stats(st)
    clone: Any = st.clone()
    clone.stats[counter] += 1
    assert mine.stats[counter] == clone.stats[counter] - 1
    doc.pop("stats")
    assert rs.state_from_json(doc).stats == dict.fromkeys(keys, 0)  # type: ignore[attr-defined]
    for bad in ({"battles": 1}, {counter: -1}):
        doc["stats"] = bad
        with pytest.raises(StateFormatError, match="stats"):
            rs.state_from_json(doc)
