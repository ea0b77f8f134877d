"""Play one game between agents. The runner owns the seeded RNG: it samples chance nodes and hands the
same generator to the agents, so a seed fixes the whole game. An agent gets its seat's determinization of the
state (``decide``), never the referee's."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from conquest.agents import Agent, decide, get_agent, seat_list
from conquest.core.chance import random_playout, sample_chance
from conquest.core.errors import ConquestError
from conquest.core.game import CHANCE, Ruleset, State
from conquest.core.records import Record

__all__ = ["play_game", "random_playout", "sample_chance"]


def play_game(ruleset: Ruleset, agents: Sequence[Agent | str], players: int | None = None,
              options: dict[str, Any] | None = None, seed: int = 0, max_steps: int = 200_000,
              seat_names: Sequence[str] | None = None, opening: Sequence[Any] = (),
              on_step: Callable[[State], None] | None = None) -> tuple[Record, State]:
    """``opening``: actions applied first (chance outcomes fixed by an experiment's design, e.g. dealt
    factions), recorded like the rest; ``on_step``: called with the state after every action."""
    ags = [get_agent(a) if isinstance(a, str) else a for a in agents]
    state = ruleset.new_game(players, options, seed)
    ags = seat_list(ags, state.players, ruleset.min_players, ruleset.max_players)
    rng = random.Random(seed)
    names = list(seat_names) if seat_names else [a.spec for a in ags]
    record = Record(ruleset=ruleset.id, rules_version=ruleset.rules_version, players=state.players,
                    options=dict(state.options), seats=names, seed=seed)
    fmt = ruleset.format_action
    for action in opening:
        state = state.apply(action)
        record.actions.append(fmt(action))
    steps = 0
    while True:
        seat = state.to_move
        if seat is None:
            break
        if steps >= max_steps:
            raise ConquestError(f"game did not end within {max_steps} steps")
        if seat == CHANCE:
            action = sample_chance(state, rng)
        else:
            action = decide(ags[seat], state, rng)
        record.actions.append(fmt(action))
        state = state.apply_unchecked(action)
        steps += 1
        if on_step is not None:
            on_step(state)
    res = state.result()
    record.result = list(res) if res is not None else None
    record.scores = list(state.scores())
    return record, state
