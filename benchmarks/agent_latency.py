"""How long the web levels keep a person waiting (figures, not pass/fail).

Per whole computer turn (the default): a seat's turn, every consecutive decision of it with the chance outcomes
between them, played by a level's agent within the level's budgets exactly as the web app plays it
(``conquest.agents.budget``: a deadline per decision, a budget per turn, the agent kept for the turn). Turns start
at positions met in random games of every ruleset (after random play to a fraction of a random game's length,
then to the start of the next seat's turn). Printed per ruleset and level: the turns measured, decisions per turn
(those with a choice), and the wall-clock and thread-CPU seconds of the longest and the mean turn.

    PYTHONPATH=. python benchmarks/agent_latency.py [--turns 6] [--level normal --level hard] [--clock cpu] [--old]
        [ruleset ...]
    PYTHONPATH=. python benchmarks/agent_latency.py --per-decision [--decisions 6] [--level hard]   # as before

The web app's deadlines are wall-clock (what a person waits), so on a busy machine a search gets less CPU in the
same seconds and the fixed part of each decision (its one-ply ordering) takes longer. ``--clock cpu`` reads the
deadlines and the turn's budget on the thinking thread's CPU time instead: the turn then does the work it would do
on one idle core, and its CPU seconds are the seconds that core would take (the figure of the targets, "a whole
computer turn within 3 s at normal and 10 s at hard on one core"). The web app's pauses between moves
(``agent_delay``) are not included here; they count against the turn's budget there. The budgets are in
conquest/agents/base.py (LEVEL_SETTINGS) and docs/agents.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import time

import conquest.agents.base as base
from conquest.agents import decide, get_agent
from conquest.agents.base import LEVEL_SETTINGS
from conquest.agents.budget import TurnBudget, decide_within
from conquest.core.chance import random_playout, sample_chance
from conquest.core.game import CHANCE, State
from conquest.core.registry import get_ruleset, rulesets

PLAYERS = {"nerath": 4}


def turn_start(start: State, rng: random.Random, steps: int) -> State | None:
    """Random play for ``steps`` steps, then on to the first decision of the next seat's turn."""
    s, _ = random_playout(start, rng, max_steps=steps)
    last = None
    while s.to_move is not None:
        if s.to_move == CHANCE:
            s = s.apply(sample_chance(s, rng))
            continue
        if last is not None and s.to_move != last:
            return s
        last = s.to_move
        acts = s.legal_actions()
        s = s.apply(acts[rng.randrange(len(acts))])
    return None


def play_turn(level: str, state: State, rng: random.Random, turn_budget: bool = True) -> dict[str, float]:
    """One whole turn of the seat to move, by ``level`` within its budgets (``turn_budget=False``: the budget per
    decision only, as before the turn budgets); its figures."""
    lv = LEVEL_SETTINGS[level]
    cpu_clock = base.DEADLINE_CLOCK is time.thread_time
    agent = get_agent(lv.spec + (":cpu=1" if cpu_clock and lv.spec.startswith("ismcts") else ""))
    budget = TurnBudget(lv.decision, lv.turn if turn_budget else math.inf)
    seat = state.to_move
    choices = 0
    longest = 0.0
    wall, cpu = time.perf_counter(), time.thread_time()
    while state.to_move is not None and state.to_move in (seat, CHANCE):
        if state.to_move == CHANCE:
            state = state.apply(sample_chance(state, rng))
            continue
        choices += len(state.legal_actions()) > 1
        t0 = time.perf_counter()
        state = state.apply(decide_within(agent, state, rng, budget))
        longest = max(longest, time.perf_counter() - t0)
    return {"wall": time.perf_counter() - wall, "cpu": time.thread_time() - cpu, "decisions": budget.decisions,
            "choices": choices, "longest_decision": longest}


def per_turn(rid: str, level: str, turns: int, seed: int, turn_budget: bool = True) -> dict[str, object]:
    rs = get_ruleset(rid)
    rng = random.Random(seed)  # the positions: the same ones with and without the turn budget
    start = rs.new_game(PLAYERS.get(rid), {}, seed)
    _, length = random_playout(start, rng)
    got = []
    for k in range(turns):
        s = turn_start(start, rng, length * k // turns)
        if s is not None:
            got.append(play_turn(level, s, random.Random(seed * 1000 + k), turn_budget))
    lv = LEVEL_SETTINGS[level]
    return {"ruleset": rid, "players": start.players, "level": level, "budget_decision_s": lv.decision,
            "budget_turn_s": lv.turn if turn_budget else None, "turns": len(got),
            "max_choices_per_turn": max(t["choices"] for t in got),
            "mean_choices_per_turn": round(sum(t["choices"] for t in got) / len(got), 1),
            "max_turn_wall_s": round(max(t["wall"] for t in got), 2),
            "mean_turn_wall_s": round(sum(t["wall"] for t in got) / len(got), 2),
            "max_turn_cpu_s": round(max(t["cpu"] for t in got), 2),
            "mean_turn_cpu_s": round(sum(t["cpu"] for t in got) / len(got), 2),
            "max_decision_wall_s": round(max(t["longest_decision"] for t in got), 2),
            "load_average": round(os.getloadavg()[0], 1)}


def per_decision(rid: str, level: str, decisions: int, seed: int) -> dict[str, object]:
    """The figures of the earlier benchmark: seconds per decision of the level's spec alone (no turn budget)."""
    rs = get_ruleset(rid)
    rng = random.Random(seed)
    start = rs.new_game(PLAYERS.get(rid), {}, seed)
    _, length = random_playout(start, rng)
    times = []
    for k in range(decisions):
        s, _ = random_playout(start, rng, max_steps=length * (k + 1) // (decisions + 1))
        while s.to_move is not None and (s.to_move == CHANCE or len(s.legal_actions()) < 2):
            s, _ = random_playout(s, rng, max_steps=1)
        if s.to_move is None:
            continue
        t0 = time.perf_counter()
        decide(get_agent(LEVEL_SETTINGS[level].spec), s, rng)
        times.append(time.perf_counter() - t0)
    return {"ruleset": rid, "level": level, "spec": LEVEL_SETTINGS[level].spec, "decisions": len(times),
            "max_seconds": round(max(times), 3), "mean_seconds": round(sum(times) / len(times), 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("rulesets", nargs="*")
    ap.add_argument("--turns", type=int, default=6, help="turns measured per ruleset and level")
    ap.add_argument("--level", action="append", choices=sorted(LEVEL_SETTINGS),
                    help="level (repeatable; default: normal and hard)")
    ap.add_argument("--per-decision", action="store_true", help="seconds per decision without a turn budget")
    ap.add_argument("--decisions", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--old", action="store_true",
                    help="also play each turn without the turn budget (per decision only, as before), for comparison")
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                    help="what deadlines and turn budgets count: wall clock (as the web app) or thread CPU time")
    args = ap.parse_args()
    if args.clock == "cpu":
        base.DEADLINE_CLOCK = time.thread_time
    levels = args.level or (["hard"] if args.per_decision else ["normal", "hard"])
    for rid in args.rulesets or sorted(rulesets()):
        for level in levels:
            if args.per_decision:
                print(json.dumps(per_decision(rid, level, args.decisions, args.seed)), flush=True)
                continue
            for turn_budget in ([False, True] if args.old else [True]):
                row = {**per_turn(rid, level, args.turns, args.seed, turn_budget), "clock": args.clock}
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
