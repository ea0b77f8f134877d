"""Odds of Narby Conquest's dice-driven actions: steal, attack, destroy (the Steal, opposed-roll and Destroyed
charts) and the tribute roll, with every modifier already in force (cards played, places of power, dragon
powers: they are in the state the rules roll from). The other dragons' reaction windows on the way are read as
"everybody passes" (a card they might play is their decision, not chance). Exact: every chance outcome after
the action is enumerated through the ruleset's own ``apply``/``chance_outcomes``."""

from __future__ import annotations

from typing import Any

from conquest.core.game import State
from conquest.core.kinds import Action
from conquest.core.odds import action_odds_report


def _through(s: Any) -> Any:
    """The decisions passed through: answers to a declared action (nobody answers), and the card windows
    where ``pass`` is the only choice (asked of every seat holding a card, R35: no decision in fact)."""
    if s.node == "react":
        return ("pass",)
    if s.node in ("tribute_card", "procreator") and s.legal_actions() == [("pass",)]:
        return ("pass",)
    return None


def _stop(s: Any, path: tuple[Action, ...]) -> bool:
    """One roll's consequences: stop when the game leaves the action and tribute phases, or when the next
    dragon's tribute roll comes up."""
    if not path:
        return False
    if s.phase not in ("action", "tribute"):
        return True
    return s.phase == "tribute" and s.node in ("roll", "tribute_card") and any(a[0] == "roll" for a in path)


def _summary(ruleset: Any) -> Any:
    from conquest.rulesets.narby.rules import CITY, TOWN, seat_label

    def summarise(before: State, after: State, path: tuple[Action, ...]) -> Any:
        b: Any = before
        a: Any = after
        parts = []
        for seat in range(a.players):
            d = a.coins[seat] - b.coins[seat]
            if d:
                parts.append(f"{seat_label(a, seat)} {d:+d} coins")
        if a.chest_coins != b.chest_coins:
            parts.append(f"thief's chest {a.chest_coins - b.chest_coins:+d} coins")
        for seat in range(a.players):
            before_n = sum(1 for o in b.claims.values() if o == seat)
            after_n = sum(1 for o in a.claims.values() if o == seat)
            if before_n != after_n:
                parts.append(f"{seat_label(a, seat)} {after_n - before_n:+d} claims")
        gone = sum(1 for i, v in enumerate(b.occ) if v != a.occ[i] and v in (TOWN, CITY))
        if gone:
            parts.append(f"{gone} settlement square{'s' if gone > 1 else ''} destroyed")
        if a.node == "lose":
            parts.append(f"{seat_label(a, a.who)} chooses a claim to lose")
        return "; ".join(parts) or "nothing changes"
    return summarise


def action_odds(ruleset: Any, state: State, action: Any) -> dict[str, Any]:
    return action_odds_report(ruleset, state, action, _summary(ruleset), through=_through, stop=_stop)
