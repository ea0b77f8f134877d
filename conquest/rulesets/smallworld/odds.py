"""Odds of Small World's dice: the reinforcement die of the final conquest (``final rN``) and Berserk's roll
before each conquest. Exact: the die's faces (``chance_outcomes``) are each applied through the rules, and the
outcomes are grouped by what they change on the board (the region conquered or not)."""

from __future__ import annotations

from typing import Any

from conquest.core.game import State
from conquest.core.kinds import Action
from conquest.core.odds import action_odds_report


def _summary(before: State, after: State, path: tuple[Action, ...]) -> Any:
    b: Any = before
    a: Any = after
    taken = [i for i in range(len(a.region_race)) if a.region_race[i] != b.region_race[i] and a.region_race[i] >= 0
             and a.region_race[i] == b.cur]
    if taken:
        return "conquers " + ", ".join(f"r{i + 1} ({a.board.names[i]})" for i in taken)
    die = [x[1] for x in path if x[0] == "die"]
    if die and a.berserk_die >= 0:
        return f"the die shows {die[0]}: the next conquest costs {die[0]} fewer (at least 1)"
    return "no conquest (the die falls short)" if die else "no conquest"


def action_odds(ruleset: Any, state: State, action: Any) -> dict[str, Any]:
    return action_odds_report(ruleset, state, action, _summary)
