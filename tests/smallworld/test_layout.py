"""The package's shape: one entry per race and per power of the data files, each the only place its effects live."""

from __future__ import annotations

import ast
from pathlib import Path

from conquest.rulesets.smallworld import data as D
from conquest.rulesets.smallworld.powers import POWER_RULES, Power
from conquest.rulesets.smallworld.races import RACE_RULES, Race

HERE = Path(D.__file__).parent


def test_one_entry_per_race_and_power_in_the_data_order() -> None:
    assert [r.id for r in RACE_RULES] == D.RACE_IDS
    assert [p.id for p in POWER_RULES] == D.POWER_IDS
    assert all(isinstance(r, Race) and r.banner == D.BANNER[r.index] for r in RACE_RULES)
    assert all(isinstance(p, Power) and p.badge == D.BADGE[p.index] for p in POWER_RULES)
    # each entry is its own class: changing one race or power touches one place
    assert len({type(r) for r in RACE_RULES}) == len(RACE_RULES)
    assert len({type(p) for p in POWER_RULES}) == len(POWER_RULES)


def test_the_state_names_no_race_or_power() -> None:
    """The steps call the entries' hooks; no step module names a race's or a power's index."""
    names = {n.upper().replace("-", "_") for n in D.RACE_IDS + D.POWER_IDS}
    for mod in ("state", "base", "conquest", "combo", "redeployment", "decline", "scoring", "turn", "messages",
                "serial", "dispatch"):
        tree = ast.parse((HERE / f"{mod}.py").read_text())
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} \
            | {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert not (used & names), (mod, used & names)


def _names_in(module: str, function: str) -> set[str]:
    tree = ast.parse((HERE / f"{module}.py").read_text())
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function)
    return {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)} | {n.attr for n in ast.walk(fn)
                                                                      if isinstance(n, ast.Attribute)}


def test_scoring_is_written_once_in_the_entries() -> None:
    """Small World's bonus coins are the entries' ``region_coins`` / ``turn_coins``: the score, the evaluation
    and the coverage of abilities read those hooks and name none of the races or powers that score (issue 29,
    "one rule, one place")."""
    def scores(entry: Race | Power) -> bool:
        base = Race if isinstance(entry, Race) else Power
        return any(getattr(type(entry), hook) is not getattr(base, hook) for hook in ("region_coins", "turn_coins"))
    scoring = {e.id.upper().replace("-", "_") for e in (*RACE_RULES, *POWER_RULES) if scores(e)}
    assert {"DWARVES", "HUMANS", "ORCS", "WIZARDS", "ALCHEMIST", "FOREST", "FORTIFIED", "HILL", "MERCHANT",
            "PILLAGING", "SWAMP", "WEALTHY"} == scoring
    for module, function in (("scoring", "score"), ("scoring", "bonus_coins"), ("ruleset", "_value"),
                             ("coverage", "_scoring_uses")):
        named = _names_in(module, function)
        assert not (named & scoring), (module, function, named & scoring)
        assert named & {"bonus_coins", "REGION_COINS", "POWER_REGION", "RACE_REGION", "region_coins"} \
            or function == "score", (module, function)

