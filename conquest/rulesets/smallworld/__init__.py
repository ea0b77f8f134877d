"""Small World: the whole base game for 2 to 5 players. Conquest follows page 4 of the rulebook (003); the
rest of the game follows the published standard rules (see docs/rules/smallworld.md for every reading)."""

from conquest.rulesets.smallworld.ruleset import SmallWorldRuleset
from conquest.rulesets.smallworld.state import SmallWorldState

SmallWorldState.ruleset = None  # type: ignore[assignment]
RULESET = SmallWorldRuleset()
SmallWorldState.ruleset = RULESET

__all__ = ["RULESET", "SmallWorldRuleset", "SmallWorldState"]
