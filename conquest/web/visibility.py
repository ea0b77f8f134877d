"""Who may see what, derived from ``view(seat)`` alone: for each committed action, the seats it is hidden from
and whether it is an undo barrier (``action_visibility``). ``conquest.web.games`` stores both beside the action;
its module notes say what they mean.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from conquest.core.game import CHANCE, Action, State
from conquest.core.jsondoc import hidden_part

MAX_ALTERNATIVES = 64
SEARCH_BUDGET = 0.05  # seconds per action for the visibility search
log = logging.getLogger("conquest.web")


# ---- what a seat cannot see -----------------------------------------------------------------------

def viewers(players: int) -> list[int | None]:
    return list(range(players)) + [None]


def hidden_parts(state: State) -> dict[int | None, frozenset[tuple[Any, ...]]]:
    full = state.to_json()
    return {s: hidden_part(full, state.view(s)) for s in viewers(state.players)}


class HiddenParts:
    """``hidden_parts(state)`` computed seat by seat when first asked (the referee's state once)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self._full: dict[str, Any] | None = None
        self._parts: dict[int | None, frozenset[tuple[Any, ...]]] = {}

    def __getitem__(self, seat: int | None) -> frozenset[tuple[Any, ...]]:
        part = self._parts.get(seat)
        if part is None:
            if self._full is None:
                self._full = self.state.to_json()
            part = self._parts[seat] = hidden_part(self._full, self.state.view(seat))
        return part

    def all(self) -> dict[int | None, frozenset[tuple[Any, ...]]]:
        return {s: self[s] for s in viewers(self.state.players)}


Hidden = dict[int | None, frozenset[Any]] | HiddenParts


def _alternatives(before: State, action: Action) -> list[Action]:
    if before.to_move == CHANCE:
        alts = [a for a, _p in before.chance_outcomes() if a != action]
    else:
        alts = [a for a in before.legal_actions() if a != action]
    if len(alts) > MAX_ALTERNATIVES:  # spread evenly rather than the first ones
        stride = len(alts) / MAX_ALTERNATIVES
        alts = [alts[int(i * stride)] for i in range(MAX_ALTERNATIVES)]
    return alts


def action_visibility(before: State, action: Action, after: State, hidden_before: Hidden, hidden_after: Hidden,
                      budget: float = SEARCH_BUDGET, barrier: bool | None = None) -> tuple[list[int | None], bool]:
    """(seats the action is hidden from, whether it is an undo barrier).

    The ruleset may answer for itself with ``Ruleset.log_visible(before, action, after, seat) -> bool | None``
    (``None``, the default: let the server search). The search stops after ``budget`` seconds; the seats still
    undecided then are counted as not seeing the action (a hidden entry is safe, a leak is not).
    ``hidden_before``/``hidden_after`` may be ``HiddenParts`` (computed only for the seats that need it);
    a given ``barrier`` is taken as it is instead of comparing the hidden parts of every seat."""
    actor = before.to_move
    if barrier is None:
        barrier = actor == CHANCE or any(hidden_before[s] != hidden_after[s] for s in viewers(before.players))
    hidden_from: list[int | None] = []
    hook = before.ruleset.log_visible
    to_check: list[int | None] = []
    for s in viewers(before.players):
        if s == actor:
            continue
        answer = hook(before, action, after, s)
        if answer is not None and answer:  # shown, whatever the seat cannot see
            continue
        if not (hidden_before[s] or hidden_after[s]):  # the seat sees everything: shown
            continue
        if answer is None:
            to_check.append(s)
        elif not answer:
            hidden_from.append(s)
    if to_check:
        deadline = time.perf_counter() + budget
        mine = {s: after.view(s) for s in to_check}
        full = after.to_json()
        undecided = set(to_check)
        for alt in _alternatives(before, action):
            if not undecided:
                break
            if time.perf_counter() > deadline:
                log.info("%s: visibility search of '%s' over budget; hidden from %s",
                         before.ruleset.id, before.ruleset.format_action(action), sorted(map(str, undecided)))
                hidden_from.extend(undecided)
                break
            try:
                other = before.apply_unchecked(alt)
            except Exception:  # an alternative the ruleset cannot apply unchecked: no information
                continue
            other_full: Any = None
            for s in list(undecided):
                if other.view(s) == mine[s]:
                    if other_full is None:
                        other_full = other.to_json()
                    if other_full == full:
                        break  # not even the referee's state tells them apart (a die the state does not keep)
                    hidden_from.append(s)
                    undecided.discard(s)
    return sorted(hidden_from, key=lambda s: -1 if s is None else s), barrier
