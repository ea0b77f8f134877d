"""Helpers for the narration tests of every ruleset: play seeded games the way the web app records them and
collect each step's narrated line for every viewer (the action withheld from the viewers it is hidden from,
exactly as ``conquest.web.games`` does)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from typing import Any

from conquest.analysis.runner import sample_chance
from conquest.core.game import CHANCE, Ruleset, State
from conquest.core.registry import get_ruleset
from conquest.web.narration_check import Step, play  # noqa: F401  (the tests import them from here)


def generic(rs: Ruleset, step: Step, line: dict[str, Any]) -> bool:
    """Whether a line is only the default one (who, and the notation)."""
    return line["text"].endswith(f": {step.notation}") or line["text"].startswith("Chance: ")


RAW_ID = re.compile(r"\b[a-z]+_[a-z_]+\b")  # an id with underscores, as the notation writes them


def check_line(line: dict[str, Any]) -> None:
    """The shape every narrated line has."""
    assert isinstance(line["text"], str) and line["text"].strip()
    assert line["kind"] in ("move", "battle", "dice", "draw", "card", "turn", "end", "setup", "hidden")
    assert isinstance(line["changed"], list) and all(isinstance(r, str) for r in line["changed"])
    for d in line.get("dice", []):
        assert {"who", "die", "outcome"} <= set(d), d
    assert not RAW_ID.search(line["text"]), f"a raw id in {line['text']!r}"


def finished(rid: str, seed: int = 1, players: int | None = None, options: dict[str, Any] | None = None,
             limit: int = 20_000) -> tuple[State, State]:
    """A seeded random game played to its end (no narration): the states before and after its last action."""
    rs = get_ruleset(rid)
    state = rs.new_game(players, options, seed)
    rng = random.Random(seed)
    prev = state
    for _ in range(limit):
        if state.to_move is None:
            return prev, state
        action = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(list(state.legal_actions()))
        prev, state = state, state.apply(action)
    raise AssertionError(f"{rid} did not end in {limit} steps")


def told_words(rs: Ruleset, steps: Iterable[Step]) -> set[str]:
    """Check that every line of every step is a real sentence (not the default), and return the verbs seen."""
    seen: set[str] = set()
    for st in steps:
        for line in st.lines.values():
            check_line(line)
            assert not generic(rs, st, line), (st.notation, line)
        seen.add(st.verb)
    return seen
