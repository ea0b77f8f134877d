"""Narby Conquest (rules document 001), as ruleset ``narby``.

Read in this order: ``tables.yaml`` (the dragons, places of power, cards and the four charts, as data),
``tables.py`` (their loader and checks), ``board.py`` (the 20x20 grid, 2x2 pieces, adjacency),
``rules.py`` (the state and the procedures: setup, draw, populate, action, tribute), ``notation.py``,
``ruleset.py`` (options, greedy evaluation, text board). Readings of unclear sentences: docs/rules/narby.md.
"""

from conquest.rulesets.narby.ruleset import NarbyRuleset

RULESET = NarbyRuleset()
NarbyRuleset.state_class.ruleset = RULESET
